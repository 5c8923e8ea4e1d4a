import PrePushCore
internal import SwiftSyntax

/// A Button or Menu whose label is only an image, without `.accessibilityLabel`.
public struct IconButtonMissingLabelRule: AccessibilityRule {
    public static let description = RuleDescription(
        identifier: "icon-button-missing-label",
        name: "Icon-only button without a label",
        rationale: """
        VoiceOver reads an icon-only button by its image name ("plus", "square and arrow up") or not \
        at all. `.accessibilityLabel` says what the button does.
        """,
        issueType: .missingLabel,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.accessibilityLabel("Add task")"#),
            RuleExample(#"Button { add() } label: { Label("Add task", systemImage: "plus") }"#),
            RuleExample(#"Button("Add task") { add() }"#),
            RuleExample(#"Button(action: add) { Image(systemName: "plus").accessibilityLabel("Add task") }"#),
            RuleExample(#"Button(action: add) { HStack { Image(systemName: "plus"); Text("Add") } }"#),
        ],
        triggeringExamples: [
            RuleExample(#"↓Button(action: add) { Image(systemName: "plus") }"#),
            RuleExample(#"↓Button { share() } label: { Image(systemName: "square.and.arrow.up").imageScale(.large) }.padding()"#),
            RuleExample(#"↓Menu { Button("Delete") { delete() } } label: { Image(systemName: "ellipsis.circle") }"#),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        return file.viewCalls.compactMap { view in
            guard view.name == "Button" || view.name == "Menu", view.modifier("accessibilityLabel").isEmpty,
                  let label = Self.labelClosure(of: view.call), Self.isOnlyAnUnlabelledImage(label) else { return nil }
            return file.finding(Self.self, at: view.nameToken,
                                message: "\(view.name) shows only an image; add .accessibilityLabel(\"…\") saying what it does",
                                severity: severity, span: view.chain)
        }
    }

    /// The closure that builds the label: `label:`, or the trailing closure of `Button(action:)`.
    static func labelClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let labelled = call.additionalTrailingClosures.first(where: { $0.label.text == "label" }) { return labelled.closure }
        if let argument = call.arguments.first(where: { $0.label?.text == "label" }) { return argument.expression.as(ClosureExprSyntax.self) }
        if call.arguments.contains(where: { $0.label?.text == "action" }) { return call.trailingClosure }
        return nil
    }

    /// One statement, an `Image(…)` chain with no `.accessibilityLabel` of its own.
    static func isOnlyAnUnlabelledImage(_ closure: ClosureExprSyntax) -> Bool {
        guard closure.statements.count == 1, let expression = closure.statements.first?.item.as(ExprSyntax.self) else { return false }
        var root = expression
        var labelled = false
        while let call = root.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            if member.declName.baseName.text == "accessibilityLabel" { labelled = true }
            root = base
        }
        guard let image = root.as(FunctionCallExprSyntax.self),
              image.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Image" else { return false }
        return !labelled
    }
}
