import PrePushCore
internal import SwiftSyntax

/// A font of fixed size, which does not grow with Dynamic Type.
public struct FixedFontSizeRule: AccessibilityRule {
    public static let description = RuleDescription(
        identifier: "fixed-font-size",
        name: "Font that ignores Dynamic Type",
        rationale: """
        `.system(size:)` and `.custom(_:fixedSize:)` keep their size when a reader asks for larger \
        text. Text styles (`.body`, `.headline`) and `.custom(_:size:)` (which scales relative to \
        body) grow with Dynamic Type. `.dynamicTypeSize(.large)` pins a whole view to one size; a range \
        (`...DynamicTypeSize.accessibility2`) is fine. A font on an `Image` sizes an SF Symbol, which is an \
        icon, not text: not reported.
        """,
        issueType: .dynamicTypeUnsupported,
        defaultSeverity: .warning,
        nonTriggeringExamples: [
            // One glyph drawn to a size: a separator dot, a letter favicon.
            RuleExample(#"Text(verbatim: "·").font(.system(size: 8))"#),
            RuleExample(#"Text(site.name.prefix(1).uppercased()).font(.system(size: 14, weight: .bold))"#),
            RuleExample(#"Image(systemName: "star.fill").font(.system(size: 24))"#),
            RuleExample(#"Text("Total").dynamicTypeSize(...DynamicTypeSize.accessibility2)"#),
            // A cap written as a choice: the size follows the user's up to a limit.
            RuleExample(#"Text("Total").dynamicTypeSize(size < .accessibility1 ? size : .accessibility1)"#),
            RuleExample(#"Text("Total").dynamicTypeSize(.xSmall ... .accessibility2)"#),
            RuleExample(#"Text("Title").font(.headline)"#),
            RuleExample(#"Text("Title").font(.custom("Avenir", size: 17))"#),
            RuleExample(#"Text("Title").font(.custom("Avenir", size: 17, relativeTo: .title))"#),
            // Initials VoiceOver never reads, drawn to an avatar's size: the font follows the frame.
            RuleExample("""
            Text(account.initials)
                .font(.system(size: size * 0.4))
                .frame(width: size, height: size)
                .accessibilityHidden(true)
            """),
            // A font on a row of icon buttons sizes their symbols.
            RuleExample(#"HStack { Button(action: back) { Image(systemName: "backward.fill") }.accessibilityLabel("Back") }.font(.system(size: 28))"#),
        ],
        triggeringExamples: [
            RuleExample(#"Text("Total").dynamicTypeSize(↓.large)"#),
            RuleExample("""
            Button { send() } label: { Image(systemName: "paperplane") }
            #if os(macOS)
            .keyboardShortcut(.return)
            #else
            .dynamicTypeSize(↓.large)
            #endif
            """),
            RuleExample(#"Text("Title").font(↓.system(size: 28))"#),
            RuleExample(#"Text("Title").font(↓Font.system(size: 12, weight: .bold))"#),
            RuleExample(#"Text("Title").font(↓.custom("Avenir", fixedSize: 17))"#),
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
            // `.dynamicTypeSize(.large)` pins every text in the view to one size; a range (`...`), or
            // anything but one named size (a cap written as `size < .x ? size : .x`), is fine.
            for pinned in view.modifier("dynamicTypeSize") {
                guard let argument = pinned.arguments.first?.expression, argument.is(MemberAccessExprSyntax.self),
                      !argument.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "..." || $0.text == "..<" }) else { continue }
                findings.append(file.finding(Self.self, at: argument,
                                             message: ".dynamicTypeSize with one size turns Dynamic Type off; give a range (.dynamicTypeSize(...DynamicTypeSize.accessibility2))",
                                             severity: severity, span: view.chain))
            }
            // An SF Symbol's font sets the icon's size, not a text's: on an Image, or on a stack that
            // holds only images (looked into only when the font is fixed: it walks the content).
            if view.name == "Image" { continue }
            func onlyImages() -> Bool {
                guard let content = view.call.trailingClosure else { return false }
                return file.contentReader(iconViews: settings.iconViews, readsForFont: true).alwaysShowsOnlyImages(content.statements)
            }
            for font in view.modifier("font") {
                guard let argument = font.arguments.first?.expression.as(FunctionCallExprSyntax.self),
                      let member = argument.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
                let labels = Set(argument.arguments.compactMap { $0.label?.text })
                let fixed = (member.declName.baseName.text == "system" && labels.contains("size"))
                    || (member.declName.baseName.text == "custom" && labels.contains("fixedSize"))
                if fixed && !Self.isSingleGlyph(view) && !onlyImages() && !Self.scalesWithHiddenFrame(view, in: file) {
                    findings.append(file.finding(Self.self, at: argument,
                                                 message: "a fixed font size does not grow with Dynamic Type; use a text style (.body) or .custom(_:size:relativeTo:)",
                                                 severity: severity, span: view.chain))
                }
            }
        }
        return findings
    }

    /// A `Text` of one character (`Text(verbatim: "·")`, `Text("→")`) or of a name's first letter
    /// (`Text(name.prefix(1))`, a letter favicon): a glyph drawn to a size, not text anyone reads.
    static func isSingleGlyph(_ view: ViewCall) -> Bool {
        guard view.name == "Text", let argument = view.call.arguments.first?.expression else { return false }
        if let literal = argument.as(StringLiteralExprSyntax.self), !literal.isInterpolated {
            return literal.textWithPlaceholders.count == 1
        }
        let text = argument.trimmedDescription.filter { $0 != " " }
        return ["prefix(1)", ".first", ".initial", "initials", "first!"].contains { text.contains($0) }
    }

    /// An element VoiceOver never reads, drawn in a frame sized by a value rather than a number
    /// (an avatar's initials sized to an avatar that scales): its font follows its frame.
    static func scalesWithHiddenFrame(_ view: ViewCall, in file: ParsedSource) -> Bool {
        let chains: [any ModifiedView] = [view] + view.enclosingViews.map(\.view)
        guard chains.contains(where: \.isHiddenFromAccessibility) else { return false }
        return chains.contains { chain in
            chain.modifier("frame").contains { frame in
                frame.arguments.contains { ["width", "height"].contains($0.label?.text) && file.number($0.expression) == nil }
            }
        }
    }
}
