import XCTest

final class LoginUITests: BaseUITestCase {
    func test_login_validCredentials() throws {
        app.launchArguments += ["--reset-onboarding"]
        app.launch()
        app.textFields["login_field_email"].tap()
    }

    @MainActor
    func test_login_invalidPassword() async throws {
        app.launch()
    }

    #if os(iOS)
    func test_login_forgotPassword() {
        app.launch()
    }
    #endif

    // Not tests: parameters, static, not named test.
    func test_login_helper(_ email: String) { XCTAssertTrue(email.contains("@")) }
    static func test_login_static() { XCTFail("never run: static methods are not tests") }
    func loginHelper() { XCTAssertTrue(app.buttons["login_button_submit"].exists) }
}

extension LoginUITests {
    func test_login_keyboardDismiss() {
        launchLoggedIn()
    }
}
