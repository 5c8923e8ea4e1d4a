import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// An example of a rule's verdict: source text where `↓` marks each place a finding must land.
/// Examples are the rule's documentation and its tests at once.
public struct RuleExample: Sendable {
    /// The code, with `↓` markers.
    public let code: String

    /// Creates an example.
    public init(_ code: String) {
        self.code = code
    }
}

/// What a rule is and why it exists.
public struct RuleDescription: Sendable {
    /// The id used in configuration, suppressions and output (`missing-identifier`).
    public let identifier: String
    /// A short title.
    public let name: String
    /// Why it matters, for the rules page.
    public let rationale: String
    /// The data model's issue type a finding carries.
    public let issueType: AccessibilityIssueType
    /// Severity when the configuration does not say.
    public let defaultSeverity: Severity
    /// Code the rule accepts.
    public let nonTriggeringExamples: [RuleExample]
    /// Code the rule flags, with a marker at each finding.
    public let triggeringExamples: [RuleExample]
}

/// One finding of one rule in one file.
public struct AccessibilityFinding: Sendable, Hashable {
    /// The rule's id.
    public let ruleID: String
    /// How bad it is.
    public let severity: Severity
    /// What is wrong and what to do.
    public let message: String
    /// Where (1-based line; the column counts Unicode scalars).
    public let location: PrePushCore.SourceLocation
    /// The data model's issue type.
    public let issueType: AccessibilityIssueType
    /// First and last line of the node the finding is about: a finding counts for a push when this
    /// span touches an added line or a removal point.
    public let lines: ClosedRange<Int>
    /// Lines inside `lines` that are not the node's own: the inside of a Button's action closure (or
    /// a Menu's content). An edit there changes what the control does, not the control.
    public var ignoredLines: ClosedRange<Int>? = nil
    /// The innermost type around the node (`HomeView`), empty at the top level: with `lineText`, what a
    /// baseline knows a finding by, so that it survives lines moving.
    public var enclosingType = ""
    /// The text of the finding's line, blanks collapsed.
    public var lineText = ""

    /// Creates a finding.
    public init(ruleID: String, severity: Severity, message: String, location: PrePushCore.SourceLocation,
                issueType: AccessibilityIssueType, lines: ClosedRange<Int>) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.issueType = issueType
        self.lines = lines
    }
}

/// A rule over one parsed file.
public protocol AccessibilityRule: Sendable {
    /// The rule's description and examples.
    static var description: RuleDescription { get }
    /// Creates the rule with the check's settings.
    init(settings: AccessibilitySettings)
    /// The rule's findings in `file`.
    func findings(in file: ParsedSource) -> [AccessibilityFinding]
}

/// A Swift file parsed once for every rule.
public struct ParsedSource {
    /// The path findings name.
    public let path: String
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
    /// Properties and functions of this file whose body is only an image (`var icon: some View`,
    /// `@ViewBuilder func badge()`), for the icon-button rule.
    let imageOnlyMembers: Set<String>
    /// Lines of `#Preview`, `PreviewProvider` types and `#if DEBUG` code: never shipped, never reported
    /// (unless the settings ask).
    let previewLines: [ClosedRange<Int>]
    let debugLines: [ClosedRange<Int>]
    /// String constants of this file by their qualified name (`A11y.Checkout.payButton` →
    /// `checkout_button_pay`): `static let` members holding a plain literal.
    let stringConstants: [String: String]
    /// Images from generated asset code (`Asset.Images.logo.swiftUIImage`) with their modifiers.
    let assetImages: [ModifierChain]
    /// Chains with `.accessibilityIdentifier` on a receiver that is not a `Name(…)` call (`editableCell(…)`).
    let identifierChains: [ModifierChain]
    /// Number constants of this file by qualified name (`PlayerLayout.smallControl` → 28).
    let numberConstants: [String: Double]

    /// String constants of the rest of the repository (`ConstantIndex`), consulted after the file's own.
    let repositoryConstants: [String: String]

