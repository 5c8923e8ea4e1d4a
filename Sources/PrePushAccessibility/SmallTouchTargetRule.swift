import PrePushCore
internal import SwiftSyntax

/// A tappable element given a frame under 44 points in either direction.
public struct SmallTouchTargetRule: AccessibilityRule {
    /// Apple's minimum hit target, in points.
    public static let minimumSize = 44.0

    public static let description = RuleDescription(
        identifier: "small-touch-target",
        name: "Touch target under 44 points",
        rationale: """
        Apple's Human Interface Guidelines ask for hit targets of at least 44×44 points; smaller ones \
        are hard to hit for people with limited dexterity and are flagged by Xcode's hit-region audit.
        """,
        issueType: .touchTargetTooSmall,
        defaultSeverity: .warning,
        nonTriggeringExamples: [
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.frame(width: 44, height: 44)"#),
            RuleExample(#"Image(systemName: "star").frame(width: 20, height: 20)"#),
            RuleExample(#"Button("Add") { add() }.frame(maxWidth: .infinity)"#),
        ],
        triggeringExamples: [
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.↓frame(width: 24, height: 24)"#),
            RuleExample(#"Image(systemName: "xmark").onTapGesture { close() }.↓frame(height: 30)"#),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        var findings: [AccessibilityFinding] = []
        for view in file.viewCalls {
            let tappable = settings.controls.contains(view.name) || !view.modifier("onTapGesture").isEmpty
            guard tappable else { continue }
            for frame in view.modifier("frame") {
                let small = frame.arguments.contains { argument in
                    guard let label = argument.label?.text, label == "width" || label == "height",
                          let value = Self.number(argument.expression) else { return false }
                    return value < Self.minimumSize
                }
                guard small, let name = frame.calledExpression.as(MemberAccessExprSyntax.self)?.declName else { continue }
                findings.append(file.finding(Self.self, at: name,
                                             message: "a tappable \(view.name) smaller than 44×44 points is hard to hit; make its frame at least 44 in each direction",
                                             severity: severity, span: view.chain))
            }
        }
        return findings
    }

    static func number(_ expression: ExprSyntax) -> Double? {
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return Double(integer.literal.text) }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return Double(float.literal.text) }
        return nil
    }
}
