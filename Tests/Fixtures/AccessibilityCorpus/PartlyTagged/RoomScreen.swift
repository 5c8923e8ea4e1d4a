import SwiftUI

/// The room screen: the one the UI tests drive, tagged whole in the team's `screen-element` style.
struct RoomScreen: View {
    @Bindable var context: RoomScreenViewModel.Context
    @State private var isMuted = false

    var body: some View {
        VStack(spacing: 0) {
            header
            TimelineView(items: context.items)
            composer
        }
    }

    private var header: some View {
        HStack {
            Button { context.send(.displayRoomDetails) } label: {
                CompoundIcon(\.info)
            }
            .accessibilityLabel(L10n.roomDetails)
            .accessibilityIdentifier("room-details")

            Button { context.send(.startCall) } label: { // expect: icon-button-missing-label
                CompoundIcon(\.videoCall)
            }
            .accessibilityIdentifier("room-join_call")

            Button { isMuted.toggle() } label: {
                Image(systemName: isMuted ? "bell.slash" : "bell")
            }
            .accessibilityRepresentation { Toggle(L10n.mute, isOn: $isMuted) }
            .accessibilityIdentifier("room-mute_toggle")

            Button(L10n.threads) { context.send(.showThreads) } // expect: missing-identifier
        }
        .padding(.horizontal)
    }

    private var composer: some View {
        HStack {
            TextField(L10n.message, text: $context.composerText)
                .accessibilityIdentifier("room-composer_field")
            Button(L10n.send) { context.send(.sendMessage) }
                .accessibilityIdentifier("room-send")
            Button(L10n.attach) { context.send(.attach) }
                .accessibilityIdentifier("roomAttachButton") // expect: identifier-convention
            Link(destination: context.helpURL) { // expect: icon-button-missing-label
                Image(systemName: "questionmark.circle")
            }
            .accessibilityIdentifier("room-help")
        }
    }
}
