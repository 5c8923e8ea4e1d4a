import SwiftUI

struct Conversation: Identifiable {
    let id: String
    let title: String
    let preview: String
    let avatar: UIImage?
    let unread: Int
}

struct ConversationsListRow: View {
    let conversation: Conversation
    let open: () -> Void
    let mute: () -> Void
    let delete: () -> Void

    var body: some View {
        rowContent // expect: tap-gesture-missing-trait
            .contentShape(Rectangle())
            .onTapGesture(perform: open)
            .accessibilityActions {
                Button("Mute", action: mute)
                Button("Delete", role: .destructive, action: delete)
            }
    }

    private var rowContent: some View {
        HStack(spacing: 12) {
            avatar
            VStack(alignment: .leading) {
                Text(conversation.title).font(.headline)
                Text(conversation.preview).font(.subheadline).lineLimit(1)
            }
            Spacer()
            if conversation.unread > 0 {
                Text("\(conversation.unread)")
                    .font(.caption2.bold())
                    .padding(6)
                    .background(Circle().fill(.blue))
            }
        }
    }

    @ViewBuilder private var avatar: some View {
        if let image = conversation.avatar {
            Image(uiImage: image) // expect: image-missing-label
                .resizable()
                .frame(width: 44, height: 44)
                .clipShape(Circle())
        } else {
            Image(systemName: "person.crop.circle") // expect: image-missing-label
                .font(.system(size: 44))
        }
    }
}
