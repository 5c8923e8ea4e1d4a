import PrePushCore
internal import SwiftSyntax

/// An interactive control without `.accessibilityIdentifier` in its own modifier chain.
package struct MissingIdentifierRule: AccessibilityRule {
    package static let description = RuleDescription(
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
            // The system draws an alert's actions; UI tests find them by title (`app.alerts.buttons["OK"]`).
            RuleExample(#"Form { fields }.alert("Login failed", isPresented: $failed) { Button("OK", role: .cancel) { } }"#),
            RuleExample(#"MuteButton().accessibilityRepresentation { Toggle("Mute", isOn: $muted) }.accessibilityIdentifier("room_button_mute")"#),
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

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        let controls = file.viewCalls.filter { settings.controls.contains($0.name) && !Self.isNotAControl($0, in: file) }
        guard !controls.isEmpty else { return [] }
        // Per view type: how many controls have an identifier, how many not.
        var screens: [String: (tagged: Int, untagged: Int)] = [:]
        let judged = controls.map { control in
            (control, type: ParsedSource.enclosingType(of: Syntax(control.call)), tagged: Self.hasIdentifier(control))
        }
        for control in judged {
            if control.tagged { screens[control.type, default: (0, 0)].tagged += 1 } else { screens[control.type, default: (0, 0)].untagged += 1 }
        }
        let convention = settings.scheme.map { "in \($0.phrase)" } ?? "in the {scope}_{type}_{name} convention"
        return judged.filter { !$0.tagged }.map { control, type, _ in
            var finding = file.finding(Self.self, at: control.nameToken,
                                       message: "\(control.name) has no .accessibilityIdentifier; add one \(convention)",
                                       severity: severity, span: control.chain, control: control)
            let screen = screens[type] ?? (0, 1)
            finding.siblings = SiblingControls(tagged: screen.tagged, untagged: screen.untagged - 1)
            return finding
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
    /// VoiceOver action, not a control on screen; a control in `.accessibilityRepresentation {}` is
    /// what VoiceOver reads for the view it represents (which carries the identifier); a `.hidden()`
    /// control cannot be reached. An alert's or confirmation dialog's actions are drawn by the system
    /// as its buttons, which UI tests reach by their titles (`app.alerts.buttons["OK"]`).
    static func isNotAControl(_ control: ViewCall, in file: ParsedSource) -> Bool {
        !control.modifier("hidden").isEmpty || file.isAccessibilityAction(control)
            || control.isInsideClosure(ofModifier: ["accessibilityRepresentation", "alert", "confirmationDialog"])
    }
}
