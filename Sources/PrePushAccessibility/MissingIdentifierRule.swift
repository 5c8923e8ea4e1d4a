import PrePushCore
internal import SwiftSyntax

/// An interactive control without `.accessibilityIdentifier` in its own modifier chain.
public struct MissingIdentifierRule: AccessibilityRule {
    public static let description = RuleDescription(
        identifier: "missing-identifier",
        name: "Interactive control without an identifier",
        rationale: """
        UI tests find controls by identifier. A control without one is found by its label text, which \
        changes with copy and language, so the test breaks or cannot be written.
        """,
        issueType: .missingIdentifier,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Button("Add") { add() }.accessibilityIdentifier("home_button_add")"#),
            RuleExample(#"TextField("Email", text: $email).padding().accessibilityIdentifier("login_field_email")"#),
            RuleExample(#"Toggle("Dark mode", isOn: $dark).accessibilityIdentifier("settings_toggle_dark_mode").padding()"#),
            RuleExample(#"Text("Hello")"#),
        ],
        triggeringExamples: [
            RuleExample(#"↓Button("Add") { add() }"#),
            RuleExample("""
            VStack {
                ↓SecureField("Password", text: $password)
                    .textContentType(.password)
                ↓Toggle("Notifications", isOn: $on)
            }
            """),
            RuleExample(#"↓NavigationLink("Details") { DetailView() }.padding()"#),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        return file.viewCalls
            .filter { settings.controls.contains($0.name) && $0.modifier("accessibilityIdentifier").isEmpty }
            .map { control in
                file.finding(Self.self, at: control.nameToken,
                             message: "\(control.name) has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention",
                             severity: severity, span: control.chain)
            }
    }
}
