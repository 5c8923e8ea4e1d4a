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
            RuleExample(#"Text(task.title).accessibilityActions { Button("Delete") { delete(task) } }"#),
            RuleExample(#"Button("Reset") { reset() }.hidden()"#),
            RuleExample(#"Button("Save") { save() }.buttonStyle(PrimaryStyle(accessibilityIdentifier: "form_button_save"))"#),
            RuleExample(#"Button(action: save) { Text("Save").accessibilityIdentifier("form_button_save") }"#),
            // Modifiers inside `#if … #endif` in a chain, and after it, are the chain's.
            RuleExample("""
            Button("Send") { send() }
            #if os(iOS)
            .hoverEffect()
            #endif
            .accessibilityIdentifier("room_button_send")
            """),
            // Buttons made by a property used only in `.accessibilityActions` are VoiceOver actions.
            RuleExample("""
            struct MessageRow: View {
                var body: some View {
                    Text(message.body).accessibilityActions { rowActions }
                }
                @ViewBuilder private var rowActions: some View {
                    Button("Reply") { reply() }
                    Button("React") { react() }
                }
            }
            """),
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
            .filter { settings.controls.contains($0.name) && !Self.hasIdentifier($0) && !Self.isNotAControl($0, in: file) }
            .map { control in
                file.finding(Self.self, at: control.nameToken,
                             message: "\(control.name) has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention",
                             severity: severity, span: control.chain, control: control)
            }
    }

    /// `.accessibilityIdentifier` on the control; an argument named `accessibilityIdentifier:` to the
    /// control, a style or a helper in its chain; or an identifier set on its label's content.
    static func hasIdentifier(_ control: ViewCall) -> Bool {
        if !control.modifier("accessibilityIdentifier").isEmpty { return true }
        let passed = control.chain.tokens(viewMode: .sourceAccurate).contains { token in
            token.text == "accessibilityIdentifier" && token.nextToken(viewMode: .sourceAccurate)?.tokenKind == .colon
        }
        if passed { return true }
        guard let label = IconButtonMissingLabelRule.labelClosure(of: control.call) else { return false }
        return label.tokens(viewMode: .sourceAccurate).contains { $0.text == "accessibilityIdentifier" }
    }

    /// A Button inside `.accessibilityActions {}` (or made by a property used only there) is a
    /// VoiceOver action, not a control on screen; a `.hidden()` control cannot be reached.
    static func isNotAControl(_ control: ViewCall, in file: ParsedSource) -> Bool {
        !control.modifier("hidden").isEmpty || file.isAccessibilityAction(control)
    }
}
