import XCTest
import AgenticTodoCore

final class LoginFlowTests: FlowTestCase {
    func test_login_validCredentials() {
        launchArguments.append(LaunchArguments.resetState)
        let app = launch()
        XCTAssertTrue(app.isUITesting)
        XCTAssertTrue(app.logIn(email: "ana@example.com", password: "correct-horse"))
    }

    func test_login_invalidPassword() {
        let app = launch()
        XCTAssertFalse(app.logIn(email: "ana@example.com", password: "nope"))
        XCTAssertFalse(app.isLoggedIn)
    }
}
