#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

/// The app's window: the sign-in screen until the user is signed in (or `--skip-onboarding`), then the tabs.
public struct RootView: View {
    let state: AppState

    /// The window for `state`.
    public init(state: AppState) {
        self.state = state
    }

    public var body: some View {
        if state.isLoggedIn {
            MainTabView(state: state)
        } else {
            LoginView(state: state)
        }
    }
}
#endif
