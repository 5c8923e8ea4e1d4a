import PrePushCore
internal import SwiftSyntax

/// Identifiers follow `{scope}_{type}_{name}`, and the type word agrees with the control.
public struct IdentifierConventionRule: AccessibilityRule {
    public static let description = RuleDescription(
        identifier: "identifier-convention",
        name: "Identifier outside the {scope}_{type}_{name} convention",
        rationale: """
        One convention lets a test author guess an identifier and a reviewer spot a wrong one: the \
        screen, the kind of control, then its name (login_button_submit). A Toggle's identifier says \
        toggle, a text field's says field.
        """,
        issueType: .identifierConvention,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Button("Log in") { submit() }.accessibilityIdentifier("login_button_submit")"#),
            RuleExample(#"Toggle("Dark", isOn: $dark).accessibilityIdentifier("settings_toggle_dark_mode")"#),
            RuleExample(#"TaskRow(task: task).accessibilityIdentifier("home_cell_task_\(task.id)")"#),
            RuleExample(#"HomeView().tabItem { Label("Home", systemImage: "house") }.accessibilityIdentifier("tab_home")"#),
            RuleExample(#"Button { dismiss() } label: { Image(systemName: "chevron.left") }.accessibilityIdentifier("nav_button_back")"#),
            RuleExample(#"List(tasks) { TaskRow(task: $0) }.accessibilityIdentifier("home_list_tasks")"#),
            RuleExample(#"Text(version).accessibilityIdentifier("settings_label_version")"#),
            RuleExample(#"Button("Save") { save() }.accessibilityIdentifier(Identifiers.save)"#),
        ],
        triggeringExamples: [
            RuleExample(#"Button("Add") { add() }.accessibilityIdentifier(↓"addButton")"#),
            RuleExample(#"Toggle("Dark", isOn: $dark).accessibilityIdentifier(↓"settings_button_dark_mode")"#),
            RuleExample(#"TextField("Title", text: $title).accessibilityIdentifier(↓"modal-field-title")"#),
            RuleExample(#"Button("Add") { add() }.accessibilityIdentifier(↓"Home_Button_Add")"#),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description),
              let pattern = try? Regex(settings.pattern) else { return [] }
        var findings: [AccessibilityFinding] = []
        for view in file.viewCalls {
            for call in view.modifier("accessibilityIdentifier") {
                guard let literal = call.arguments.first?.expression.as(StringLiteralExprSyntax.self) else { continue }
                let identifier = literal.textWithPlaceholders
                guard (try? pattern.wholeMatch(in: identifier)) != nil else {
                    findings.append(file.finding(Self.self, at: literal,
                                                 message: "\"\(identifier)\" does not follow {scope}_{type}_{name} (for example login_button_submit)",
                                                 severity: severity, span: view.chain))
                    continue
                }
                let parts = identifier.split(separator: "_")
                guard parts.first != "tab", parts.count >= 3, let allowed = settings.typeWords[view.name],
                      !allowed.contains(String(parts[1])) else { continue }
                findings.append(file.finding(Self.self, at: literal,
                                             message: "a \(view.name)'s identifier says \(allowed.joined(separator: " or ")), not \(parts[1]): \"\(identifier)\"",
                                             severity: severity, span: view.chain))
            }
        }
        return findings
    }
}
