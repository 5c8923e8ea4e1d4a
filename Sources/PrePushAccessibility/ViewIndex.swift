internal import SwiftParser
internal import SwiftSyntax

/// What a custom view type (`struct PrimaryButton: View`) or a helper returning a view
/// (`func barButton(label:) -> some View`) does with what it shows, read from its declaration.
/// Apps keep such components in a design-system file or package, away from the screens that use
/// them: a finding at a use site is decided with what the declaration says.
package struct ComponentTraits: OptionSet, Sendable, Hashable {
    /// The bit set.
    package let rawValue: UInt16

    /// Traits from their bits (as stored).
    package init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    /// Its body is a control (`Button`, `Link`, `Toggle`, `Menu`, `NavigationLink`, `ShareLink`): what
    /// it is given is the control's label, spoken with the control.
    package static let control = ComponentTraits(rawValue: 1 << 0)
    /// Its body replaces its children's accessibility: `.accessibilityElement(children: .ignore)`, an
    /// `.accessibilityLabel` or an `.accessibilityRepresentation` on the whole.
    package static let speaksForContent = ComponentTraits(rawValue: 1 << 1)
    /// Its body combines its children (`children: .combine`) and shows text of its own: an icon it is
    /// given is read with that text.
    package static let combinesWithText = ComponentTraits(rawValue: 1 << 2)
    /// Its body is hidden from VoiceOver (`.accessibilityHidden(true)`).
    package static let hidden = ComponentTraits(rawValue: 1 << 3)
    /// Its body is one image: a Button showing only it is icon-only.
    package static let icon = ComponentTraits(rawValue: 1 << 4)
    /// It draws a widget or a complication: it reads `\.widgetFamily` or names an accessory family.
    package static let widget = ComponentTraits(rawValue: 1 << 5)

    /// Its body is a control whose label shows only images (isowords' `CubeIconView`: `Button(action:) {
    /// Image(systemName: "cube.fill") }`): a font given to it sizes a symbol, not text.
    package static let iconControl = ComponentTraits(rawValue: 1 << 6)

    /// Its body is given a frame fixed in both directions by numbers (Trio's `TrendShape`:
    /// `ZStack { … }.frame(width: 130, height: 130)`): it cannot grow with what is drawn over it.
    package static let fixedSize = ComponentTraits(rawValue: 1 << 7)

    /// Its declaration shows text (a `Text` or a `Label`): a control whose label it is reads that text.
    package static let showsText = ComponentTraits(rawValue: 1 << 8)

    /// Its body is one `Image` of what the component is given (ios-pass' `SwiftUIImage`: `Image(uiImage:
    /// image)`, `image` a stored property): the image is the caller's, labelled or hidden where the
    /// component is used, and checked there.
    package static let givenImage = ComponentTraits(rawValue: 1 << 9)

    /// Its body adds the button or link trait (`.accessibilityAddTraits(.isButton)`, BookPlayer's
    /// `PricingRowView`): a tap on it is announced.
    package static let buttonTrait = ComponentTraits(rawValue: 1 << 10)

    /// The traits under which an image inside the component needs no label of its own.
    package static let speaksForImages: ComponentTraits = [.control, .speaksForContent, .combinesWithText, .hidden]
}

/// How often a view type is made, and how often the use labels or hides it.
package struct UseCount: Sendable, Hashable {
    /// Uses (`AvatarView(user: user)` calls).
    package var all = 0
    /// Uses whose modifier chain labels it or hides it.
    package var labelledOrHidden = 0

    /// Counts.
    package init(all: Int = 0, labelledOrHidden: Int = 0) {
        self.all = all
        self.labelledOrHidden = labelledOrHidden
    }
}

