import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// An example of a rule's verdict: source text where `↓` marks each place a finding must land.
/// Examples are the rule's documentation and its tests at once.
package struct RuleExample: Sendable {
    /// The code, with `↓` markers.
    package let code: String

    /// Creates an example.
    package init(_ code: String) {
        self.code = code
    }
}

/// What a rule is and why it exists.
package struct RuleDescription: Sendable {
    /// The id used in configuration, suppressions and output (`missing-identifier`).
    package let identifier: String
    /// A short title.
    package let name: String
    /// Why it matters, for the rules page.
    package let rationale: String
    /// The data model's issue type a finding carries.
    package let issueType: AccessibilityIssueType
    /// Severity when the configuration does not say.
    package let defaultSeverity: Severity
    /// Code the rule accepts.
    package let nonTriggeringExamples: [RuleExample]
    /// Code the rule flags, with a marker at each finding.
    package let triggeringExamples: [RuleExample]
}

/// One finding of one rule in one file.
package struct AccessibilityFinding: Sendable, Hashable {
    /// The rule's id.
    package let ruleID: String
    /// How bad it is.
    package let severity: Severity
    /// What is wrong and what to do.
    package private(set) var message: String
    /// Where (1-based line; the column counts Unicode scalars).
    package let location: PrePushCore.SourceLocation
    /// The data model's issue type.
    package let issueType: AccessibilityIssueType
    /// First and last line of the node the finding is about: a finding counts for a push when this
    /// span touches an added line or a removal point.
    package let lines: ClosedRange<Int>
    /// Lines inside `lines` that are not the node's own: the inside of a Button's action closure (or
    /// a Menu's content). An edit there changes what the control does, not the control.
    package var ignoredLines: ClosedRange<Int>? = nil
    /// The innermost type around the node (`HomeView`), empty at the top level: with `lineText`, what a
    /// baseline knows a finding by, so that it survives lines moving.
    package var enclosingType = ""
    /// The text of the finding's line, blanks collapsed.
    package var lineText = ""
    /// A hash of the finding's line with the nearest non-blank line above and below it, blanks
    /// collapsed: what tells apart two findings on lines with the same text (a baseline's context).
    package var contextHash = ""
    /// For a control without an identifier: the other controls of the same view type, tagged and not.
    /// A control among tagged siblings is missing what its screen's UI tests would look for.
    package var siblings: SiblingControls?

    /// The same finding said another way (the repository's scheme named in its advice).
    package func saying(_ message: String) -> AccessibilityFinding {
        var copy = self
        copy.message = message
        return copy
    }

    /// Creates a finding.
    package init(ruleID: String, severity: Severity, message: String, location: PrePushCore.SourceLocation,
                issueType: AccessibilityIssueType, lines: ClosedRange<Int>) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.issueType = issueType
        self.lines = lines
    }
}

/// The other interactive controls of a control's view type, by whether they have an identifier.
package struct SiblingControls: Sendable, Hashable {
    /// Controls with an identifier.
    package let tagged: Int
    /// Controls without one.
    package let untagged: Int

    /// Counts.
    package init(tagged: Int, untagged: Int) {
        self.tagged = tagged
        self.untagged = untagged
    }

    /// A screen whose controls get identifiers: at least two of the others have one, and they are at
    /// least two thirds of the others.
    package var isTaggedScreen: Bool { tagged >= 2 && tagged >= 2 * untagged }
}

/// A rule over one parsed file.
package protocol AccessibilityRule: Sendable {
    /// The rule's description and examples.
    static var description: RuleDescription { get }
    /// Creates the rule with the check's settings.
    init(settings: AccessibilitySettings)
    /// The rule's findings in `file`.
    func findings(in file: ParsedSource) -> [AccessibilityFinding]
}

