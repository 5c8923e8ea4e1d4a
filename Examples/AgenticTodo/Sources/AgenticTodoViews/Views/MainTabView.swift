#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

struct MainTabView: View {
    let state: AppState

    var body: some View {
        TabView {
            TaskListView(state: state)
                .tabItem { Label("Home", systemImage: "house") }
                .accessibilityIdentifier("tab_home")
            SettingsView(state: state)
                .tabItem { Label("Settings", systemImage: "gear") }
                .accessibilityIdentifier("tab_settings")
        }
    }
}
#endif