/// The view components of a repository: each custom view type's and view helper's traits, the
/// widget surfaces, and how each view type is used. Built from every view file once per run
/// (`scan` per file, `merge`, then `resolved()`), next to the constant index.
package struct ViewIndex: Sendable, Equatable {
    /// Traits by type or function name. A name declared twice keeps only the traits both share.
    package var components: [String: ComponentTraits] = [:]
    /// View types made inside a widget's configuration (`StaticConfiguration { entry in EntryView(…) }`).
    package var widgetRoots: Set<String> = []
    /// For each view type, the view types its declaration makes (to follow a widget's views down).
    package var children: [String: Set<String>] = [:]
    /// How each view type is used across the files scanned.
    package var uses: [String: UseCount] = [:]
    /// For each view type, the view types that make it in code that ships (outside `#if DEBUG`, previews
    /// and tests); `ViewIndex.outsideViews` for a use outside any view type (an `App`, a UIKit
    /// controller's `UIHostingController(rootView:)`, an extension).
    package var shippedUsers: [String: Set<String>] = [:]
    /// For each view type, the view types that make it in shipped code outside any control's label
    /// (`ViewIndex.outsideViews` for code outside a view type).
    package var unlabelledUsers: [String: Set<String>] = [:]
    /// For each view type, how many uses sit in `#if DEBUG` code.
    package var debugUses: [String: Int] = [:]
    /// For each view type, how many uses are an `ImageRenderer`'s content (drawn into a picture).
    package var renderedUses: [String: Int] = [:]
    /// The ButtonStyle types whose `makeBody` pads the button's label on every side and fills the
    /// padding (`configuration.label.padding(8).background { Circle() }`), with those points: the
    /// padding takes the tap too. A style declared twice keeps the smaller.
    package var labelPadding: [String: Double] = [:]
    /// Worked out by `resolved()`: view types made only by debug builds (`developerOnly(_:)`).
    package private(set) var developerOnly: Set<String> = []
    /// Worked out by `resolved()`: view types made only as an `ImageRenderer`'s content (and what only
    /// they make): drawn into an image to save or share, never on screen for VoiceOver, touch or
    /// Dynamic Type (dimeApp's `SingleDayPhotoView`, `ImageRenderer(content: …).uiImage`).
    package private(set) var renderedOnly: Set<String> = []
    /// Worked out by `resolved()`: every view type a widget or complication draws.
    package private(set) var widgetSurfaces: Set<String> = []
    /// Worked out by `resolved()`: the icon views.
    package private(set) var iconViews: Set<String> = []
    /// Worked out by `resolved()`: the components whose body is one image they are given (`.givenImage`).
    package private(set) var givenImageViews: Set<String> = []
    /// Worked out by `resolved()`: the components whose body is a control showing only images.
    package private(set) var iconControls: Set<String> = []
    /// Worked out by `resolved()`: view types shown only inside a control's label, by a use there or
    /// by view types that are themselves (Flipper's `HubCard`, the body of cards every use of which is
    /// a Button's label).
    package private(set) var inControlLabels: Set<String> = []

    /// An empty index.
    package init() {}

    /// Whether it holds nothing.
    package var isEmpty: Bool { components.isEmpty && widgetRoots.isEmpty && uses.isEmpty && labelPadding.isEmpty }

    /// The user standing for code outside any view type, which always ships.
    package static let outsideViews = "-"

    /// The traits of `name`, none when it is not a component of the repository.
    package func traits(of name: String) -> ComponentTraits { components[name] ?? [] }

    /// Whether every use of view type `name` (at least one) labels or hides it.
    package func isAlwaysLabelledWhereUsed(_ name: String) -> Bool {
        guard let count = uses[name] else { return false }
        return count.all > 0 && count.labelledOrHidden == count.all
    }

    /// Whether view type `name` is shown only inside a control's label and shows text itself: the
    /// control reads that text, so an image of it needs no label of its own.
    /// The text may be the view's that shows it: MovieSwiftUI's `SmallMoviePosterImage`, made only by
    /// `CustomListRow`, a NavigationLink's label with the list's name (a few views up at most).
    package func speaksWithControl(_ name: String, depth: Int = 0) -> Bool {
        guard inControlLabels.contains(name) else { return false }
        if traits(of: name).contains(.showsText) { return true }
        guard depth < 3, let users = shippedUsers[name], !users.isEmpty else { return false }
        return users.allSatisfy { $0 != name && $0 != Self.outsideViews && speaksWithControl($0, depth: depth + 1) }
    }

    /// The index of one file's text; nothing for text that is not Swift.
    package static func scan(_ text: String) -> ViewIndex {
        scan(bytes: Array(text.utf8))
    }

    /// The index of one file's UTF-8 bytes.
    package static func scan(bytes: [UInt8]) -> ViewIndex {
        let tree = bytes.withUnsafeBufferPointer { Parser.parse(source: $0) }
        return scan(tree: tree)
    }

    /// The index of one parsed file.
    static func scan(tree: SourceFileSyntax) -> ViewIndex {
        let collector = ComponentCollector()
        collector.walk(tree)
        return collector.index
    }

    /// Adds `other`'s entries: a component declared in both keeps the traits both give it (two
    /// `Row`s in two modules: only what is true of both is relied on).
    package mutating func merge(_ other: ViewIndex) {
        components.merge(other.components) { $0.intersection($1) }
        widgetRoots.formUnion(other.widgetRoots)
        children.merge(other.children) { $0.union($1) }
        uses.merge(other.uses) { UseCount(all: $0.all + $1.all, labelledOrHidden: $0.labelledOrHidden + $1.labelledOrHidden) }
        unlabelledUsers.merge(other.unlabelledUsers) { $0.union($1) }
        shippedUsers.merge(other.shippedUsers) { $0.union($1) }
        debugUses.merge(other.debugUses) { $0 + $1 }
        renderedUses.merge(other.renderedUses) { $0 + $1 }
        labelPadding.merge(other.labelPadding) { min($0, $1) }
    }

    /// The view types only a debug build shows: made in `#if DEBUG` code at least once, and
    /// otherwise only by view types that are themselves developer-only (a debug menu's screens and
    /// what they show). A type made anywhere else, or never seen made, ships. Previews count for
    /// neither side. What no scanned file makes by a call (a type named only in a generic
    /// argument) is not seen: such a type made elsewhere in shipped code would be missed.
    static func developerOnly(debugUses: [String: Int], shippedUsers: [String: Set<String>]) -> Set<String> {
        var found = Set(debugUses.filter { $0.value > 0 && (shippedUsers[$0.key] ?? []).isEmpty }.keys)
        guard !found.isEmpty else { return [] }
        // Grows from the types only debug code makes to those only they make; a cycle of types
        // making each other, with no debug root, is never added.
        var changed = true
        while changed {
            changed = false
            for (name, users) in shippedUsers where !found.contains(name) && !users.isEmpty {
                if users.allSatisfy({ $0 != name && found.contains($0) }) {
                    found.insert(name)
                    changed = true
                }
            }
        }
        return found
    }

    /// The index with its widget surfaces (the roots and widget-trait views, and every view they make,
    /// down the declarations) and icon views worked out.
    package func resolved() -> ViewIndex {
        var copy = self
        var surfaces = widgetRoots.union(components.filter { $0.value.contains(.widget) }.keys)
        var queue = Array(surfaces)
        while let next = queue.popLast() {
            for child in children[next] ?? [] where surfaces.insert(child).inserted { queue.append(child) }
        }
        copy.widgetSurfaces = surfaces
        copy.iconViews = Set(components.filter { $0.value.contains(.icon) && $0.key.first?.isUppercase == true }.keys)
        copy.iconControls = Set(components.filter { $0.value.contains(.iconControl) && $0.key.first?.isUppercase == true }.keys)
        copy.givenImageViews = Set(components.filter { $0.value.contains(.givenImage) && $0.key.first?.isUppercase == true }.keys)
        copy.developerOnly = Self.developerOnly(debugUses: debugUses, shippedUsers: shippedUsers)
        copy.renderedOnly = Self.developerOnly(debugUses: renderedUses, shippedUsers: shippedUsers)
        copy.inControlLabels = Self.inControlLabels(shippedUsers: shippedUsers, unlabelledUsers: unlabelledUsers)
        return copy
    }

    /// The view types made in shipped code only inside controls' labels, or by view types that are
    /// themselves only there (what a label's view shows is in the label too), to a fixed point.
    static func inControlLabels(shippedUsers: [String: Set<String>], unlabelledUsers: [String: Set<String>]) -> Set<String> {
        var found = Set(shippedUsers.keys.filter { (unlabelledUsers[$0] ?? []).isEmpty })
        var changed = true
        while changed {
            changed = false
            for (name, users) in unlabelledUsers where !found.contains(name) && shippedUsers[name] != nil && users.isSubset(of: found) {
                found.insert(name)
                changed = true
            }
        }
        return found
    }
}

