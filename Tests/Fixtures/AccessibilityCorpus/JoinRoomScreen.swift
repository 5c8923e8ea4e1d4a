import SwiftUI

struct JoinRoomScreen: View {
    @State private var roomCode = ""
    @State private var isJoining = false
    @FocusState private var codeFocused: Bool
    let onJoin: (String) -> Void
    let onClose: () -> Void

    var body: some View {
        VStack(spacing: 24) {
            header
            TextField("Room code", text: $roomCode) // expect: missing-identifier
                .textInputAutocapitalization(.characters)
                .focused($codeFocused)
                .onTapGesture { codeFocused = true }
            Button {
                isJoining = true
                onJoin(roomCode)
            } label: {
                if isJoining {
                    ProgressView()
                } else {
                    Text("Join")
                }
            }
            .accessibilityIdentifier("join_button_join")
            .disabled(roomCode.isEmpty)
        }
        .padding()
    }

    private var header: some View {
        HStack {
            Text("Join a room")
                .font(.title2.bold())
            Spacer()
            Button(action: onClose) { // expect: icon-button-missing-label
                Image(systemName: "xmark.circle.fill")
                    .font(.system(size: 22))
            }
            .accessibilityIdentifier("join_button_close")
        }
    }
}

#Preview {
    JoinRoomScreen(onJoin: { _ in }, onClose: {})
        .overlay(Button("Reset") {}.font(.system(size: 9)))
}
