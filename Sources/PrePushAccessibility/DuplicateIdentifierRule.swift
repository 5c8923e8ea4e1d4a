import PrePushCore
internal import SwiftSyntax

/// The same literal identifier twice in one file.
public struct DuplicateIdentifierRule: AccessibilityRule {
    public static let description = RuleDescription(
        identifier: "duplicate-identifier",
        name: "Identifier used twice",
        rationale: """
        A UI test that looks an identifier up gets whichever element comes first; the second element \
        can never be tested, and which one is first can change with layout.
        """,
        issueType: .identifierConvention,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample("""
            Button("Save") { save() }.accessibilityIdentifier("modal_button_save")
            Button("Cancel") { cancel() }.accessibilityIdentifier("modal_button_cancel")
            """),
            RuleExample(#"ForEach(tasks) { task in TaskRow(task: task).accessibilityIdentifier("home_cell_task_\(task.id)") }"#),
        ],
        triggeringExamples: [
            RuleExample("""
            enum A11y { enum Form { static let save = "form_button_save" } }
            struct FormView: View {
                var body: some View {
                    Button("Save") { save() }.accessibilityIdentifier(A11y.Form.save)
                    Button("Save draft") { draft() }.accessibilityIdentifier(↓A11y.Form.save)
                }
            }
            """),
            RuleExample("""
            enum A11yIdentifiers {
                static let members = Members()
                struct Members { let invite = "members_button_invite" }
            }
            struct MembersView: View {
                var body: some View {
                    Button("Invite people") { invite() }.accessibilityIdentifier(A11yIdentifiers.members.invite)
                    Button("Invite") { invite() }.accessibilityIdentifier(↓A11yIdentifiers.members.invite)
                }
            }
            """),
            RuleExample("""
            Button("Save") { save() }.accessibilityIdentifier("modal_button_save")
            Button("Save draft") { draft() }.accessibilityIdentifier(↓"modal_button_save")
            """),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        // Where each identifier was first seen; a line is worked out only for a duplicate.
        var first: [String: ExprSyntax] = [:]
        var findings: [AccessibilityFinding] = []
        for view in file.viewCalls {
            for call in view.modifier("accessibilityIdentifier") {
                // A literal, or a constant of this file (`A11y.Checkout.payButton`).
                guard let literal = call.arguments.first?.expression, let identifier = file.identifierText(literal),
                      !identifier.contains("{}") else { continue }
                if let earlier = first[identifier] {
                    findings.append(file.finding(Self.self, at: literal, message: "\"\(identifier)\" is already used on line \(file.line(of: earlier))",
                                                 severity: severity, span: view.chain))
                } else {
                    first[identifier] = literal
                }
            }
        }
        return findings
    }
}
