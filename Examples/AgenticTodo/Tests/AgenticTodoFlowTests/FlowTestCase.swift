import XCTest
import AgenticTodoCore

/// Launches the app state the way a UI test launches the app: with launch arguments.
class FlowTestCase: XCTestCase {
    var launchArguments: [String] = []

    override func setUp() {
        super.setUp()
        launchArguments = [LaunchArguments.uitesting]
    }

    func launch() -> AppState {
        AppState(launchArguments: launchArguments)
    }
}
