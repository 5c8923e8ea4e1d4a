#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

struct SettingsView: View {
    let state: AppState
    @State private var darkMode = false
    @State private var notifications = true

    var body: some View {
        Form {
            Toggle("Dark mode", isOn: $darkMode)
                .accessibilityIdentifier("settings_toggle_dark_mode")
            Toggle("Notifications", isOn: $notifications)
                .accessibilityIdentifier("settings_toggle_notifications")
            Button("Clear data", role: .destructive) { state.clearData() }
                .accessibilityIdentifier("settings_button_clear")
            Text("Version 1.0")
                .accessibilityIdentifier("settings_label_version")
        }
    }
}
#endif