    /// Parses `text`; `constants` are the repository's string constants, when known.
    public init(path: String, text: String, constants: [String: String] = [:]) {
        repositoryConstants = constants
        self.path = path
        bytes = Array(text.utf8)
        tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        lineTable = LineTable(path: path, tree: tree)
        let collector = ViewCallCollector(lineTable: lineTable)
        collector.walk(tree)
        viewCalls = collector.calls
        tapChains = collector.tapChains
        viewBodies = collector.viewBodies
        imageOnlyMembers = collector.imageOnlyMembers
        previewLines = collector.previewLines
        debugLines = collector.debugLines
        stringConstants = collector.stringConstants
        assetImages = collector.assetImages
        identifierChains = collector.identifierChains
        numberConstants = collector.numberConstants
    }

    /// Whether `name` is a view of this file whose body is a `Button` (or Link) or adds the button or
    /// link trait: a tap on one of them needs no trait of its own. Looked at only for views that get a
    /// tap, so most bodies are never walked.
    func isButtonLike(_ name: String) -> Bool {
        guard let body = viewBodies[name] else { return false }
        if body.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "isButton" || $0.text == "isLink" }) { return true }
        guard let first = body.accessors.as(CodeBlockItemListSyntax.self)?.first?.item.as(ExprSyntax.self) else { return false }
        var root = first
        while let call = root.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            root = base
        }
        guard let call = root.as(FunctionCallExprSyntax.self) else { return false }
        return ["Button", "Link", "NavigationLink"].contains(ViewCall(call)?.name ?? "")
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

    /// The text an identifier expression stands for: a literal's text, or a constant of this file
    /// named in full (`A11y.Checkout.payButton`) or by its last components (`Checkout.payButton`
    /// inside `A11y`, `payButton` inside `Checkout`) when that names one constant.
    func identifierText(_ expression: ExprSyntax) -> String? {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            return literal.isInterpolated ? nil : literal.textWithPlaceholders
        }
        guard expression.is(MemberAccessExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) else { return nil }
        let name = expression.trimmedDescription
        for constants in [stringConstants, repositoryConstants] {
            if let exact = constants[name] { return exact }
            let matches = constants.filter { $0.key.hasSuffix("." + name) }
            if matches.count == 1 { return matches.first?.value }
        }
        return nil
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

    /// The text of 1-based line `number`, its runs of blanks made one space and its ends trimmed.
    func lineText(at number: Int) -> String {
        // From the line table, not a walk from the top: a file with 20,000 findings asks 20,000 times.
        let start = min(max(0, converter.position(ofLine: number, column: 1).utf8Offset), bytes.count)
        let end = bytes[start...].firstIndex(of: 10) ?? bytes.count
        return String(decoding: bytes[start..<end], as: UTF8.self)
            .split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}

/// A file's line table, made the first time a line or column is needed: building it walks every
/// byte of the file, and a file without findings never needs it.
final class LineTable {
    let path: String
    let tree: SourceFileSyntax
    private var made: SourceLocationConverter?

    init(path: String, tree: SourceFileSyntax) {
        self.path = path
        self.tree = tree
    }

    var converter: SourceLocationConverter {
        if let made { return made }
        let converter = SourceLocationConverter(fileName: path, tree: tree)
        made = converter
        return converter
    }
}

/// A SwiftUI view call (`Button(…) { … }`) and the modifiers chained after it.
struct ViewCall {
    /// The call creating the view.
    let call: FunctionCallExprSyntax
    /// The view's type name as written (`Button`).
    let name: String
    /// The modifiers after it, innermost first: name and call.
    let modifiers: [(name: String, call: FunctionCallExprSyntax)]
    /// The whole expression: the view and all its modifiers.
    let chain: ExprSyntax

    /// The calls of one modifier.
    func modifier(_ name: String) -> [FunctionCallExprSyntax] {
        modifiers.filter { $0.name == name }.map(\.call)
    }

    /// The call's name token, where findings about the view land.
    var nameToken: Syntax {
        Syntax(call.calledExpression)
    }

