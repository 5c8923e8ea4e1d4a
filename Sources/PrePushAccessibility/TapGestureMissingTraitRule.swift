import PrePushCore
internal import SwiftSyntax

/// A view made tappable with a single-tap gesture that does not say it is a button or a link.
package struct TapGestureMissingTraitRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "tap-gesture-missing-trait",
        name: "Tap gesture without a button or link trait",
        rationale: """
        VoiceOver says "button" or "link" after an element that can be activated. `Button` and `Link` carry \
        that trait; a view made tappable with `.onTapGesture` or a `TapGesture` does not, so VoiceOver users \
        never learn it does anything. Add `.accessibilityAddTraits(.isButton)` (or `.isLink` for a URL), or \
        better, use a `Button`. Double taps are left alone, and so are text-entry views (VoiceOver announces \
        them as text fields), controls that carry their own trait, and views whose body is a \
        `Button` or adds the trait. A tap on a property, a helper's result or a modifier's `content` is \
        checked like one on a view. The verdicts are SwiftLint's \
        `accessibility_trait_for_button` on its own examples.
        """,
        issueType: .missingTrait,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Text("Learn more").onTapGesture { open() }.accessibilityAddTraits(.isLink)"#),
            RuleExample(#"Text("Retry").accessibility(addTraits: [.isButton, .isHeader]).onTapGesture { retry() }"#),
            RuleExample(#"Text("Zoom").onTapGesture(count: 2) { zoom() }"#),
            RuleExample(#"Button("Retry") { retry() }"#),
            RuleExample(#"TextField("Search", text: $query).onTapGesture { isSearching = true }"#),
            // The known workaround that stops a long press on a cell stealing a scroll's touches: no action.
            RuleExample(#"MessageBubble(message).onTapGesture { }.onLongPressGesture { showMenu() }"#),
            // A composer that focuses its text input on a tap is text entry, announced as such.
            RuleExample(#"ComposerBox(text: $draft).focused($isComposing).onTapGesture { isComposing = true }"#),
            // A row whose own buttons VoiceOver reaches; an invisible hit area; a scrim that dismisses.
            RuleExample("""
            HStack {
                Text(item.title)
                Button("Delete", systemImage: "trash") { delete(item) }
            }
            .contentShape(Rectangle())
            .onTapGesture { open(item) }
            """),
            RuleExample(#"Color.clear.contentShape(Rectangle()).onTapGesture { select(day) }"#),
            // A PrimitiveButtonStyle's body runs the Button's action: the Button keeps its trait.
            RuleExample("""
            struct PillStyle: PrimitiveButtonStyle {
                func makeBody(configuration: Configuration) -> some View {
                    configuration.label.padding().onTapGesture { configuration.trigger() }
                }
            }
            """),
            // A Spacer is never an element VoiceOver reaches (Yattee's mini player: the title beside it has the same tap).
            RuleExample(#"Spacer().contentShape(Rectangle()).onTapGesture { expand() }"#),
            RuleExample(#"Color.black.opacity(0.4).ignoresSafeArea().onTapGesture { close() }"#),
            // A backdrop that draws nothing but its background (nos, SideMenu.swift): no element VoiceOver reaches.
            RuleExample(#"GeometryReader { _ in EmptyView() }.background(Color.black.opacity(0.5)).onTapGesture { toggleMenu() }"#),
            // Taps that show or hide chrome, expand text, dismiss, or only play a haptic.
            RuleExample(#"VideoPlayer(player: player).onTapGesture { withAnimation { showControls.toggle() } }"#),
            RuleExample(#"Text(post.body).lineLimit(isExpanded ? nil : 3).onTapGesture { isExpanded.toggle() }"#),
            RuleExample(#"ZStack { content }.onTapGesture { dismiss() }"#),
            RuleExample(#"Menu { actions } label: { Image(systemName: "ellipsis") }.onTapGesture { Haptics.light() }"#),
            // A child that VoiceOver reaches as the button.
            RuleExample(#"VStack { Text(title).accessibilityAddTraits(.isButton); Text(subtitle) }.accessibilityElement(children: .combine).onTapGesture { open() }"#),
            // Inside a style's makeBody the Toggle or Button it draws carries the trait.
            RuleExample("""
            struct CheckboxStyle: ToggleStyle {
                func makeBody(configuration: Configuration) -> some View {
                    HStack { configuration.label; Image(systemName: "checkmark") }
                        .onTapGesture { configuration.isOn.toggle() }
                }
            }
            """),
            RuleExample("""
            struct TagChip: View {
                var body: some View { Text(tag).padding().accessibilityAddTraits(.isButton) }
            }
            struct Tags: View {
                var body: some View { TagChip().onTapGesture { select() } }
            }
            """),
        ],
        triggeringExamples: [
            RuleExample(#"↓Text("Learn more").onTapGesture { open() }"#),
            RuleExample(#"↓Text("Retry").accessibilityAddTraits(.isHeader).onTapGesture(count: 1) { retry() }"#),
            RuleExample("""
            ↓HStack {
                Image(systemName: "info.circle")
                Text("About")
            }
            .gesture(TapGesture().onEnded { showAbout() })
            """),
            RuleExample(#"↓cardContent.onTapGesture { open(card) }"#),
            // A reader that draws content of its own is that content's element.
            RuleExample(#"↓GeometryReader { proxy in Text(title).frame(width: proxy.size.width) }.onTapGesture { open() }"#),
            RuleExample(#"↓row(for: item).contentShape(Rectangle()).onTapGesture { select(item) }"#),
            // A checkbox row and a colour swatch are controls: their state is what the tap changes.
            RuleExample(#"↓HStack { Image(systemName: done ? "checkmark.circle" : "circle"); Text(title) }.onTapGesture { done.toggle() }"#),
            RuleExample(#"↓Circle().fill(color).opacity(0.8).onTapGesture { selected = color }"#),
        ]
    )

    let settings: AccessibilitySettings

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    /// Views that already carry the button or link trait, or are announced as what they are.
    static let announcedControls: Set<String> = ["Button", "Link", "NavigationLink", "Toggle", "Menu", "ShareLink", "Picker"]

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        let message = " reacts to a tap but VoiceOver does not say so; add .accessibilityAddTraits(.isButton) (or .isLink), or use a Button"
        var findings: [AccessibilityFinding] = file.viewCalls.compactMap { view in
            guard Self.hasSingleTap(view.modifiers), !Self.hasButtonOrLinkTrait(view.modifiers), !view.isHiddenFromAccessibility,
                  !Self.isTextEntry(view.modifiers),
                  !settings.textEntryViews.contains(view.name), !Self.announcedControls.contains(view.name), view.name != "Spacer",
                  !file.isButtonLike(view.name),
                  !TapPurpose.isIncidental(receiver: view.call, chain: view.chain, modifiers: view.modifiers, file: file),
                  !view.enclosingViews.contains(where: { $0.view.isHiddenFromAccessibility || $0.view.ignoresChildren }) else { return nil }
            return file.finding(Self.self, at: view.nameToken, message: view.name + message, severity: severity, span: view.chain)
        }
        // `cardContent.onTapGesture { … }`, `row(item).onTapGesture`, `content.onTapGesture` in a modifier.
        for chain in file.tapChains where Self.hasSingleTap(chain.modifiers) && !Self.hasButtonOrLinkTrait(chain.modifiers)
            && !Self.isTextEntry(chain.modifiers) {
            if chain.modifiers.contains(where: { $0.name == "accessibilityHidden" })
                || TapPurpose.isIncidental(receiver: chain.root, chain: chain.chain, modifiers: chain.modifiers, file: file) { continue }
            let name = chain.root.trimmedDescription.count > 40 ? "this view" : chain.root.trimmedDescription
            findings.append(file.finding(Self.self, at: chain.root, message: name + message, severity: severity, span: chain.chain))
        }
        return findings
    }

    /// `.onTapGesture` with no count or a count of 1, or a `TapGesture()`/`TapGesture(count: 1)` given to
    /// `.gesture`, `.simultaneousGesture` or `.highPriorityGesture`.
    static func hasSingleTap(_ modifiers: [(name: String, call: FunctionCallExprSyntax)]) -> Bool {
        modifiers.contains { modifier in
            switch modifier.name {
            case "onTapGesture":
                return isCountOne(modifier.call.arguments) && !hasEmptyAction(modifier.call) && !triggersButtonStyle(modifier.call)
            case "gesture", "simultaneousGesture", "highPriorityGesture":
                guard var gesture = modifier.call.arguments.first?.expression else { return false }
                // `TapGesture().onEnded { … }`: down the chain to the gesture it starts from.
                while let call = gesture.as(FunctionCallExprSyntax.self), let member = call.calledExpression.as(MemberAccessExprSyntax.self),
                      let base = member.base {
                    gesture = base
                }
                guard let tap = gesture.as(FunctionCallExprSyntax.self),
                      tap.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "TapGesture" else { return false }
                return isCountOne(tap.arguments)
            default:
                return false
            }
        }
    }

    /// `.onTapGesture { configuration.trigger() }`: a `PrimitiveButtonStyle` runs its Button's action
    /// on the tap (Swiftfin's `SupplementTitleButtonStyle`); the styled Button keeps its trait.
    static func triggersButtonStyle(_ call: FunctionCallExprSyntax) -> Bool {
        tapAction(of: call)?.statements.contains { item in
            guard let trigger = item.item.as(FunctionCallExprSyntax.self)?.calledExpression.as(MemberAccessExprSyntax.self) else { return false }
            return trigger.declName.baseName.text == "trigger" && trigger.base?.trimmedDescription == "configuration"
        } == true
    }

    /// `.onTapGesture { }`: no action, only a tap swallowed (so a long press does not steal a scroll's touches).
    static func hasEmptyAction(_ call: FunctionCallExprSyntax) -> Bool {
        tapAction(of: call)?.statements.isEmpty == true
    }

    /// An `.onTapGesture`'s action: its trailing closure or its `perform:` argument.
    static func tapAction(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        call.trailingClosure ?? call.arguments.first(where: { $0.label?.text == "perform" })?.expression.as(ClosureExprSyntax.self)
    }

    /// A view with `.focused(…)`: a tap on it focuses a text input, and it is announced as one.
    static func isTextEntry(_ modifiers: [(name: String, call: FunctionCallExprSyntax)]) -> Bool {
        modifiers.contains { $0.name == "focused" }
    }

    static func isCountOne(_ arguments: LabeledExprListSyntax) -> Bool {
        guard let count = arguments.first(where: { $0.label?.text == "count" }) else { return true }
        return count.expression.as(IntegerLiteralExprSyntax.self)?.literal.text == "1"
    }

    /// `.accessibilityAddTraits(…)` or `.accessibility(addTraits: …)` naming `.isButton` or `.isLink`.
    static func hasButtonOrLinkTrait(_ modifiers: [(name: String, call: FunctionCallExprSyntax)]) -> Bool {
        modifiers.contains { modifier in
            let traits: ExprSyntax?
            switch modifier.name {
            case "accessibilityAddTraits": traits = modifier.call.arguments.first?.expression
            case "accessibility": traits = modifier.call.arguments.first(where: { $0.label?.text == "addTraits" })?.expression
            default: traits = nil
            }
            guard let traits else { return false }
            return traits.tokens(viewMode: .sourceAccurate).contains { $0.text == "isButton" || $0.text == "isLink" }
        }
    }
}
