import SwiftUI

/// An account row: its actions are VoiceOver actions; the avatar and the quick action are buttons.
struct AccountActionsView: View {
    let account: Account
    let quickAction: QuickAction
    let onAction: (AccountAction) -> Void

    var body: some View {
        HStack {
            Button { onAction(.showProfile) } label: { // expect: icon-button-missing-label
                LoadableAvatarImage(url: account.avatarURL, name: account.displayName)
                    .frame(width: 44, height: 44)
            }
            VStack(alignment: .leading) {
                Text(account.displayName).font(.body)
                Text(account.handle).font(.caption)
            }
            .accessibilityElement(children: .combine)
            .accessibilityActions { rowActions }
            Spacer()
            Button(action: { onAction(.quick(quickAction)) }) { // expect: icon-button-missing-label
                quickAction.image(for: .compact)
            }
        }
    }

    @ViewBuilder private var rowActions: some View {
        Button(L10n.mute) { onAction(.mute) }
        Button(L10n.block, role: .destructive) { onAction(.block) }
    }
}
