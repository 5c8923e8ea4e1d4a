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
            RuleExample(#"Button(action: open) { HStack { Image(systemName: "person"); ProfileSummary(user: user) } }"#),
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.accessibilityHidden(true)"#),
        ],
        triggeringExamples: [
            RuleExample(#"↓Button(action: add) { Image(systemName: "plus") }"#),
            RuleExample(#"↓Button { share() } label: { Image(systemName: "square.and.arrow.up").imageScale(.large) }.padding()"#),
            RuleExample(#"↓Menu { Button("Delete") { delete() } } label: { Image(systemName: "ellipsis.circle") }"#),
            RuleExample("""
            ↓Button { toggle() } label: {
                if isOn {
                    Image(systemName: "star.fill")
                } else {
                    Image(systemName: "star")
                }
            }
            """),
            RuleExample("""
            struct Toolbar: View {
                var icon: some View { Image(systemName: "gear") }
                var body: some View {
                    ↓Button(action: openSettings) { icon }
                }
            }
            """),
            RuleExample("""
            ↓Button(action: send) {
                Group {
                    if isSending { ProgressView() } else { Image(systemName: "paperplane") }
                }
            }
            """),
        ]
    )

    let settings: AccessibilitySettings

    public init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    public func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        return file.viewCalls.compactMap { view in
            guard view.name == "Button" || view.name == "Menu", !view.isLabelledOrHidden,
                  let label = Self.labelClosure(of: view.call),
                  Self.showsOnlyImages(label, imageMembers: file.imageOnlyMembers, iconViews: settings.iconViews) else { return nil }
            return file.finding(Self.self, at: view.nameToken,
                                message: "\(view.name) shows only an image; add .accessibilityLabel(\"…\") saying what it does",
                                severity: severity, span: view.chain, control: view)
        }
    }

    /// The closure that builds the label: `label:`, or the trailing closure of `Button(action:)`.
    static func labelClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let labelled = call.additionalTrailingClosures.first(where: { $0.label.text == "label" }) { return labelled.closure }
        if let argument = call.arguments.first(where: { $0.label?.text == "label" }) { return argument.expression.as(ClosureExprSyntax.self) }
        if call.arguments.contains(where: { $0.label?.text == "action" }) { return call.trailingClosure }
        return nil
    }

    /// Views that show nothing VoiceOver could read as a name: layout, shapes, spinners.
    static let silentViews: Set<String> = [
        "HStack", "VStack", "ZStack", "Group", "Spacer", "ProgressView", "Circle", "Capsule", "Rectangle",
        "RoundedRectangle", "Ellipse", "Color", "Divider", "EmptyView", "LazyHStack", "LazyVStack",
    ]

    /// Whether the label shows at least one unlabelled image (an `Image`, a property or function of
    /// this file that is only an image, or one of the team's icon views) and nothing that has words:
    /// through `if`/`else`, `switch`, `Group {}` and `if #available`. A view the rule does not know
    /// (a custom view that may hold text) makes it say nothing.
    static func showsOnlyImages(_ label: ClosureExprSyntax, imageMembers: Set<String>, iconViews: Set<String>) -> Bool {
        final class Walker: SyntaxVisitor {
            var images = 0, unknown = false
            let imageMembers: Set<String>, iconViews: Set<String>
            init(imageMembers: Set<String>, iconViews: Set<String>) {
                self.imageMembers = imageMembers
                self.iconViews = iconViews
                super.init(viewMode: .sourceAccurate)
            }
            override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if let view = ViewCall(node) {
                    if view.name == "Image" || iconViews.contains(view.name) {
                        if !view.isLabelledOrHidden { images += 1 } else { unknown = true }
                        return .skipChildren
                    }
                    if !IconButtonMissingLabelRule.silentViews.contains(view.name) { unknown = true; return .skipChildren }
                    return .visitChildren
                }
                if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
                    // `icon()`, a helper of this file that returns only an image.
                    if imageMembers.contains(reference.baseName.text) { images += 1 } else { unknown = true }
                    return .skipChildren
                }
                return .visitChildren
            }
            override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
                // `icon`, a property of this file; any other bare value may be text.
                guard node.parent?.is(FunctionCallExprSyntax.self) != true else { return .visitChildren }
                if node.parent?.is(MemberAccessExprSyntax.self) == true { return .visitChildren }
                if imageMembers.contains(node.baseName.text) { images += 1 } else if node.baseName.text.first?.isLowercase == true { unknown = true }
                return .visitChildren
            }
            override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
                // A string as a view (in a ViewBuilder) is Text; as an argument it is the image's name.
                if node.parent?.is(CodeBlockItemSyntax.self) == true { unknown = true }
                return .skipChildren
            }
            override func visit(_ node: SwitchExprSyntax) -> SyntaxVisitorContinueKind {
                // The subject (`switch state`) is not content; the cases are.
                for switchCase in node.cases { walk(switchCase) }
                return .skipChildren
            }
            override func visit(_ node: ConditionElementListSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: SwitchCaseLabelSyntax) -> SyntaxVisitorContinueKind { .skipChildren }
            override func visit(_ node: LabeledExprListSyntax) -> SyntaxVisitorContinueKind {
                // Arguments are not content: `Image(systemName: name)`, `.frame(width: size)`.
                .skipChildren
            }
        }
        let walker = Walker(imageMembers: imageMembers, iconViews: iconViews)
        walker.walk(label.statements)
        return walker.images > 0 && !walker.unknown
    }
}
