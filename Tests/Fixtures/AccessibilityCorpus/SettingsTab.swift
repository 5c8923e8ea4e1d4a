import SwiftUI

struct SettingsTab: View {
    @AppStorage("notifications") private var notifications = true
    @AppStorage("haptics") private var haptics = false
    @State private var showsDebugMenu = false

    var body: some View {
        NavigationStack {
            Form {
                Section("General") {
                    Toggle("Notifications", isOn: $notifications)
                        .accessibilityIdentifier("settings_toggle_notifications")
                    Toggle("Haptics", isOn: $haptics) // expect: missing-identifier
                    NavigationLink("Account") { AccountView() }
                        .accessibilityIdentifier("settings_link_account")
                    NavigationLink { PrivacyView() } label: { // expect: missing-identifier
                        Label("Privacy", systemImage: "hand.raised")
                    }
                }
                Section {
                    Text("Version 2.4.1")
                        .font(.system(size: 11)) // expect: fixed-font-size
                        .foregroundStyle(.secondary)
                }
                #if DEBUG
                Section("Debug") {
                    Button("Crash") { fatalError() }
                    Text("Build 1234").font(.system(size: 10))
                }
                #endif
            }
            .navigationTitle("Settings")
        }
        .tabItem {
            Image(systemName: "gear")
            Text("Settings")
        }
    }
}

struct AccountView: View {
    var body: some View { Text("Account") }
}

struct PrivacyView: View {
    var body: some View { Text("Privacy") }
}

struct SettingsTab_Previews: PreviewProvider {
    static var previews: some View {
        SettingsTab()
            .overlay(Image(systemName: "ladybug"))
    }
}
