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
        } else if let member = call.calledExpression.as(MemberAccessExprSyntax.self), member.declName.baseName.text == "init",
                  member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "self", let extended = extendedType(around: call),
                  extended == "Label" {
            // `self.init(title: title) { Image(systemSymbol: symbol) }` in `extension Label`: a Label
            // made by its own convenience initializer (MyHeartCounts' `Label(symbol:title:)`). Only
            // Label's: another type's initializer (damus' `SwipeAction`) is a library's to label.
            name = extended
        } else {
            return nil
        }
        guard let first = name.unicodeScalars.first, ("A"..."Z").contains(first) else { return nil }
        return name
    }

    /// The type an `extension` holding `node` extends, without its module (`SwiftUI.Label` → `Label`).
    static func extendedType(around node: some SyntaxProtocol) -> String? {
        var parent = Syntax(node).parent
        while let current = parent {
            if let extensionDecl = current.as(ExtensionDeclSyntax.self) {
                return extensionDecl.extendedType.trimmedDescription.split(separator: ".").last.map(String.init)
            }
            if current.is(StructDeclSyntax.self) || current.is(ClassDeclSyntax.self) { return nil }
            parent = current.parent
        }
        return nil
    }

    /// Reads `Name(…)` (or `SwiftUI.Name(…)`) and climbs `.modifier(…)` calls wrapped around it; nil for other calls.
    init?(_ call: FunctionCallExprSyntax) {
        guard let name = Self.viewName(of: call) else { return nil }
        self.call = call
        self.name = name
        (modifiers, chain) = ModifierClimb.climb(from: ExprSyntax(call))
    }
}

/// Reading a modifier chain in both directions, `#if` included: modifiers inside `#if … #else …
/// #endif` within a chain, and those after `#endif`, belong to the chain (every clause's, since each
/// ships on some platform or configuration).
enum ModifierClimb {
    /// The modifiers wrapped around `start`, innermost first, and the whole expression.
    static func climb(from start: ExprSyntax) -> (modifiers: [(name: String, call: FunctionCallExprSyntax)], chain: ExprSyntax) {
        var modifiers: [(name: String, call: FunctionCallExprSyntax)] = []
        var current = start
        while true {
            if let member = current.parent?.as(MemberAccessExprSyntax.self), member.base?.id == current.id,
               let outer = member.parent?.as(FunctionCallExprSyntax.self), outer.calledExpression.id == member.id {
                modifiers.append((member.declName.baseName.text, outer))
                current = ExprSyntax(outer)
            } else if let postfix = current.parent?.as(PostfixIfConfigExprSyntax.self), postfix.base?.id == current.id {
                modifiers += clauseModifiers(postfix.config)
                current = ExprSyntax(postfix)
            } else {
                return (modifiers, current)
            }
        }
    }