    /// The view's name when `call` is `Name(…)` or `SwiftUI.Name(…)` with a capitalised name.
    static func viewName(of call: FunctionCallExprSyntax) -> String? {
        let name: String
        if let reference = call.calledExpression.as(DeclReferenceExprSyntax.self) {
            name = reference.baseName.text
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "SwiftUI" {
            name = member.declName.baseName.text
        } else {
            return nil
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return nil }
        return name
    }

    /// Reads `Name(…)` (or `SwiftUI.Name(…)`) and climbs `.modifier(…)` calls wrapped around it; nil for other calls.
    init?(_ call: FunctionCallExprSyntax) {
        guard let name = Self.viewName(of: call) else { return nil }
        self.call = call
        self.name = name
        var modifiers: [(String, FunctionCallExprSyntax)] = []
        var current = ExprSyntax(call)
        while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
              let outer = member.parent?.as(FunctionCallExprSyntax.self), outer.calledExpression.id == member.id {
            modifiers.append((member.declName.baseName.text, outer))
            current = ExprSyntax(outer)
        }
        self.modifiers = modifiers
        chain = current
    }
}

/// A view with the modifiers chained after it: a `Name(…)` call or any other receiver.
protocol ModifiedView {
    /// The modifiers, innermost first.
    var modifiers: [(name: String, call: FunctionCallExprSyntax)] { get }
    /// The whole expression.
    var chain: ExprSyntax { get }
}

extension ViewCall: ModifiedView {}
extension ModifierChain: ModifiedView {}

extension ModifiedView {
    /// A modifier that gives the view its own spoken text or hides it: `.accessibilityLabel`, `…Value`,
    /// `…Hint`, `.accessibilityHidden(true)` and the older `.accessibility(label:|value:|hint:|hidden: true)`.
    var isLabelledOrHidden: Bool {
        isHiddenFromAccessibility || modifiers.contains { modifier in
            switch modifier.name {
            case "accessibilityLabel", "accessibilityValue", "accessibilityHint": return true
            case "accessibility": return modifier.call.arguments.contains { ["label", "value", "hint"].contains($0.label?.text) }
            default: return false
            }
        }
    }

    /// `.accessibilityHidden(true)` or `.accessibility(hidden: true)`.
    var isHiddenFromAccessibility: Bool {
        modifiers.contains { modifier in
            switch modifier.name {
            case "accessibilityHidden": return modifier.call.arguments.first?.expression.isTrueLiteral == true
            case "accessibility": return modifier.call.arguments.contains { $0.label?.text == "hidden" && $0.expression.isTrueLiteral }
            default: return false
            }
        }
    }

    /// `.accessibilityElement()` or `.accessibilityElement(children: .ignore)`: the children are not read
    /// one by one (`.combine` and `.contain` still read them).
    var ignoresChildren: Bool {
        modifiers.contains { modifier in
            guard modifier.name == "accessibilityElement" else { return false }
            guard let children = modifier.call.arguments.first(where: { $0.label?.text == "children" }) else {
                return modifier.call.arguments.isEmpty
            }
            return children.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "ignore"
        }
    }

    /// The views whose content holds this one, innermost first, up to the declaration that holds them
    /// (`var body`, a function): `VStack { Button { ↓Image } }` gives Button, then VStack. Each comes with
    /// the label of the argument or trailing closure the path went through (`icon` for a Label's icon).
    var enclosingViews: [(view: ViewCall, argument: String?)] {
        var result: [(ViewCall, String?)] = []
        var argument: String?
        var node = Syntax(chain)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let element = parent.as(MultipleTrailingClosureElementSyntax.self) {
                argument = element.label.text
            } else if let labelled = parent.as(LabeledExprSyntax.self) {
                argument = labelled.label?.text
            } else if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != node.id,
                      let view = ViewCall(call) {
                result.append((view, argument))
                argument = nil
                node = Syntax(view.chain)
                continue
            }
            node = parent
        }
        return result
    }
}

extension ExprSyntax {
    /// Whether this is the literal `true`.
    var isTrueLiteral: Bool {
        self.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.true)
    }
}

extension StringLiteralExprSyntax {
    /// The literal's text with each interpolation as `{}` (`"home_cell_task_\(id)"` → `home_cell_task_{}`).
    var textWithPlaceholders: String {
        segments.map { segment in
            if let text = segment.as(StringSegmentSyntax.self) { return text.content.text }
            return "{}"
        }.joined()
    }

    /// Whether the literal holds an interpolation.
    var isInterpolated: Bool { segments.contains { $0.is(ExpressionSegmentSyntax.self) } }
}

