import SwiftUI

struct AvatarView: View {
    let account: Account
    var size: CGFloat = 40

    var body: some View {
        Group {
            if let url = account.avatarURL {
                AsyncImage(url: url) { image in
                    image.resizable()
                } placeholder: {
                    placeholder
                }
            } else {
                placeholder
            }
        }
        .frame(width: size, height: size)
        .clipShape(Circle())
        .accessibilityHidden(true)
    }

    // Initials drawn to the avatar's size, never read by VoiceOver: its font follows its frame.
    private var placeholder: some View {
        Text(account.initials)
            .font(.system(size: size * 0.4, weight: .semibold))
            .frame(width: size, height: size)
            .background(Color.accentColor.opacity(0.3))
            .accessibilityHidden(true)
    }
}

struct StatusRowHeaderView: View {
    let status: Status
    let openProfile: () -> Void

    var body: some View {
        HStack(alignment: .top) {
            AvatarView(account: status.account) // expect: tap-gesture-missing-trait
                .onTapGesture(perform: openProfile)
            VStack(alignment: .leading) {
                Text(status.account.displayName)
                    .font(.system(size: 15, weight: .semibold)) // expect: fixed-font-size
                Text("@\(status.account.acct)")
                    .font(.footnote)
                    .foregroundStyle(.secondary)
            }
            Spacer()
            Image(systemName: status.visibility.iconName) // expect: image-missing-label
                .foregroundStyle(.secondary)
        }
    }
}
