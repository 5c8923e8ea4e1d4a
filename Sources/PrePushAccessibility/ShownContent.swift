internal import SwiftSyntax

/// What a piece of view code shows, as far as VoiceOver's name for it goes: how many unlabelled
/// images, and whether anything else (text, a view the rules do not know) may give it words.
struct ShownContent {
    var images = 0
    var mayHaveWords = false

    /// At least one image and nothing that may have words: VoiceOver has only image names to read.
    var isOnlyImages: Bool { images > 0 && !mayHaveWords }

    static let nothing = ShownContent()
    static let image = ShownContent(images: 1)
    static let words = ShownContent(mayHaveWords: true)

    /// This content followed by `other`.
    func then(_ other: ShownContent) -> ShownContent {
        ShownContent(images: images + other.images, mayHaveWords: mayHaveWords || other.mayHaveWords)
    }
}

/// Reads view code into the ways it can look: each branch of an `if`, `switch` or `? :` is one
/// alternative, so a label that is `Label("Follow", …)` in one branch and an image alone in the
/// other is an icon-only label in the second. Through `let`s (a local `let icon = Image(…)`),
/// layout views (`HStack`, `Group`), modifiers and their closures (`.overlay { Text(…) }`), and the
/// file's own properties and functions (`label: { makeIcon(for: tab) }`). Arguments are not content
/// (`Image(systemName: name)`, `.frame(width: size)`), nor are conditions and `switch` subjects.
final class ContentReader {
    /// The most alternatives kept: past it they merge into one (a label with six independent
    /// `if`s is not worth 64 readings).
    static let limit = 32

    /// Views that show nothing VoiceOver could read as a name: layout, shapes, spinners.
    static let silentViews: Set<String> = [
        "HStack", "VStack", "ZStack", "Group", "Spacer", "ProgressView", "Circle", "Capsule", "Rectangle",
        "RoundedRectangle", "Ellipse", "Color", "Divider", "EmptyView", "LazyHStack", "LazyVStack",
    ]

    let iconViews: Set<String>
    /// Components whose body is a control showing only images (`ComponentTraits.iconControl`): read
    /// for a font, such a component is an image.
    let iconControls: Set<String>
    /// A property or function of the file by name: its body, to follow when a label names it.
    let members: [String: CodeBlockItemListSyntax]
    /// Reading for a font rather than for VoiceOver: an image is an image whatever its label, and a
    /// Button or Menu whose label is only images counts as one (a font on a stack of icon buttons
    /// sizes their symbols).
    let readsForFont: Bool
    /// Reading for a font inside `.labelStyle(.iconOnly)`: a `Label` shows only its icon there.
    var iconOnlyLabels = false
    /// Local `let`s seen so far that hold only an image.
    private var localImages: Set<String> = []
    /// Members being followed, against a property that names itself.
    private var following: Set<String> = []

    init(iconViews: Set<String>, members: [String: CodeBlockItemListSyntax], readsForFont: Bool = false, iconControls: Set<String> = []) {
        self.iconViews = iconViews
        self.iconControls = iconControls
        self.members = members
        self.readsForFont = readsForFont
    }

    /// Whether some way the label can look shows only images.
    func mayShowOnlyImages(_ statements: CodeBlockItemListSyntax) -> Bool {
        alternatives(Syntax(statements)).contains(where: \.isOnlyImages)
    }

    /// Whether every way the content can look shows only images.
    func alwaysShowsOnlyImages(_ statements: CodeBlockItemListSyntax) -> Bool {
        alternatives(Syntax(statements)).allSatisfy(\.isOnlyImages)
    }

    /// Every alternative of `first` followed by every one of `second`.
    static func sequence(_ first: [ShownContent], _ second: [ShownContent]) -> [ShownContent] {
        if second.count == 1 { return first.map { $0.then(second[0]) } }
        var result: [ShownContent] = []
        for one in first { for two in second { result.append(one.then(two)) } }
        guard result.count > limit else { return result }
        return [result.reduce(ShownContent.nothing) { $0.then($1) }]
    }

    private func sequence(of nodes: some Sequence<Syntax>) -> [ShownContent] {
        nodes.reduce([ShownContent.nothing]) { Self.sequence($0, alternatives($1)) }
    }

