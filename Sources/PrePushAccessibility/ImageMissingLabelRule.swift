import PrePushCore
internal import SwiftSyntax

/// An `Image` that VoiceOver would read by its file or symbol name: no label, not decorative, not hidden,
/// and no enclosing view that speaks for it.
package struct ImageMissingLabelRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "image-missing-label",
        name: "Image without a label",
        rationale: """
        A SwiftUI `Image` is an accessibility element: without a label VoiceOver reads its asset or symbol \
        name ("close icon white", "circle plus"). Give it `.accessibilityLabel`, or say it is decoration with \
        `Image(decorative:)` or `.accessibilityHidden(true)`. An image is spoken for by a `Label`'s title, a \
        `NavigationLink`, or an enclosing view with its own label or `.accessibilityElement(children: .ignore)`. \
        The verdicts are SwiftLint's `accessibility_label_for_image` on its own examples.
        """,
        issueType: .missingLabel,
        defaultSeverity: .warning,
        nonTriggeringExamples: [
            // A component that is one image it is given (ios-pass' `SwiftUIImage`): the caller's use
            // is checked, here hidden; and an image in an overlay of a hidden view (BookPlayer's badge).
            RuleExample("""
            struct PlainImage: View {
                let image: UIImage
                var body: some View { Image(uiImage: image).resizable() }
            }
            struct Row: View {
                var body: some View { HStack { PlainImage(image: icon).accessibilityHidden(true); Text(title) } }
            }
            """),
            RuleExample("""
            Cover(item: item)
                .overlay { Image(systemName: "checkmark.circle") }
                .accessibilityHidden(true)
            """),
            // A function whose image is only ever a Label's icon: the Label reads its title.
            RuleExample("""
            struct TabRow: View {
                let tab: Tab
                var body: some View { Label { Text(tab.title) } icon: { favicon(for: tab).resizable() } }
                private func favicon(for tab: Tab) -> Image { Image(uiImage: tab.icon ?? UIImage()) }
            }
            """),
            // A property shown only where it is hidden (Hackers' thumbnail placeholder).
            RuleExample("""
            struct Thumbnail: View {
                var body: some View {
                    if let image { image } else { placeholder.frame(width: 40).accessibilityHidden(true) }
                }
                private var placeholder: some View { Image(systemName: "safari").foregroundStyle(.secondary) }
            }
            """),
            // Backyard Birds: a symbol inside a text run is read with the text.
            RuleExample(#"Text("Best Value \(Image(systemName: "sparkles"))")"#),
            RuleExample(#"Text(Image(systemName: "star.fill")) + Text(" Favorites")"#),
            // A Label's own convenience initializer (MyHeartCounts' `Label(symbol:title:)`): the icon is read with the title.
            RuleExample("""
            extension SwiftUI.Label where Icon == Image {
                init(symbol: String, @ViewBuilder title: () -> Title) {
                    self.init(title: title) { Image(systemName: symbol) }
                }
            }
            """),
            // Drawn into a Canvas: pixels, never an element of its own.
            RuleExample(#"Canvas { context, size in context.draw(Image("logo"), at: CGPoint(x: size.width / 2, y: size.height / 2)) }.accessibilityLabel("Food Truck")"#),
            // A chart mark's symbol (Trio's forecast chart): the chart reads its marks by value.
            RuleExample(#"PointMark(x: .value("Time", date), y: .value("Glucose", value)).symbol { Image(systemName: "drop.fill").foregroundStyle(.blue) }"#),
            // An image that is only a gradient's mask (damus, EventActionBar.swift): it shapes the gradient.
            RuleExample(#"LinearGradient(colors: [.purple, .orange], startPoint: .top, endPoint: .bottom).mask(Image("shaka.fill").resizable().aspectRatio(contentMode: .fit))"#),
            // Hidden by a modifier of the same file: a ViewModifier, or a View extension.
            RuleExample("""
            struct Decorative: ViewModifier {
                func body(content: Content) -> some View { content.accessibilityHidden(true) }
            }
            extension View {
                func ornamental() -> some View { accessibilityHidden(true) }
            }
            struct Card: View {
                var body: some View {
                    Image("pattern").resizable().modifier(Decorative())
                    Image("wave").ornamental()
                }
            }
            """),
            // Components (in an app, declared in another file): a button that puts what it is
            // given in a Button's label beside its title, a row that combines icon and title, a
            // helper that labels its button, and an avatar every screen hides.
            RuleExample("""
            struct PrimaryButton<Content: View>: View {
                let title: String
                let action: () -> Void
                @ViewBuilder let content: Content
                var body: some View {
                    Button(action: action) { HStack { content; Text(title) } }.buttonStyle(.borderedProminent)
                }
            }
            struct SettingsRow<Icon: View>: View {
                let title: String
                @ViewBuilder let icon: Icon
                var body: some View { HStack { icon; Text(title) }.accessibilityElement(children: .combine) }
            }
            func barButton(_ label: String, action: @escaping () -> Void, @ViewBuilder content: () -> some View) -> some View {
                Button(action: action, label: content).accessibilityLabel(label)
            }
            struct Avatar: View {
                var body: some View { Image("placeholder-avatar").resizable() }
            }
            struct Screen: View {
                var body: some View {
                    PrimaryButton(title: "Save", action: save) { Image("disk") }
                    SettingsRow(title: "Notifications") { Image(systemName: "bell") }
                    barButton("Close", action: dismiss) { Image(systemName: "xmark") }
                    Avatar().accessibilityHidden(true)
                }
            }
            """),
            // A card shown only as a Button's label, here or through a view that is (Flipper's HubCard):
            // the button reads the card's text, its chevron is no element of its own.
            RuleExample("""
            struct HubCard: View {
                let title: String
                var body: some View { HStack { Text(title); Spacer(); Image("ChevronRight") } }
            }
            struct ReaderCard: View {
                var body: some View { HubCard(title: "Reader") }
            }
            struct Hub: View {
                var body: some View {
                    Button { openReader() } label: { ReaderCard() }
                    NavigationLink(destination: Remote()) { HubCard(title: "Remote") }
                }
            }
            """),
            // A member every use of which is a NavigationLink's label (IcySky's profile rows).
            RuleExample("""
            struct ProfileView: View {
                var body: some View {
                    NavigationLink(value: Destination.posts) { row(title: "Posts", icon: "bubble.fill") }
                    NavigationLink(value: Destination.likes) { row(title: "Likes", icon: "heart.fill") }
                }
                private func row(title: String, icon: String) -> some View { HStack { Image(systemName: icon); Text(title) } }
            }
            """),
            RuleExample(#"Image("chart", label: Text("Sales by month"))"#),
            // A member shown as a Toggle's label or a tab item (Home Assistant, MovieSwiftUI).
            RuleExample("""
            struct AssistSettings: View {
                func toggleLabel(symbol: SFSymbol, text: String) -> some View {
                    HStack { Image(systemSymbol: symbol).frame(width: 24, height: 24); Text(text) }
                }
                func tabbarItem(text: String, image: String) -> some View { VStack { Image(systemName: image); Text(text) } }
                var body: some View {
                    Toggle(isOn: $muted) { toggleLabel(symbol: .speakerSlash, text: "Mute") }
                    MoviesHome().tabItem { tabbarItem(text: "Movies", image: "film") }
                }
            }
            """),
            RuleExample(#"Image(decorative: "wave-background")"#),
            RuleExample(#"Image(systemName: "trash").accessibilityLabel("Delete")"#),
            RuleExample(#"Image(uiImage: avatar).resizable().accessibilityHidden(true)"#),
            RuleExample(#"Label { Text("Connected") } icon: { Image(systemName: "checkmark.circle.fill") }"#),
            RuleExample("""
            HStack {
                Image(systemName: "wifi")
                Text("Network")
            }
            .accessibilityElement(children: .ignore)
            .accessibilityLabel("Connected to Wi-Fi")
            """),
            RuleExample(#"NavigationLink(destination: SettingsView()) { HStack { Image(systemName: "gear"); Text("Settings") } }"#),
            RuleExample(#"HomeView().tabItem { Image(systemName: "house"); Text("Home") }"#),
            RuleExample("""
            Button { save() } label: {
                HStack {
                    if isSaving { ProgressView() } else { Image(systemName: "tray.and.arrow.down") }
                    Text("Save")
                }
            }
            """),
        ],
        triggeringExamples: [
            // The component's image is the caller's: reported where it is used bare.
            RuleExample("""
            struct PlainImage: View {
                let image: UIImage
                var body: some View { Image(uiImage: image).resizable() }
            }
            struct Row: View {
                var body: some View { HStack { ↓PlainImage(image: photo); Text(title) } }
            }
            """),
            // A text beside the image is not the image's label: the image is an element of its own.
            RuleExample(#"HStack { ↓Image(systemName: "sparkles"); Text("Best Value") }"#),
            RuleExample(#"↓Asset.Images.logo.swiftUIImage.resizable().frame(width: 120, height: 40)"#),
            RuleExample(#"↓Image(systemName: "circle.plus")"#),
            RuleExample(#"↓Image(systemSymbol: .starFill).foregroundColor(.yellow)"#),
            RuleExample(#"↓Image(uiImage: photo).resizable().accessibilityHidden(false)"#),
            // A member that is a link's label for some rows and a bare row for others (Yattee's settings).
            RuleExample("""
            struct Editor: View {
                var body: some View {
                    if hasSettings { NavigationLink { Settings() } label: { rowContent } } else { rowContent }
                }
                private var rowContent: some View { HStack { ↓Image(systemName: icon); Text(name) } }
            }
            """),
            // A card also shown outside any control: there its image is an element of its own.
            RuleExample("""
            struct HubCard: View {
                let title: String
                var body: some View { HStack { Text(title); ↓Image("ChevronRight") } }
            }
            struct Hub: View {
                var body: some View {
                    Button { openReader() } label: { HubCard(title: "Reader") }
                    HubCard(title: "Remote")
                }
            }
            """),
            // The masked image itself is still an element.
            RuleExample(#"↓Image("cover").resizable().mask(RoundedRectangle(cornerRadius: 8))"#),
            RuleExample("""
            HStack {
                ↓Image("status-ok")
                Text("Status")
            }
            .accessibilityElement(children: .combine)
            """),
        ]
    )

    let settings: AccessibilitySettings

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        // Members shown as a Button's or Menu's label (`Button(action: attach) { attachIcon }`): the
        // control speaks for their images, and icon-button-missing-label reports it if it does not.
        // Likewise a Toggle's label (Home Assistant's `Toggle(isOn:) { toggleLabel(symbol:text:) }`) and a
        // tab item (MovieSwiftUI's `.tabItem { tabbarItem(text:image:) }`): the toggle or the tab bar reads them.
        let labels = file.viewCalls.compactMap { view -> ClosureExprSyntax? in
            switch view.name {
            case "Button", "Menu": return IconButtonMissingLabelRule.labelClosure(of: view.call)
            case "Toggle": return view.call.additionalTrailingClosures.first { $0.label.text == "label" }?.closure ?? view.call.trailingClosure
            // A link's label (IcySky's `NavigationLink(value:) { makeLabelButton(title:icon:color:) }`) is read as the link.
            case "NavigationLink", "Link": return ComponentCollector.labelClosure(of: view.call)
            // A Label's icon (kiwix' `Label { Text(title) } icon: { iconImageFor(tab: tab) }`): the Label reads its title.
            case "Label": return Self.iconClosure(of: view.call)
            default: return nil
            }
        } + file.viewCalls.flatMap { $0.modifier("tabItem").compactMap(\.trailingClosure) }
        // How often each name is used in those labels (a token once, however many labels hold it).
        var seen = Set<SyntaxIdentifier>()
        var inLabels: [String: Int] = [:]
        for token in labels.flatMap({ $0.tokens(viewMode: .sourceAccurate) }) where seen.insert(token.id).inserted { inLabels[token.text, default: 0] += 1 }
        // A member is a label's only when every use of it is in one (Yattee's `buttonRowContent(for:)`
        // is a NavigationLink's label for some rows and a bare row for others).
        // A use hidden where it stands (Hackers' `placeholderImage.accessibilityHidden(true)`) counts as one.
        var uses: [String: (all: Int, hidden: Int)] = [:]
        let onlyInLabels = { (member: String) -> Bool in
            if uses[member] == nil {
                let tokens = file.uses(of: member)
                uses[member] = (tokens.count, tokens.filter { !seen.contains($0.id) && Self.isHiddenAbove(Syntax($0)) }.count)
            }
            guard let counted = uses[member], counted.all > 0 else { return false }
            return counted.all == (inLabels[member] ?? 0) + counted.hidden
        }
        let message = "VoiceOver reads this Image by its name; add .accessibilityLabel(\"…\"), or use Image(decorative:) or .accessibilityHidden(true) for decoration"
        let assets = file.assetImages.filter { !Self.isSpokenFor(chain: $0, in: file) }.map { image in
            file.finding(Self.self, at: image.root, message: message, severity: severity, span: image.chain)
        }
        // A component whose body is one image it is given is checked where it is used (with the
        // image it is given there), not inside, where the image is only a property.
        let givenImageViews = file.views.givenImageViews
        return assets + file.viewCalls.compactMap { image in
            guard image.name == "Image" ? !Self.isGivenToItsView(image, in: file) : givenImageViews.contains(image.name),
                  !Self.isSpokenFor(image, in: file), !file.appliesSpeakingModifier(image.modifiers),
                  // A Swift Charts mark's symbol (`PointMark(…).symbol { Image(…) }`) is no element:
                  // VoiceOver reads the chart's marks by their values. A mask's content only shapes
                  // the view it masks (`gradient.mask(Image("shaka.fill"))`): it is never an element.
                  !image.isInsideClosure(ofModifier: ["symbol", "mask"]) else { return nil }
            // Walked up once for both: a text run it is part of, a Canvas that draws it (pixels:
            // VoiceOver reads the Canvas's own label, never its images).
            let enclosing = image.enclosingViews
            guard !Self.isPartOfText(image, enclosing: enclosing), !enclosing.contains(where: { $0.view.name == "Canvas" }) else { return nil }
            if let member = Self.enclosingMemberName(image.chain), onlyInLabels(member) { return nil }
            return file.finding(Self.self, at: image.nameToken,
                                message: "VoiceOver reads this Image by its name; add .accessibilityLabel(\"…\"), or use Image(decorative:) or .accessibilityHidden(true) for decoration",
                                severity: severity, span: image.chain)
        }
    }

    /// A Label's icon closure: `icon:` after a title closure, or the trailing closure when the title is an argument.
    static func iconClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let icon = call.additionalTrailingClosures.first(where: { $0.label.text == "icon" }) { return icon.closure }
        if let icon = call.arguments.first(where: { $0.label?.text == "icon" })?.expression.as(ClosureExprSyntax.self) { return icon }
        return call.arguments.contains { $0.label?.text == "title" } ? call.trailingClosure : nil
    }

    /// Whether the image is the body of a view type whose whole body is an image it is given
    /// (`.givenImage`): its uses are checked instead.
    static func isGivenToItsView(_ image: ViewCall, in file: ParsedSource) -> Bool {
        guard ComponentCollector.givenName(image.call.arguments.first?.expression) != nil else { return false }
        let type = ParsedSource.enclosingType(of: Syntax(image.chain)).split(separator: ".").last.map(String.init) ?? ""
        return !type.isEmpty && file.views.givenImageViews.contains(type)
    }

    /// Whether the image is part of a text run: interpolated into a `Text`'s string (`Text("Best
    /// value \(Image(systemName: "sparkles"))")`, Backyard Birds) or given to `Text(_:)` to join with
    /// others; VoiceOver reads the text, symbol names included, as one.
    static func isPartOfText(_ image: ViewCall, enclosing: [(view: ViewCall, argument: String?)]) -> Bool {
        if enclosing.first.map({ $0.view.name == "Text" && $0.argument == nil }) == true { return true }
        var node = Syntax(image.chain)
        while let parent = node.parent, !parent.is(DeclSyntax.self), !parent.is(ClosureExprSyntax.self) {
            if parent.is(ExpressionSegmentSyntax.self) { return true }
            node = parent
        }
        return false
    }

    /// Whether the image has a label, is hidden or decorative, or an enclosing view speaks for it.
    static func isSpokenFor(_ image: ViewCall, in file: ParsedSource) -> Bool {
        if image.call.arguments.contains(where: { $0.label?.text == "decorative" || $0.label?.text == "label" }) { return true }
        return isSpokenFor(chain: image, in: file)
    }

    static func isSpokenFor(chain image: some ModifiedView, in file: ParsedSource) -> Bool {
        if image.isLabelledOrHidden { return true }
        if isInTabItemWithText(image) || isHiddenAbove(Syntax(image.chain)) { return true }
        if isInSpeakingHelper(image.chain, views: file.views) { return true }
        // A view type every use of which labels or hides it (`AvatarView(user).accessibilityHidden(true)`
        // in the screens that show it): its images are never read by name.
        let type = ParsedSource.enclosingType(of: Syntax(image.chain)).split(separator: ".").last.map(String.init) ?? ""
        if !type.isEmpty, file.views.isAlwaysLabelledWhereUsed(type) { return true }
        // A view type shown only in controls' labels, with text of its own (Flipper's `HubCard`, every
        // use of which is a Button's label): the control reads its text; its images are not elements.
        if !type.isEmpty, file.views.speaksWithControl(type) { return true }
        return image.enclosingViews.contains { enclosing in
            // A component whose body is a control, or speaks for, combines with its text or hides
            // what it is given (`PrimaryButton("Save") { Image("disk") }`, declared in another file).
            if !file.views.traits(of: enclosing.view.name).isDisjoint(with: .speaksForImages) { return true }
            switch enclosing.view.name {
            // In a control's label the image is spoken with the label's text; an icon-only control is
            // reported once, by icon-button-missing-label.
            case "NavigationLink", "Button", "Menu", "Link", "ShareLink", "Toggle": return true
            case "Label" where enclosing.argument == "icon": return true
            // `Label(title: title) { Image(…) }`: with the title an argument, the trailing closure is the icon.
            case "Label" where enclosing.argument == nil && enclosing.view.call.arguments.contains(where: { $0.label?.text == "title" }): return true
            default: return enclosing.view.isLabelledOrHidden || enclosing.view.ignoresChildren
            }
        }
    }

    /// Whether a modifier applied around `start`, up to the declaration that holds it, hides it or
    /// ignores its children: `Group { … }.accessibilityHidden(true)`, an `.overlay { Image(…) }` on a
    /// chain that ends `.accessibilityHidden(true)` (BookPlayer's grid badges), a member used as
    /// `placeholderImage.accessibilityHidden(true)`. VoiceOver never reaches what is inside.
    static func isHiddenAbove(_ start: Syntax) -> Bool {
        var node = start
        var applied: [(name: String, call: FunctionCallExprSyntax)] = []
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id == node.id,
               let member = node.as(MemberAccessExprSyntax.self), member.base != nil {
                applied.append((member.declName.baseName.text, call))
            }
            node = parent
        }
        let around = AppliedModifiers(modifiers: applied, chain: start.as(ExprSyntax.self) ?? ExprSyntax(NilLiteralExprSyntax()))
        return around.isHiddenFromAccessibility || around.ignoresChildren
    }

    /// Modifiers gathered on the way up from a node, read as a chain's.
    struct AppliedModifiers: ModifiedView {
        let modifiers: [(name: String, call: FunctionCallExprSyntax)]
        let chain: ExprSyntax
    }

    /// Whether the image is given to a view helper of the repository that puts it in a control or
    /// labels it (`barButton(label: "Close") { Image(systemName: "xmark") }`, with `func barButton(…)
    /// -> some View { Button(action: action, label: content).accessibilityLabel(label) }`).
    static func isInSpeakingHelper(_ chain: ExprSyntax, views: ViewIndex) -> Bool {
        var node = Syntax(chain)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self), call.calledExpression.id != node.id {
                let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
                    ?? call.calledExpression.as(MemberAccessExprSyntax.self).flatMap { $0.base == nil || $0.base?.trimmedDescription == "self" ? $0.declName.baseName.text : nil }
                if let name, name.first?.isLowercase == true, !views.traits(of: name).isDisjoint(with: .speaksForImages) { return true }
            }
            node = parent
        }
        return false
    }

    /// The name of the property or function whose body holds the image.
    static func enclosingMemberName(_ chain: some SyntaxProtocol) -> String? {
        var node = Syntax(chain)
        while let parent = node.parent {
            if let variable = parent.as(VariableDeclSyntax.self) {
                return variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
            }
            if let function = parent.as(FunctionDeclSyntax.self) { return function.name.text }
            node = parent
        }
        return nil
    }

    /// `.tabItem { Image(…); Text("Home") }`: the tab bar reads the item's text.
    static func isInTabItemWithText(_ image: some ModifiedView) -> Bool {
        var node = Syntax(image.chain)
        while let parent = node.parent, !parent.is(DeclSyntax.self) {
            if let call = parent.as(FunctionCallExprSyntax.self),
               call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "tabItem" {
                return call.trailingClosure?.statements.contains { item in
                    item.item.as(FunctionCallExprSyntax.self)?.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "Text"
                } ?? false
            }
            node = parent
        }
        return false
    }
}