    /// The modifiers written in the clauses of a postfix `#if` (`.a().b()` in each), innermost first.
    static func clauseModifiers(_ config: IfConfigDeclSyntax) -> [(name: String, call: FunctionCallExprSyntax)] {
        var result: [(name: String, call: FunctionCallExprSyntax)] = []
        for clause in config.clauses {
            guard case .postfixExpression(let expression) = clause.elements else { continue }
            var outermostFirst: [(name: String, call: FunctionCallExprSyntax)] = []
            var current: ExprSyntax? = expression
            while let node = current {
                if let call = node.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self) {
                    outermostFirst.append((member.declName.baseName.text, call))
                    current = member.base
                } else if let nested = node.as(PostfixIfConfigExprSyntax.self) {
                    outermostFirst += clauseModifiers(nested.config).reversed()
                    current = nested.base
                } else {
                    break
                }
            }
            result += outermostFirst.reversed()
        }
        return result
    }

    /// The view a chain starts from (`Text("Pay").frame(…)` → `Text("Pay")`), through postfix `#if`s.
    static func root(of expression: ExprSyntax) -> ExprSyntax {
        var root = expression
        while true {
            if let call = root.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
               let base = member.base {
                root = base
            } else if let postfix = root.as(PostfixIfConfigExprSyntax.self), let base = postfix.base {
                root = base
            } else {
                return root
            }
        }
    }

    /// For a modifier written inside a postfix `#if` clause (`.onTapGesture` with no receiver of its
    /// own), the expression the `#if` follows.
    static func receiver(ofClauseModifier member: MemberAccessExprSyntax) -> ExprSyntax? {
        var node = Syntax(member)
        while let parent = node.parent {
            if parent.is(FunctionCallExprSyntax.self) || parent.is(MemberAccessExprSyntax.self) || parent.is(PostfixIfConfigExprSyntax.self) {
                node = parent
                continue
            }
            guard parent.is(IfConfigClauseSyntax.self),
                  let postfix = parent.parent?.parent?.parent?.as(PostfixIfConfigExprSyntax.self) else { return nil }
            return postfix.base
        }
        return nil
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
    /// The calls of one modifier.
    func modifier(_ name: String) -> [FunctionCallExprSyntax] {
        modifiers.filter { $0.name == name }.map(\.call)
    }

    /// Whether the view's Labels show only their icons: `.labelStyle(.iconOnly)` (or
    /// `IconOnlyLabelStyle()`) on its chain. A font there sizes symbols, not text.
    var showsIconOnly: Bool { modifier("labelStyle").contains(where: ModifierChain.isIconOnlyStyle) }

    /// A modifier that gives the view its own spoken text or hides it: `.accessibilityLabel`, `…Value`,
    /// `…Hint`, `.accessibilityHidden(true)` and the older `.accessibility(label:|value:|hint:|hidden: true)`.
    var isLabelledOrHidden: Bool {
        isHiddenFromAccessibility || modifiers.contains { modifier in
            switch modifier.name {
            // `.accessibilityRepresentation { Toggle("Mute", isOn: $muted) }`: VoiceOver reads the
            // representation, which names itself.
            case "accessibilityLabel", "accessibilityValue", "accessibilityHint", "accessibilityRepresentation": return true
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

    /// Whether this is the literal `false`.
    var isFalseLiteral: Bool {
        self.as(BooleanLiteralExprSyntax.self)?.literal.tokenKind == .keyword(.false)
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
        (modifiers, chain) = ModifierClimb.climb(from: root)
    }
    /// Whether a `.labelStyle(…)` call's style shows a Label's icon alone: `.iconOnly`, `IconOnlyLabelStyle()`.
    static func isIconOnlyStyle(_ call: FunctionCallExprSyntax) -> Bool {
        guard let style = call.arguments.first?.expression else { return false }
        if let member = style.as(MemberAccessExprSyntax.self) { return member.declName.baseName.text == "iconOnly" }
        return style.as(FunctionCallExprSyntax.self)?.calledExpression.trimmedDescription == "IconOnlyLabelStyle"
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
    private(set) var memberBodies: [String: CodeBlockItemListSyntax] = [:]
    /// This file's `ViewModifier`s that label or hide what they modify.
    private(set) var speakingModifiers: Set<String> = []
    private(set) var previewLines: [ClosedRange<Int>] = []
    private(set) var debugLines: [ClosedRange<Int>] = []
    /// The bodies of `if false { … }`.
    private(set) var deadLines: [ClosedRange<Int>] = []
    /// Lines of `#if` clauses compiled only for platforms without touch or Dynamic Type (`#if os(tvOS)`).
    private(set) var withoutTouchLines: [ClosedRange<Int>] = []
    /// The lines of each type declaration and extension, by the type's name: a view type only
    /// debug builds show (`ViewIndex.developerOnly`) is quiet like `#if DEBUG` code.
    private(set) var typeLines: [String: [ClosedRange<Int>]] = [:]
    private(set) var constants = ConstantTable()
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
        guard isTap || isIdentifier, let call = node.parent?.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
              let receiver = node.base ?? ModifierClimb.receiver(ofClauseModifier: node) else { return .visitChildren }
        // Down the chain to its receiver; a `Name(…)` view is the view rules' own.
        let root = ModifierClimb.root(of: receiver)
        guard !Self.isViewCall(root) else { return .visitChildren }
        if isTap, tapRoots.insert(root.id).inserted { tapChains.append(ModifierChain(root: root)) }
        if isIdentifier, identifierRoots.insert(root.id).inserted { identifierChains.append(ModifierChain(root: root)) }
        return .visitChildren
    }

    /// `Name(…)` or `SwiftUI.Name(…)`, as `ViewCall` reads it, without building one.
    static func isViewCall(_ expression: ExprSyntax) -> Bool {
        expression.as(FunctionCallExprSyntax.self).flatMap(ViewCall.viewName(of:)) != nil
    }

    /// Names used inside `.accessibilityActions { … }` and outside them: a property or function used
    /// only inside makes VoiceOver actions, not controls.
    private(set) var namesInActions: Set<String> = []
    private(set) var namesElsewhere: Set<String> = []
    private var actionsDepth = 0

    private static func isActionsClosure(_ node: ClosureExprSyntax) -> Bool {
        guard let call = node.parent?.as(FunctionCallExprSyntax.self), call.trailingClosure?.id == node.id else { return false }
        return call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "accessibilityActions"
    }

    override func visit(_ node: ClosureExprSyntax) -> SyntaxVisitorContinueKind {
        if Self.isActionsClosure(node) { actionsDepth += 1 }
        return .visitChildren
    }

    override func visitPost(_ node: ClosureExprSyntax) {
        if Self.isActionsClosure(node) { actionsDepth -= 1 }
    }

    override func visit(_ node: DeclReferenceExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.baseName.text
        if actionsDepth > 0 { namesInActions.insert(name) } else { namesElsewhere.insert(name) }
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewLines.append(lines(node)) }
        return .visitChildren
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewLines.append(lines(node)) }
        return .visitChildren
    }

    /// `if false { … }` (Meshtastic's switched-off trace-route chart): code no build ever shows,
    /// quiet like a debug build's.
    override func visit(_ node: IfExprSyntax) -> SyntaxVisitorContinueKind {
        if node.conditions.count == 1, node.conditions.first?.condition.as(ExprSyntax.self)?.isFalseLiteral == true {
            deadLines.append(lines(node.body))
        }
        return .visitChildren
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        // `#if DEBUG` (and `#elseif DEBUG`): the clause's code only; its `#else` ships.
        if ComponentCollector.isDebugClause(node), let elements = node.elements {
            debugLines.append(lines(elements))
        }
        if let elements = node.elements, CompiledPlatforms.of(node).isSubset(of: CompiledPlatforms.withoutTouchOrDynamicType) {
            withoutTouchLines.append(lines(elements))
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
        typeLines[node.extendedType.trimmedDescription, default: []].append(lines(node))
        note(nil, inheritance: node.inheritanceClause, members: node.memberBlock, node: node)
        return .visitChildren
    }

    /// `static let payButton = "checkout_button_pay"` inside `enum Checkout` inside `enum A11y`, a
    /// `let` of a struct or class holding one (`struct RoomScreen { let sendButton = "…" }`), an
    /// instance that leads to those (`static let roomScreen = RoomScreen()`), and number constants
    /// (`static let smallControl: CGFloat = 28`, or a `let` of a view).
    private func noteConstant(_ node: VariableDeclSyntax) {
        guard node.bindingSpecifier.tokenKind == .keyword(.let), node.bindings.count == 1, let binding = node.bindings.first,
              let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer?.value else { return }
        if let number = SmallTouchTargetRule.number(value) {
            numberConstants[qualifiedName(name, of: node)] = number
            return
        }
        let isStatic = node.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
        // A stored `let` of a type (not a local of a function): its parent is the type's member list.
        let isMember = node.parent?.is(MemberBlockItemSyntax.self) == true
        guard isStatic || isMember else { return }
        if let literal = value.as(StringLiteralExprSyntax.self), !literal.isInterpolated {
            constants.strings[qualifiedName(name, of: node)] = literal.textWithPlaceholders
        } else if let call = value.as(FunctionCallExprSyntax.self), call.arguments.isEmpty, call.trailingClosure == nil,
                  let type = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text, type.first?.isUppercase == true {
            constants.instances[qualifiedName(name, of: node)] = type
        }
    }

    /// `name` with the names of the types around `node` (`A11y.Checkout.payButton`).
    private func qualifiedName(_ name: String, of node: VariableDeclSyntax) -> String {
        let types = ParsedSource.enclosingType(of: Syntax(node))
        return types.isEmpty ? name : types + "." + name
    }

    /// The cases of a `String` enum (`enum SceneID: String { case welcome }`): `SceneID.welcome.rawValue`
    /// is `welcome`, or the literal given (as `ConstantIndex` reads them).
    override func visit(_ node: EnumCaseDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let declaration = node.parent?.parent?.parent?.parent?.as(EnumDeclSyntax.self),
              declaration.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription == "String" else { return .skipChildren }
        let types = ParsedSource.enclosingType(of: Syntax(node))
        for element in node.elements where element.parameterClause == nil {
            let value = element.rawValue?.value.as(StringLiteralExprSyntax.self)
            guard element.rawValue == nil || (value != nil && value?.isInterpolated == false) else { continue }
            constants.strings[types + "." + element.name.text + ".rawValue"] = value?.textWithPlaceholders ?? element.name.text
        }
        return .skipChildren
    }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        noteConstant(node)
        // `var icon: some View { … }`, read only if a label names it.
        if let binding = node.bindings.first, let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           let body = binding.accessorBlock?.accessors.as(CodeBlockItemListSyntax.self), memberBodies[name] == nil {
            memberBodies[name] = body
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        if let body = node.body?.statements, memberBodies[node.name.text] == nil { memberBodies[node.name.text] = body }
        return .visitChildren
    }

    private func note(_ name: String?, inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax, node: some SyntaxProtocol) {
        let inherited = inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? []
        if let name { typeLines[name, default: []].append(lines(node)) }
        if inherited.contains("PreviewProvider") { previewLines.append(lines(node)) }
        // `struct Decorative: ViewModifier { func body(content:) … content.accessibilityHidden(true) }`.
        if let name, inherited.contains("ViewModifier") {
            for member in members.members {
                guard let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "body",
                      let body = function.body, ParsedSource.labelsOrHides(body) else { continue }
                speakingModifiers.insert(name)
            }
        }
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