    /// The ways `node` can look.
    func alternatives(_ node: Syntax) -> [ShownContent] {
        if let item = node.as(CodeBlockItemSyntax.self) {
            // A string as a view (in a ViewBuilder) is Text.
            return item.item.is(StringLiteralExprSyntax.self) ? [.words] : alternatives(Syntax(item.item))
        }
        if let variable = node.as(VariableDeclSyntax.self) {
            noteLocal(variable)
            return [.nothing]
        }
        if node.is(DeclSyntax.self) || node.is(LabeledExprListSyntax.self) || node.is(ConditionElementListSyntax.self)
            || node.is(SwitchCaseLabelSyntax.self) {
            return [.nothing]
        }
        if let branch = node.as(IfExprSyntax.self) {
            let otherwise: [ShownContent]
            switch branch.elseBody {
            case .ifExpr(let next): otherwise = alternatives(Syntax(next))
            case .codeBlock(let block): otherwise = alternatives(Syntax(block.statements))
            case nil: otherwise = [.nothing]
            }
            return alternatives(Syntax(branch.body.statements)) + otherwise
        }
        if let choice = node.as(SwitchExprSyntax.self) {
            return choice.cases.flatMap { item -> [ShownContent] in
                switch item {
                case .switchCase(let switchCase): return alternatives(Syntax(switchCase.statements))
                case .ifConfigDecl(let config): return alternatives(Syntax(config))
                }
            }
        }
        if let ternary = node.as(TernaryExprSyntax.self) {
            return alternatives(Syntax(ternary.thenExpression)) + alternatives(Syntax(ternary.elseExpression))
        }
        if let call = node.as(FunctionCallExprSyntax.self) { return alternatives(call) }
        if let reference = node.as(DeclReferenceExprSyntax.self) { return [named(reference.baseName.text)] }
        if let member = node.as(MemberAccessExprSyntax.self) {
            // `self.icon` is the property `icon`; other member accesses (`Asset.logo`) say nothing.
            if member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                return [named(member.declName.baseName.text)]
            }
            // `item.icon`, `tab.image`: a property named for an image holds one.
            if member.base != nil, Self.isIconName(member.declName.baseName.text) { return [.image] }
            return [.nothing]
        }
        if node.is(StringLiteralExprSyntax.self) { return [.nothing] }
        return sequence(of: node.children(viewMode: .sourceAccurate))
    }

    private func alternatives(_ call: FunctionCallExprSyntax) -> [ShownContent] {
        let closures = [call.trailingClosure.map(Syntax.init)].compactMap { $0 } + call.additionalTrailingClosures.map { Syntax($0.closure) }
        if let view = ViewCall(call) {
            if view.name == "Image" || iconViews.contains(view.name) || Self.isIconName(view.name) {
                // A labelled (or hidden) image gives the control its words (or leaves them to others).
                return [view.isLabelledOrHidden && !readsForFont ? .words : .image]
            }
            if readsForFont, iconControls.contains(view.name) { return [.image] }
            // An icon-only Label (its own `.labelStyle(.iconOnly)`, or a stack's) draws its symbol alone.
            if readsForFont, view.name == "Label", iconOnlyLabels || view.showsIconOnly { return [.image] }
            if readsForFont, view.name == "Button" || view.name == "Menu",
               let label = IconButtonMissingLabelRule.labelClosure(of: call) {
                return [alwaysShowsOnlyImages(label.statements) ? .image : .words]
            }
            guard Self.silentViews.contains(view.name) else { return [.words] }
            return sequence(of: closures)
        }
        let callee = call.calledExpression
        if let reference = callee.as(DeclReferenceExprSyntax.self) { return [named(reference.baseName.text, called: true)] }
        if let member = callee.as(MemberAccessExprSyntax.self) {
            if member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
                return [named(member.declName.baseName.text, called: true)]
            }
            // `action.image(for: size)`, `item.icon()`: a method named for an image returns one.
            if Self.isIconName(member.declName.baseName.text) { return [.image] }
            // A modifier: what it is applied to, then what its closures add (`.overlay { Text(…) }`).
            let saved = iconOnlyLabels
            defer { iconOnlyLabels = saved }
            if member.declName.baseName.text == "labelStyle", ModifierChain.isIconOnlyStyle(call) { iconOnlyLabels = true }
            var base = member.base.map { alternatives(Syntax($0)) } ?? [.nothing]
            // Only an Image has `.resizable()` or `.renderingMode(…)`: a value they are applied to
            // is one (ios-pass' `IconProvider.cross.resizable()`, a library's static images).
            if Self.imageModifiers.contains(member.declName.baseName.text), base.allSatisfy({ $0.images == 0 && !$0.mayHaveWords }) { base = [.image] }
            return Self.sequence(base, sequence(of: closures))
        }
        return sequence(of: call.children(viewMode: .sourceAccurate))
    }

    /// Modifiers only `Image` has.
    static let imageModifiers: Set<String> = ["resizable", "renderingMode", "interpolation", "antialiased"]

    /// A view type or member named for an image (`CompoundIcon`, `AvatarImage`, `SFSymbol`, `image`,
    /// `tabIcon`): apps name their icon views this way, usually in another file or package than the
    /// buttons that show them.
    static func isIconName(_ name: String) -> Bool {
        let lower = name.lowercased()
        if ["image", "icon", "symbol", "glyph", "avatar"].contains(lower) { return true }
        return ["Image", "Icon", "Symbol", "Glyph", "Avatar"].contains { name.hasSuffix($0) } || name.hasPrefix("Avatar")
    }

    /// A name used as content: a local or member that is only an image, or a value that may be text.
    private func named(_ name: String, called: Bool = false) -> ShownContent {
        if localImages.contains(name) || isImageOnlyMember(name) { return .image }
        // A bare capitalised name (`EmptyView`, a type) says nothing; a value or a call may be text.
        return called || name.first?.isLowercase == true ? .words : .nothing
    }

    /// Whether the file's property or function `name` shows only images however it is reached.
    func isImageOnlyMember(_ name: String) -> Bool {
        guard let body = members[name], following.count < 4, following.insert(name).inserted else { return false }
        defer { following.remove(name) }
        let saved = localImages
        defer { localImages = saved }
        return alwaysShowsOnlyImages(body)
    }

    /// `let icon = Image(…)`: `icon` is an image from here on.
    private func noteLocal(_ variable: VariableDeclSyntax) {
        for binding in variable.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let value = binding.initializer?.value else { continue }
            if alternatives(Syntax(value)).allSatisfy(\.isOnlyImages) { localImages.insert(name) }
        }
    }
}