/// One walk of a file for `ViewIndex`: view types' bodies, view helpers, widget configurations and
/// the view types each use makes.
final class ComponentCollector: SyntaxVisitor {
    private(set) var index = ViewIndex()
    /// The view types being walked, innermost last: what their declarations make.
    private var types: [String] = []
    /// How deep the walk is in `#if DEBUG` code, and in previews (`#Preview`, a `PreviewProvider`).
    private var debugDepth = 0
    private var previewDepth = 0

    init() {
        super.init(viewMode: .sourceAccurate)
    }

    static let controls: Set<String> = ["Button", "Link", "Toggle", "Menu", "NavigationLink", "ShareLink"]
    /// WidgetKit's configurations, whose closures make a widget's or a Live Activity's views.
    static let widgetConfigurations: Set<String> = ["StaticConfiguration", "IntentConfiguration", "AppIntentConfiguration", "ActivityConfiguration"]
    static let builtInViews: Set<String> = ContentReader.silentViews.union(controls).union([
        "Text", "Image", "Label", "List", "ScrollView", "Section", "ForEach", "NavigationStack", "NavigationView",
        "TextField", "SecureField", "TextEditor", "Picker", "DatePicker", "Slider", "Stepper", "Form", "GeometryReader",
        "LazyVGrid", "LazyHGrid", "GridItem", "Grid", "GridRow", "TabView", "AsyncImage", "Font", "Color", "CGSize", "CGFloat",
        "Binding", "Date", "URL", "String", "Int", "Double", "Task", "ToolbarItem", "ToolbarItemGroup", "ViewThatFits",
    ])
    static let accessoryFamilies: Set<String> = ["widgetFamily", "accessoryCircular", "accessoryRectangular", "accessoryInline", "accessoryCorner"]

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        if Self.isPreviewProvider(node.inheritanceClause) { previewDepth += 1 }
        enter(node.name.text, inheritance: node.inheritanceClause, members: node.memberBlock)
        return .visitChildren
    }

    override func visitPost(_ node: StructDeclSyntax) {
        if Self.isPreviewProvider(node.inheritanceClause) { previewDepth -= 1 }
        if types.last == node.name.text { types.removeLast() }
    }

    private static func isPreviewProvider(_ inheritance: InheritanceClauseSyntax?) -> Bool {
        inheritance?.inheritedTypes.contains { $0.type.trimmedDescription == "PreviewProvider" } == true
    }

    /// `#if DEBUG` and `#elseif DEBUG` clauses (not their `#else`, which ships).
    static func isDebugClause(_ node: IfConfigClauseSyntax) -> Bool {
        node.condition?.as(DeclReferenceExprSyntax.self)?.baseName.text == "DEBUG"
    }

    override func visit(_ node: IfConfigClauseSyntax) -> SyntaxVisitorContinueKind {
        if Self.isDebugClause(node) { debugDepth += 1 }
        return .visitChildren
    }

    override func visitPost(_ node: IfConfigClauseSyntax) {
        if Self.isDebugClause(node) { debugDepth -= 1 }
    }

    override func visit(_ node: MacroExpansionExprSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewDepth += 1 }
        return .visitChildren
    }

    override func visitPost(_ node: MacroExpansionExprSyntax) {
        if node.macroName.text == "Preview" { previewDepth -= 1 }
    }

    override func visit(_ node: MacroExpansionDeclSyntax) -> SyntaxVisitorContinueKind {
        if node.macroName.text == "Preview" { previewDepth += 1 }
        return .visitChildren
    }

    override func visitPost(_ node: MacroExpansionDeclSyntax) {
        if node.macroName.text == "Preview" { previewDepth -= 1 }
    }

    /// A `View` type: its body's traits, and whether it draws a widget.
    private func enter(_ name: String, inheritance: InheritanceClauseSyntax?, members: MemberBlockSyntax) {
        let inherited = Set(inheritance?.inheritedTypes.map { $0.type.trimmedDescription } ?? [])
        if inherited.contains("ButtonStyle") || inherited.contains("SwiftUI.ButtonStyle") {
            if let points = ButtonStylePadding.labelPadding(members) {
                index.labelPadding[name] = index.labelPadding[name].map { min($0, points) } ?? points
            }
            return
        }
        guard inherited.contains("View") || inherited.contains("SwiftUI.View") else { return }
        types.append(name)
        var traits: ComponentTraits = []
        for member in members.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), let binding = variable.bindings.first,
                  binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
                  let statements = binding.accessorBlock?.accessors.as(CodeBlockItemListSyntax.self) else { continue }
            traits = Self.traits(of: statements)
            for token in statements.tokens(viewMode: .sourceAccurate) {
                switch token.text {
                case "Text", "Label": traits.insert(.showsText)
                case "isButton", "isLink": traits.insert(.buttonTrait)
                default: break
                }
            }
            if traits.contains(.icon), Self.showsGivenImage(statements, members: members) { traits.insert(.givenImage) }
        }
        // `@Environment(\.widgetFamily)` or a `switch family { case .accessoryCircular: … }`: it draws
        // for a widget family, which Dynamic Type does not size.
        if members.tokens(viewMode: .sourceAccurate).contains(where: { Self.accessoryFamilies.contains($0.text) }) { traits.insert(.widget) }
        index.components[name] = index.components[name].map { $0.intersection(traits) } ?? traits
        if index.children[name] == nil { index.children[name] = [] }
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `func barButton(label: String, …) -> some View`: a helper whose result is a view.
        guard node.name.text != "body", let returned = node.signature.returnClause?.type.trimmedDescription,
              returned.hasSuffix("View"), let body = node.body?.statements else { return .visitChildren }
        let traits = Self.traits(of: body).subtracting([.icon, .widget])
        let name = node.name.text
        index.components[name] = index.components[name].map { $0.intersection(traits) } ?? traits
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        guard let name = ViewCall.viewName(of: node) else { return .visitChildren }
        if Self.widgetConfigurations.contains(name) {
            // `StaticConfiguration(kind:provider:) { entry in EntryView(entry: entry) }`,
            // `ActivityConfiguration`, `AppIntentConfiguration`: what the closures make is a widget's.
            // (Not any `…Configuration`: UIKit's `UIHostingConfiguration { … }` hosts an app's cell.)
            let closures = [node.trailingClosure].compactMap { $0 } + node.additionalTrailingClosures.map(\.closure)
            for closure in closures {
                for token in closure.tokens(viewMode: .sourceAccurate) where token.text.first?.isUppercase == true {
                    if let call = token.parent?.parent?.as(FunctionCallExprSyntax.self), ViewCall.viewName(of: call) == token.text {
                        index.widgetRoots.insert(token.text)
                    }
                }
            }
        }
        // SwiftUI's own views are never a component of the repository: not kept (they are most calls,
        // and the index is stored for every view file).
        guard !Self.builtInViews.contains(name) else { return .visitChildren }
        if let type = types.last { index.children[type, default: []].insert(name) }
        guard let view = ViewCall(node) else { return .visitChildren }
        var count = index.uses[name] ?? UseCount()
        count.all += 1
        if view.isLabelledOrHidden { count.labelledOrHidden += 1 }
        index.uses[name] = count
        if debugDepth > 0 {
            index.debugUses[name, default: 0] += 1
        } else if Self.isRendererContent(node) {
            index.renderedUses[name, default: 0] += 1
        } else if previewDepth == 0 {
            index.shippedUsers[name, default: []].insert(types.last ?? ViewIndex.outsideViews)
            if !Self.isInControlLabel(node) { index.unlabelledUsers[name, default: []].insert(types.last ?? ViewIndex.outsideViews) }
        }
        return .visitChildren
    }

    /// Whether the call is inside a control's label, up to its declaration: `Button { … } label: { … }`,
    /// `Button(action:) { … }`, `NavigationLink(destination:) { … }`, `Toggle(isOn:) { … }`.
    static func isInControlLabel(_ node: FunctionCallExprSyntax) -> Bool {
        var current = Syntax(node)
        // The closure last climbed out of: a trailing closure is the call's child, a `label:` one sits
        // in the call's closure or argument list.
        var closure: SyntaxIdentifier?
        while let parent = current.parent, !parent.is(DeclSyntax.self) {
            if current.is(ClosureExprSyntax.self) { closure = current.id }
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != current.id,
               let name = ViewCall.viewName(of: call), controls.contains(name), let label = labelClosure(of: call), label.id == closure {
                return true
            }
            current = parent
        }
        return false
    }

    /// A control's label closure: named `label:`, or the trailing closure after the argument that
    /// makes it (`action:`, `destination:`, `isOn:`, `value:`, `item:`).
    static func labelClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let labelled = call.additionalTrailingClosures.first(where: { $0.label.text == "label" }) { return labelled.closure }
        if let argument = call.arguments.first(where: { $0.label?.text == "label" }) { return argument.expression.as(ClosureExprSyntax.self) }
        let makers: Set<String> = ["action", "destination", "isOn", "value", "item"]
        return call.arguments.contains(where: { $0.label.map { makers.contains($0.text) } ?? false }) ? call.trailingClosure : nil
    }

    /// Whether the call is inside the arguments of an `ImageRenderer(content: …)`, up to its declaration.
    static func isRendererContent(_ node: FunctionCallExprSyntax) -> Bool {
        var current = Syntax(node)
        while let parent = current.parent, !parent.is(DeclSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != current.id,
               call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "ImageRenderer" { return true }
            current = parent
        }
        return false
    }

    /// What a body's statements say of the component: a control at its root, a chain that speaks for,
    /// combines or hides its children, or a single image.
    static func traits(of statements: CodeBlockItemListSyntax) -> ComponentTraits {
        var traits: ComponentTraits = []
        let roots = statements.compactMap { item -> ExprSyntax? in
            if let expression = item.item.as(ExprSyntax.self) { return expression }
            // `return Button(…) { … }` in a helper function.
            return item.item.as(ReturnStmtSyntax.self)?.expression
        }
        for expression in roots {
            let root = ModifierClimb.root(of: expression)
            let chain = ModifierChain(root: root)
            guard let call = root.as(FunctionCallExprSyntax.self) else {
                traits.formUnion(chainTraits(chain, statements: statements))
                continue
            }
            if let name = ViewCall.viewName(of: call), controls.contains(name) || isControlInContainer(call) {
                traits.insert(.control)
                if ["Button", "Link", "Menu"].contains(name), let label = IconButtonMissingLabelRule.labelClosure(of: call),
                   ContentReader(iconViews: [], members: [:], readsForFont: true).alwaysShowsOnlyImages(label.statements) {
                    traits.insert(.iconControl)
                }
            }
            traits.formUnion(chainTraits(chain, statements: statements))
        }
        if roots.count == 1, statements.count == 1, let call = roots.first.map({ ModifierClimb.root(of: $0) })?.as(FunctionCallExprSyntax.self),
           let view = ViewCall(call), view.name == "Image" || ContentReader.isIconName(view.name) {
            traits.insert(.icon)
        }
        return traits
    }

    /// The name of the value an image shows when it is one the view holds (`image`, `self.image`),
    /// not a name or an expression of its own.
    static func givenName(_ source: ExprSyntax?) -> String? {
        if let reference = source?.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        guard let member = source?.as(MemberAccessExprSyntax.self),
              member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) else { return nil }
        return member.declName.baseName.text
    }

    /// Whether a body that is one `Image` shows a stored property of its type (`let image: UIImage`,
    /// set by whoever makes the view): the image is given by the view's user.
    static func showsGivenImage(_ body: CodeBlockItemListSyntax, members: MemberBlockSyntax) -> Bool {
        guard let expression = body.first?.item.as(ExprSyntax.self) ?? body.first?.item.as(ReturnStmtSyntax.self)?.expression,
              let call = ModifierClimb.root(of: expression).as(FunctionCallExprSyntax.self), ViewCall.viewName(of: call) == "Image",
              let name = givenName(call.arguments.first?.expression) else { return false }
        return members.members.contains { member in
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { return false }
            return variable.bindings.contains { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name && $0.accessorBlock == nil }
        }
    }

    /// A layout container whose first view is a control (isowords' `GameButton`: `ZStack { Button(action:
    /// action) { … } … }`): what the component is given goes into that control.
    static func isControlInContainer(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ViewCall.viewName(of: call), ["ZStack", "HStack", "VStack", "Group"].contains(name),
              let first = call.trailingClosure?.statements.first?.item.as(ExprSyntax.self),
              let inner = ModifierClimb.root(of: first).as(FunctionCallExprSyntax.self).flatMap(ViewCall.viewName(of:)) else { return false }
        return controls.contains(inner)
    }

    /// The traits a body's outermost modifier chain gives.
    private static func chainTraits(_ chain: ModifierChain, statements: CodeBlockItemListSyntax) -> ComponentTraits {
        var traits: ComponentTraits = []
        if chain.isHiddenFromAccessibility { traits.insert(.hidden) }
        let fixed = chain.modifiers.contains { modifier in
            guard modifier.name == "frame" else { return false }
            let sizes = ["width", "height"].map { label in modifier.call.arguments.first { $0.label?.text == label }.flatMap { SmallTouchTargetRule.number($0.expression) } }
            return sizes.allSatisfy { $0 != nil }
        }
        if fixed { traits.insert(.fixedSize) }
        if chain.ignoresChildren || chain.modifiers.contains(where: { ["accessibilityLabel", "accessibilityRepresentation"].contains($0.name) }) {
            traits.insert(.speaksForContent)
        }
        let combines = chain.modifiers.contains { modifier in
            modifier.name == "accessibilityElement"
                && modifier.call.arguments.first?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "combine"
        }
        if combines, statements.tokens(viewMode: .sourceAccurate).contains(where: { $0.text == "Text" || $0.text == "Label" }) {
            traits.insert(.combinesWithText)
        }
        return traits
    }
}