/// A Swift file parsed once for every rule.
package struct ParsedSource {
    /// The path findings name.
    package let path: String
    /// The syntax tree.
    let tree: SourceFileSyntax
    /// The text's UTF-8 bytes, for scalar columns.
    let bytes: [UInt8]
    /// Lines and columns, worked out only when a rule asks for one (most files have no finding).
    private let lineTable: LineTable
    var converter: SourceLocationConverter { lineTable.converter }
    /// Every `Name(…)` call with its modifiers, collected in one walk that all rules share.
    let viewCalls: [ViewCall]
    /// Modifier chains with a tap gesture whose receiver is not a `Name(…)` call: a property
    /// (`cardContent.onTapGesture`), `self.row`, a helper call (`row(item)`), a modifier's `content`.
    let tapChains: [ModifierChain]
    /// The `body` of each view type declared in this file, for `isButtonLike`.
    let viewBodies: [String: AccessorBlockSyntax]
    /// The bodies of this file's computed properties and functions by name (`var icon: some View`,
    /// `@ViewBuilder func badge()`), followed when a label names one.
    let memberBodies: [String: CodeBlockItemListSyntax]
    /// Lines of `#Preview`, `PreviewProvider` types and `#if DEBUG` code: never shipped, never reported
    /// (unless the settings ask).
    let previewLines: [ClosedRange<Int>]
    let debugLines: [ClosedRange<Int>]
    /// Lines of this file's view types that only debug builds show (`ViewIndex.developerOnly`: made
    /// in `#if DEBUG` code and by nothing that ships), and of their extensions.
    let developerOnlyLines: [ClosedRange<Int>]
    /// Lines of this file's view types only ever drawn into an image (`ViewIndex.renderedOnly`).
    let renderedOnlyLines: [ClosedRange<Int>]
    /// Lines compiled only for tvOS or macOS (`#if os(tvOS)`), which have neither touch nor Dynamic Type.
    let withoutTouchLines: [ClosedRange<Int>]
    /// Lines of `if false { … }` bodies, which never show.
    let deadLines: [ClosedRange<Int>]
    /// String constants of this file by their qualified name (`A11y.Checkout.payButton` →
    /// `checkout_button_pay`): `static let` members holding a plain literal, `let`s of identifier
    /// structs, and the instances that lead to them.
    let constants: ConstantLookup
    /// Images from generated asset code (`Asset.Images.logo.swiftUIImage`) with their modifiers.
    let assetImages: [ModifierChain]
    /// Chains with `.accessibilityIdentifier` on a receiver that is not a `Name(…)` call (`editableCell(…)`).
    let identifierChains: [ModifierChain]
    /// Number constants of this file by qualified name (`PlayerLayout.smallControl` → 28).
    let numberConstants: [String: Double]
    /// Properties and functions used only inside `.accessibilityActions { … }`: the Buttons they
    /// make are VoiceOver actions, not controls on screen.
    let actionOnlyMembers: Set<String>
    /// This file's `ViewModifier`s that label or hide what they modify (`.modifier(Decorative())`).
    let speakingModifiers: Set<String>
    /// This file's view types whose body is a single image (`iconViews(_:)`).
    let localIconViews: Set<String>

    /// String constants of the rest of the repository (`ConstantIndex`), consulted after the file's own.
    let repositoryConstants: ConstantLookup
    /// The repository's view components (`ViewIndex`, resolved); this file's own when none is given.
    let views: ViewIndex

    /// Parses `text`; `constants` are the repository's string constants and `views` its view
    /// components (resolved), when known.
    package init(path: String, text: String, constants: ConstantLookup = ConstantLookup(), views: ViewIndex = ViewIndex()) {
        repositoryConstants = constants
        self.path = path
        bytes = Array(text.utf8)
        tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        // A file checked on its own (an editor's, standard input) still knows its own components.
        self.views = views.isEmpty ? ViewIndex.scan(tree: tree).resolved() : views
        lineTable = LineTable(path: path, tree: tree)
        let collector = ViewCallCollector(lineTable: lineTable)
        collector.walk(tree)
        viewCalls = collector.calls
        tapChains = collector.tapChains
        viewBodies = collector.viewBodies
        memberBodies = collector.memberBodies
        previewLines = collector.previewLines
        debugLines = collector.debugLines
        withoutTouchLines = collector.withoutTouchLines
        deadLines = collector.deadLines
        let developerOnly = self.views.developerOnly
        developerOnlyLines = developerOnly.isEmpty ? [] : collector.typeLines.filter { developerOnly.contains($0.key) }.flatMap(\.value)
        let rendered = self.views.renderedOnly
        renderedOnlyLines = rendered.isEmpty ? [] : collector.typeLines.filter { rendered.contains($0.key) }.flatMap(\.value)
        self.constants = ConstantLookup(collector.constants)
        assetImages = collector.assetImages
        identifierChains = collector.identifierChains
        numberConstants = collector.numberConstants
        actionOnlyMembers = collector.namesInActions.subtracting(collector.namesElsewhere).filter { collector.memberBodies[$0] != nil }
        speakingModifiers = collector.speakingModifiers
        localIconViews = Self.iconViews(collector.viewBodies)
    }

    /// Whether code sets an accessibility label or hides from VoiceOver.
    static func labelsOrHides(_ node: some SyntaxProtocol) -> Bool {
        node.tokens(viewMode: .sourceAccurate).contains { ["accessibilityHidden", "accessibilityLabel"].contains($0.text) }
    }

    /// Whether a modifier chain applies one of this file's modifiers that label or hide: a
    /// `ViewModifier` (`.modifier(Decorative())`) or a `View` extension function (`.decorative()`).
    func appliesSpeakingModifier(_ modifiers: [(name: String, call: FunctionCallExprSyntax)]) -> Bool {
        modifiers.contains { modifier in
            if modifier.name == "modifier", let type = modifier.call.arguments.first?.expression.as(FunctionCallExprSyntax.self)?
                .calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
                return speakingModifiers.contains(type)
            }
            guard let body = memberBodies[modifier.name] else { return false }
            return Self.labelsOrHides(body)
        }
    }

    /// This file's view types whose body is a single image (`struct Badge: View { var body: some
    /// View { Image(systemName: "star.fill").foregroundStyle(.yellow) } }`): a Button showing one is
    /// icon-only. One look at each body's one statement, made once per file: a body is not walked
    /// (a file of 20,000 buttons would have been walked once per button).
    static func iconViews(_ bodies: [String: AccessorBlockSyntax]) -> Set<String> {
        Set(bodies.compactMap { name, body in
            guard let statements = body.accessors.as(CodeBlockItemListSyntax.self), statements.count == 1,
                  let expression = statements.first?.item.as(ExprSyntax.self),
                  let call = ModifierClimb.root(of: expression).as(FunctionCallExprSyntax.self),
                  let view = ViewCall(call), view.name == "Image" || ContentReader.isIconName(view.name) else { return nil }
            return name
        })
    }

    /// Whether `name` is a view of this file whose body is a `Button` (or Link) or adds the button or
    /// link trait: a tap on one of them needs no trait of its own. Looked at only for views that get a
    /// tap, so most bodies are never walked.
    func isButtonLike(_ name: String) -> Bool {
        // A component of another file whose body is a control (`PrimaryButton`) or adds the trait.
        guard let body = viewBodies[name] else { return !views.traits(of: name).isDisjoint(with: [.control, .buttonTrait]) }
        if views.traits(of: name).contains(.control) { return true }
        if body.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "isButton" || $0.text == "isLink" }) { return true }
        guard let first = body.accessors.as(CodeBlockItemListSyntax.self)?.first?.item.as(ExprSyntax.self) else { return false }
        guard let call = ModifierClimb.root(of: first).as(FunctionCallExprSyntax.self) else { return false }
        return ["Button", "Link", "NavigationLink"].contains(ViewCall(call)?.name ?? "")
    }

    /// Every place the file names its property or function `member`, not its declaration.
    func uses(of member: String) -> [TokenSyntax] {
        tree.tokens(viewMode: .sourceAccurate).filter { token in
            token.text == member && !(token.parent.map { $0.is(FunctionDeclSyntax.self) || $0.is(IdentifierPatternSyntax.self) } ?? false)
        }
    }

    /// The one place the file names its property or function `member`, if it names it exactly once.
    func singleUse(of member: String) -> Syntax? {
        let found = uses(of: member)
        return found.count == 1 ? Syntax(found[0]) : nil
    }

    /// Whether `view` is a VoiceOver action rather than a control on screen: built inside
    /// `.accessibilityActions { … }`, or in a property or function used only there.
    func isAccessibilityAction(_ view: ViewCall) -> Bool {
        if view.isInsideClosure(ofModifier: ["accessibilityActions", "accessibilityAction"]) { return true }
        guard !actionOnlyMembers.isEmpty, let member = ImageMissingLabelRule.enclosingMemberName(view.chain) else { return false }
        return actionOnlyMembers.contains(member)
    }

    /// A reader of this file's view code, following its own properties and functions.
    func contentReader(iconViews: Set<String>, readsForFont: Bool = false) -> ContentReader {
        // The repository's icon views (a design system's `StatusIcon` in another file) too.
        let local = localIconViews.union(views.iconViews)
        return ContentReader(iconViews: local.isEmpty ? iconViews : iconViews.union(local), members: memberBodies, readsForFont: readsForFont,
                             iconControls: readsForFont ? views.iconControls : [])
    }

    /// The number an expression stands for: a literal, or a number constant of this file named in
    /// full or by its last components.
    func number(_ expression: ExprSyntax) -> Double? {
        if let literal = SmallTouchTargetRule.number(expression) { return literal }
        guard expression.is(MemberAccessExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) else { return nil }
        let name = expression.trimmedDescription
        if let exact = numberConstants[name] { return exact }
        let matches = numberConstants.filter { $0.key.hasSuffix("." + name) }
        return matches.count == 1 ? matches.first?.value : nil
    }

    /// The text an identifier expression stands for: a literal's text, or a constant of this file or
    /// the repository named in full (`A11y.Checkout.payButton`) or by its last components
    /// (`Checkout.payButton` inside `A11y`) when that names one constant, also through instances
    /// (`A11yIdentifiers.roomScreen.sendButton`, `roomScreen` being a `RoomScreen()`).
    func identifierText(_ expression: ExprSyntax) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            return literal.isInterpolated ? nil : literal.textWithPlaceholders
        }
        guard expression.is(MemberAccessExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) else { return nil }
        return ConstantLookup.text(of: expression.trimmedDescription, in: [constants, repositoryConstants])
    }

    /// The 1-based line and scalar column where `node`'s first token starts (trivia skipped).
    func location(of node: some SyntaxProtocol) -> PrePushCore.SourceLocation {
        let position = node.positionAfterSkippingLeadingTrivia
        let place = converter.location(for: position)
        // swift-syntax counts UTF-8 bytes; count scalars like every other prepush location: the
        // bytes of the line before the node that do not continue a scalar.
        let end = min(position.utf8Offset, bytes.count)
        var column = 1
        for index in max(0, end - (place.column - 1))..<end where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return PrePushCore.SourceLocation(file: path, line: place.line, column: column)
    }

    /// The line `node`'s first token is on.
    func line(of node: some SyntaxProtocol) -> Int {
        converter.location(for: node.positionAfterSkippingLeadingTrivia).line
    }

    /// The first and last line `node` covers.
    func lineSpan(of node: some SyntaxProtocol) -> ClosedRange<Int> {
        let start = node.startLocation(converter: converter).line
        let end = node.endLocation(converter: converter).line
        return start...max(start, end)
    }

    /// A finding of `rule` at `node`, spanning `span` (default: the node), with `control`'s action
    /// closure left out of the lines that count.
    func finding<Rule: AccessibilityRule>(_ rule: Rule.Type, at node: some SyntaxProtocol, message: String,
                                          severity: Severity, span: (some SyntaxProtocol)? = Optional<Syntax>.none,
                                          control: ViewCall? = nil) -> AccessibilityFinding {
        var finding = AccessibilityFinding(ruleID: rule.description.identifier, severity: severity, message: message,
                                           location: location(of: node), issueType: rule.description.issueType,
                                           lines: span.map { lineSpan(of: $0) } ?? lineSpan(of: node))
        if let action = control?.actionClosure {
            let open = line(of: action.leftBrace), close = line(of: action.rightBrace)
            if close - open >= 2 { finding.ignoredLines = (open + 1)...(close - 1) }
        }
        finding.enclosingType = Self.enclosingType(of: Syntax(node))
        finding.lineText = lineText(at: finding.location.line)
        finding.contextHash = contextHash(at: finding.location.line, text: finding.lineText)
        return finding
    }

    /// `Outer.Inner` for a node inside `struct Inner` inside `enum Outer`; an extension counts by its type.
    static func enclosingType(of node: Syntax) -> String {
        var names: [String] = []
        var current = node.parent
        while let parent = current {
            if let type = parent.as(StructDeclSyntax.self) { names.insert(type.name.text, at: 0) }
            else if let type = parent.as(ClassDeclSyntax.self) { names.insert(type.name.text, at: 0) }
            else if let type = parent.as(EnumDeclSyntax.self) { names.insert(type.name.text, at: 0) }
            else if let type = parent.as(ExtensionDeclSyntax.self) { names.insert(type.extendedType.trimmedDescription, at: 0) }
            current = parent.parent
        }
        return names.joined(separator: ".")
    }

    /// FNV-1a (64 bits, hex) of the line's text and its nearest non-blank neighbours: stable across
    /// runs and machines, and cheap (it is computed for every finding).
    func contextHash(at number: Int, text: String) -> String {
        let lineCount = converter.location(for: AbsolutePosition(utf8Offset: bytes.count)).line
        func neighbour(_ step: Int) -> String {
            var line = number + step
            while line >= 1 && line <= lineCount {
                let text = lineText(at: line)
                if !text.isEmpty { return text }
                line += step
            }
            return ""
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [neighbour(-1), text, neighbour(1)] {
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            hash = (hash ^ 0x0A) &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The text of 1-based line `number`, its runs of blanks made one space and its ends trimmed.
    func lineText(at number: Int) -> String {
        // From the line table, not a walk from the top: a file with 20,000 findings asks 20,000 times.
        let start = min(max(0, converter.position(ofLine: number, column: 1).utf8Offset), bytes.count)
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        return String(decoding: bytes[start..<end], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