/// A chain of modifiers on a receiver that is not a `Name(…)` view call.
struct ModifierChain {
    /// The receiver (`cardContent`, `row(item)`, `self.header`), where findings land.
    let root: ExprSyntax
    /// The modifiers after it, innermost first.
    let modifiers: [(name: String, call: FunctionCallExprSyntax)]
    /// The whole expression.
    let chain: ExprSyntax

    /// The modifier calls wrapped around `root`, climbing `.modifier(…)` calls as `ViewCall` does.
    init(root: ExprSyntax) {
        self.root = root
        var modifiers: [(String, FunctionCallExprSyntax)] = []
        var current = root
        while let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
              let outer = member.parent?.as(FunctionCallExprSyntax.self), outer.calledExpression.id == member.id {
            modifiers.append((member.declName.baseName.text, outer))
            current = ExprSyntax(outer)
        }
        self.modifiers = modifiers
        chain = current
    }
}

/// The names of the modifiers that attach a tap gesture.
let tapModifierNames: Set<String> = ["onTapGesture", "gesture", "simultaneousGesture", "highPriorityGesture"]

/// One walk of a tree: every `Name(…)` call, tap chains on other receivers, and what the rules
/// need to know of the file's own declarations.
final class ViewCallCollector: SyntaxVisitor {
    private(set) var calls: [ViewCall] = []
    private(set) var tapChains: [ModifierChain] = []
    private(set) var viewBodies: [String: AccessorBlockSyntax] = [:]
    private(set) var imageOnlyMembers: Set<String> = []
    private(set) var previewLines: [ClosedRange<Int>] = []
    private(set) var debugLines: [ClosedRange<Int>] = []
    private(set) var stringConstants: [String: String] = [:]
    private(set) var assetImages: [ModifierChain] = []
    private(set) var identifierChains: [ModifierChain] = []
    private(set) var numberConstants: [String: Double] = [:]
    let lineTable: LineTable

    init(lineTable: LineTable) {
        self.lineTable = lineTable
        super.init(viewMode: .sourceAccurate)
    }

    private func lines(_ node: some SyntaxProtocol) -> ClosedRange<Int> {
        let start = node.startLocation(converter: lineTable.converter).line
        return start...max(start, node.endLocation(converter: lineTable.converter).line)
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let call = ViewCall(node) { calls.append(call) }
        return .visitChildren
    }

