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
            RuleExample(#"Toggle("Mute", isOn: $muted).toggleStyle(.button).↓frame(minWidth: 30, minHeight: 30)"#),
            RuleExample(#"Button(action: close) { Image(systemName: "xmark").↓frame(width: 24, height: 24) }"#),
            RuleExample("""
            enum Layout { static let icon: CGFloat = 28 }
            struct Bar: View {
                var body: some View {
                    Button(action: back) { Image(systemName: "chevron.left") }.↓frame(width: Layout.icon, height: Layout.icon)
                }
            }
            """),
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
            // A frame on a Button's label content is the tappable area, unless the Button itself
            // is given a size, padding or a content shape.
            if view.name == "Button", !view.modifiers.contains(where: { ["frame", "padding", "contentShape"].contains($0.name) }),
               let label = IconButtonMissingLabelRule.labelClosure(of: view.call), label.statements.count == 1,
               let content = label.statements.first?.item.as(ExprSyntax.self) {
                findings += small(frames: ModifierChain(root: Self.root(of: content)).modifiers.filter { $0.name == "frame" }.map(\.call),
                                  of: view, in: file, severity: severity)
            }
            let tappable = settings.controls.contains(view.name) || !view.modifier("onTapGesture").isEmpty
            guard tappable else { continue }
            for frame in view.modifier("frame") {
                let small = frame.arguments.contains { argument in
                    guard let label = argument.label?.text, ["width", "height", "minWidth", "minHeight"].contains(label),
                          let value = file.number(argument.expression) else { return false }
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

    /// The view a modifier chain starts from (`Text("Pay").frame(…)` → `Text("Pay")`).
    static func root(of expression: ExprSyntax) -> ExprSyntax {
        var root = expression
        while let call = root.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            root = base
        }
        return root
    }

    /// Findings for the frames under 44 points among `frames`.
    func small(frames: [FunctionCallExprSyntax], of view: ViewCall, in file: ParsedSource, severity: Severity) -> [AccessibilityFinding] {
        frames.compactMap { frame in
            let small = frame.arguments.contains { argument in
                guard let label = argument.label?.text, ["width", "height", "minWidth", "minHeight"].contains(label),
                      let value = file.number(argument.expression) else { return false }
                return value < Self.minimumSize
            }
            guard small, let name = frame.calledExpression.as(MemberAccessExprSyntax.self)?.declName else { return nil }
            return file.finding(Self.self, at: name,
                                message: "a tappable \(view.name) smaller than 44×44 points is hard to hit; make its frame at least 44 in each direction",
                                severity: severity, span: view.chain)
        }
    }

    static func number(_ expression: ExprSyntax) -> Double? {
        if let integer = expression.as(IntegerLiteralExprSyntax.self) { return Double(integer.literal.text) }
        if let float = expression.as(FloatLiteralExprSyntax.self) { return Double(float.literal.text) }
        return nil
    }
}
