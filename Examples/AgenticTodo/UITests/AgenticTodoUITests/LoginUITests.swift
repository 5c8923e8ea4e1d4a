// XCUITest sources of the AgenticTodoUITests target of App/AgenticTodoApp.xcodeproj, hosted by its
// AgenticTodoApp target (the package's RootView in a window). A Swift package cannot host UI tests,
// so `swift test` never builds these; on a machine without XCUITest the file compiles to nothing.
// The launch arguments are the app's (AgenticTodoCore.LaunchArguments, the same strings as prepush's
// UITestSupport); the identifiers follow shared/spec/agentic-todo-demo.md's {scope}_{type}_{name}.
#if os(iOS) && canImport(XCTest)
import XCTest

final class LoginUITests: XCTestCase {
    override func setUp() {
        continueAfterFailure = false
    }

    func test_login_validCredentials() {
        let app = XCUIApplication()
        app.launchArguments += ["--uitesting", "--reset-state"]
        app.launch()
        app.textFields["login_field_email"].tap()
        app.textFields["login_field_email"].typeText("ana@example.com")
        app.secureTextFields["login_field_password"].tap()
        app.secureTextFields["login_field_password"].typeText("correct-horse")
        app.buttons["login_button_submit"].tap()
        // Signed in: the tab bar replaces the sign-in form.
        XCTAssertTrue(app.tabBars.buttons["Home"].waitForExistence(timeout: 5))
    }

    func test_login_invalidPassword() {
        let app = XCUIApplication()
        app.launchArguments += ["--uitesting", "--reset-state"]
        app.launch()
        app.textFields["login_field_email"].tap()
        app.textFields["login_field_email"].typeText("ana@example.com")
        app.secureTextFields["login_field_password"].tap()
        app.secureTextFields["login_field_password"].typeText("nope")
        app.buttons["login_button_submit"].tap()
        XCTAssertFalse(app.tabBars.buttons["Home"].waitForExistence(timeout: 2))
    }
}
#endif
