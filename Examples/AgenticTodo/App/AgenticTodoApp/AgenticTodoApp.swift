// The iOS app that hosts the XCUITest target (AgenticTodoApp.xcodeproj): the package's screens, in a
// window, with the state the UI tests' launch arguments ask for.
#if os(iOS)
import AgenticTodoCore
import AgenticTodoViews
import SwiftUI

@main
struct AgenticTodoApp: App {
    @State private var state = AppState(launchArguments: ProcessInfo.processInfo.arguments)

    var body: some Scene {
        WindowGroup {
            RootView(state: state)
        }
    }
}
#endif
