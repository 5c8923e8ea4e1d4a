import SwiftUI

struct StatusRowActionsView: View {
    enum Action: CaseIterable {
        case respond, boost, favorite, bookmark, share

        var iconName: String {
            switch self {
            case .respond: "arrowshape.turn.up.left"
            case .boost: "arrow.2.squarepath"
            case .favorite: "star"
            case .bookmark: "bookmark"
            case .share: "square.and.arrow.up"
            }
        }
    }

    let viewModel: StatusRowViewModel
    @Environment(\.openURL) private var openURL

    var body: some View {
        HStack {
            ForEach(Action.allCases, id: \.self) { action in
                actionButton(action)
                Spacer()
            }
        }
        .accessibilityActions { accessibilityActionButtons }
    }

    private func actionButton(_ action: Action) -> some View {
        Button { handle(action) } label: { // expect: icon-button-missing-label
            HStack(spacing: 2) {
                actionIcon(action)
                if let count = viewModel.count(for: action), count > 0 {
                    Text("\(count)")
                        .font(.caption)
                }
            }
        }
        .buttonStyle(.borderless)
    }

    private func actionIcon(_ action: Action) -> some View {
        Image(systemName: action.iconName)
            .symbolVariant(viewModel.isActive(action) ? .fill : .none)
    }

    @ViewBuilder
    private var accessibilityActionButtons: some View {
        Button("Reply") { handle(.respond) }
        Button(viewModel.isBoosted ? "Unboost" : "Boost") { handle(.boost) }
        Button(viewModel.isFavorited ? "Unfavorite" : "Favorite") { handle(.favorite) }
    }

    private func handle(_ action: Action) {}
}
