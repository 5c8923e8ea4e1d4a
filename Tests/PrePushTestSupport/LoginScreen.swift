/// The login screen of issue 52, for the tests of the `ui-test-identifier` rule in-process and
/// through a real push: two of its three controls tagged (66%, under the 75% at which
/// missing-identifier applies), and a UI test querying both identifiers.
public enum LoginScreen {
    /// App/Login/LoginView.swift.
    public static let view = """
    import SwiftUI

    struct LoginView: View {
        @State private var email = ""
        @State private var password = ""
        var body: some View {
            VStack {
                TextField("Email", text: $email)
                    .accessibilityIdentifier("login_field_email")
                SecureField("Password", text: $password)
                    .accessibilityIdentifier("login_field_password")
                Button("Forgot password?") { forgot() }
            }
        }
    }

    """

    /// AppUITests/LoginUITests.swift.
    public static let uiTest = """
    import XCTest

    final class LoginUITests: XCTestCase {
        func testLogsIn() {
            let app = XCUIApplication()
            app.launch()
            app.textFields["login_field_email"].tap()
            app.secureTextFields["login_field_password"].typeText("secret")
        }
    }

    """

    /// The view's line that sets the email field's identifier.
    public static let emailModifier = "            .accessibilityIdentifier(\"login_field_email\")\n"
}
