import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

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