    /// Roots already recorded: a chain with two tap modifiers is one chain.
    private var tapRoots: Set<SyntaxIdentifier> = []
    private var identifierRoots: Set<SyntaxIdentifier> = []

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        // Only the few modifiers the rules ask about start a look down the chain for its receiver.
        let name = node.declName.baseName.text
        if name == "swiftUIImage" {
            // `Asset.Images.logo.swiftUIImage`: an image from generated asset code (SwiftGen).
            assetImages.append(ModifierChain(root: ExprSyntax(node)))
            return .visitChildren
        }
        let isTap = tapModifierNames.contains(name), isIdentifier = name == "accessibilityIdentifier"
        guard isTap || isIdentifier, node.base != nil, let call = node.parent?.as(FunctionCallExprSyntax.self),
              call.calledExpression.id == node.id else { return .visitChildren }
        // Down the chain to its receiver; a `Name(…)` view is the view rules' own.
        var root = node.base!
        while let inner = root.as(FunctionCallExprSyntax.self), let member = inner.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            root = base
        }
        guard !Self.isViewCall(root) else { return .visitChildren }
        if isTap, tapRoots.insert(root.id).inserted { tapChains.append(ModifierChain(root: root)) }
        if isIdentifier, identifierRoots.insert(root.id).inserted { identifierChains.append(ModifierChain(root: root)) }
        return .visitChildren
    }

    /// `Name(…)` or `SwiftUI.Name(…)`, as `ViewCall` reads it, without building one.
    static func isViewCall(_ expression: ExprSyntax) -> Bool {
        expression.as(FunctionCallExprSyntax.self).flatMap(ViewCall.viewName(of:)) != nil
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewLines.append(lines(node)) }
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewLines.append(lines(node)) }
        return .visitChildren
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if DEBUG` (and `#elseif DEBUG`): the clause's code only; its `#else` ships.
        if node.condition?.as(DeclReferenceExprSyntax.self)?.baseName.text == "DEBUG", let elements = node.elements {
            debugLines.append(lines(elements))
        }
        return .visitChildren
    }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        note(node.name.text, inheritance: node.inheritanceClause, members: node.memberBlock, node: node)
        return .visitChildren
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        note(node.name.text, inheritance: node.inheritanceClause, members: node.memberBlock, node: node)
        return .visitChildren
    }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        note(node.name.text, inheritance: node.inheritanceClause, members: node.memberBlock, node: node)
        return .visitChildren
    }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        note(nil, inheritance: node.inheritanceClause, members: node.memberBlock, node: node)
        return .visitChildren
    }

    /// `static let payButton = "checkout_button_pay"` inside `enum Checkout` inside `enum A11y`, and
    /// number constants (`static let smallControl: CGFloat = 28`, or a `let` of a view).
    private func noteConstant(_ node: VariableDeclSyntax) {
        guard node.bindingSpecifier.tokenKind == .keyword(.let), node.bindings.count == 1, let binding = node.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { return }
        if let number = SmallTouchTargetRule.number(value) {
            numberConstants[qualifiedName(name, of: node)] = number
            return
        }
        guard node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) }),
              let literal = value.as(StringLiteralExprSyntax.self), !literal.isInterpolated else { return }
        stringConstants[qualifiedName(name, of: node)] = literal.textWithPlaceholders
    }

    /// `name` with the names of the types around `node` (`A11y.Checkout.payButton`).
    private func qualifiedName(_ name: String, of node: VariableDeclSyntax) -> String {
        let types = ParsedSource.enclosingType(of: Syntax(node))
        return types.isEmpty ? name : types + "." + name
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        noteConstant(node)
        // `var icon: some View { Image(…) }`
        if let binding = node.bindings.first, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           let accessor = binding.accessorBlock, Self.isOnlyAnImage(accessor.accessors.as(CodeBlockItemListSyntax.self)) {
            imageOnlyMembers.insert(name)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if Self.isOnlyAnImage(node.body?.statements) { imageOnlyMembers.insert(node.name.text) }
        return .visitChildren
    }

    /// A body of one statement (maybe `return`) that is an `Image(…)` chain.
    static func isOnlyAnImage(_ statements: CodeBlockItemListSyntax?) -> Bool {
        guard let statements, statements.count == 1, let item = statements.first?.item else { return false }
        var expression = item.as(ExprSyntax.self) ?? item.as(ReturnStmtSyntax.self)?.expression
        while let call = expression?.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
              let base = member.base {
            expression = base
        }
        return expression?.as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Image"
    }

    private func note(_ name: String?, inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax, node: some SyntaxProtocol) {
        let inherited = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        if inherited.contains("PreviewProvider") { previewLines.append(lines(node)) }
        guard let name, inherited.contains("View") else { return }
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self),
                  let binding = variable.bindings.first, binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
                  let accessor = binding.accessorBlock else { continue }
            viewBodies[name] = accessor
        }
    }
}

extension ViewCall {
    /// What a Button does (`Button("Save") { save() }`, `Button { save() } label: {…}`,
    /// `Button(action: { save() }) {…}`) or what a Menu holds: code that is not the control itself.
    var actionClosure: ClosureExprSyntax? {
        guard name == "Button" || name == "Menu" else { return nil }
        if let action = call.arguments.first(where: { $0.label?.text == "action" })?.expression.as(ClosureExprSyntax.self) { return action }
        guard let trailing = call.trailingClosure else { return nil }
        // With `action:` given, the trailing closure is the label.
        if call.arguments.contains(where: { $0.label?.text == "action" }) { return nil }
        return trailing
    }

    /// Whether the view is built inside the closure of one of the `modifiers` on an enclosing view
    /// (`.accessibilityActions { Button(…) }`, `.contextMenu { … }`).
    func isInsideClosure(ofModifier names: Set<String>) -> Bool {
        var node = Syntax(chain)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != node.id,
               let member = call.calledExpression.as(MemberAccessExprSyntax.self), names.contains(member.declName.baseName.text) {
                return true
            }
            node = parent
        }
        return false
    }
}
