import XCTest

/// The project's own base class: every UI test launches the app in UI-testing mode.
class BaseUITestCase: XCTestCase {
    var app: XCUIApplication!

    override func setUpWithError() throws {
        continueAfterFailure = false
        app = XCUIApplication()
        app.launchArguments = [LaunchArguments.uitesting]
    }

    func launchLoggedIn() {
        app.launchArguments.append(LaunchArguments.skipOnboarding)
        app.launch()
    }
}
