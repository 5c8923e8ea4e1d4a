#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

struct LoginView: View {
    let state: AppState
    @State private var email = ""
    @State private var password = ""

    var body: some View {
        Form {
            TextField("Email", text: $email)
                .textContentType(.emailAddress)
                .accessibilityIdentifier("login_field_email")
            SecureField("Password", text: $password)
                .accessibilityIdentifier("login_field_password")
            Button("Sign in") { state.logIn(email: email, password: password) }
                .accessibilityIdentifier("login_button_submit")
            Button("Forgot password?") { }
                .accessibilityIdentifier("login_button_forgot")
        }
    }
}
#endif
