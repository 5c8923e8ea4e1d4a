import PrePushCore
internal import SwiftSyntax

/// A Button or Menu whose label is only an image, without `.accessibilityLabel`.
package struct IconButtonMissingLabelRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "icon-button-missing-label",
        name: "Icon-only button without a label",
        rationale: """
        VoiceOver reads an icon-only button by its image name ("plus", "square and arrow up") or not \
        at all. `.accessibilityLabel` says what the button does.
        """,
        issueType: .missingLabel,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            RuleExample(#"Button { showInfo() } label: { CompoundIcon(\.infoSolid) }.accessibilityLabel("Room details")"#),
            RuleExample(#"Link("Help", destination: helpURL)"#),
            RuleExample(#"Link(destination: helpURL) { Label("Help", systemImage: "questionmark.circle") }"#),
            // A custom control that VoiceOver reads as the Toggle it represents.
            RuleExample("""
            Button { muted.toggle() } label: { Image(systemName: muted ? "mic.slash" : "mic") }
                .accessibilityRepresentation { Toggle("Mute", isOn: $muted) }
            """),
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.accessibilityLabel("Add task")"#),
            RuleExample(#"Button { add() } label: { Label("Add task", systemImage: "plus") }"#),
            RuleExample(#"Button("Add task") { add() }"#),
            RuleExample(#"Button(action: add) { Image(systemName: "plus").accessibilityLabel("Add task") }"#),
            RuleExample(#"Button(action: add) { HStack { Image(systemName: "plus"); Text("Add") } }"#),
            RuleExample(#"Button(action: open) { HStack { Image(systemName: "person"); ProfileSummary(user: user) } }"#),
            RuleExample(#"Button(action: add) { Image(systemName: "plus") }.accessibilityHidden(true)"#),
            // The label moved from the image to the button that shows it.
            RuleExample("""
            struct Sheet: View {
                private var closeIcon: some View {
                    ZStack { Circle().fill(.quaternary); Image(systemName: "xmark") }
                }
                var body: some View {
                    Button(action: dismiss) { closeIcon }.accessibilityLabel("Close")
                }
            }
            """),
            RuleExample("""
            Button { showComposer = true } label: { Image(systemName: "square.and.pencil") }
            #if targetEnvironment(macCatalyst)
            .keyboardShortcut("n")
            #endif
            .accessibilityLabel("New post")
            """),
        ],
        triggeringExamples: [
            // The team's own icon view (named for what it is), an icon-only Link, a method's image.
            RuleExample(#"↓Button { showInfo() } label: { CompoundIcon(\.infoSolid) }"#),
            RuleExample(#"↓Link(destination: helpURL) { Image(systemName: "questionmark.circle") }"#),
            // A library's static image, known as one by `.resizable()` (ios-pass' `IconProvider.cross`).
            RuleExample(#"↓Button(action: { query = "" }, label: { IconProvider.cross.resizable().frame(width: 24, height: 24) })"#),
            // A view of the same file whose body is only an image, whatever its name.
            RuleExample("""
            struct Badge: View {
                var body: some View { Image(systemName: "star.fill").foregroundStyle(.yellow) }
            }
            struct Row: View {
                var body: some View { ↓Button { favourite() } label: { Badge() } }
            }
            """),
            RuleExample(#"↓Button(action: { run(action) }) { action.image(for: .compact) }"#),
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
            ↓Button { startCall() } label: {
                let symbol = hasOngoingCall ? "phone.fill.arrow.up.right" : "phone"
                Image(systemName: symbol)
            }
            """),
            RuleExample("""
            struct TabBar: View {
                @ViewBuilder func tabIcon(for tab: Tab) -> some View {
                    switch tab {
                    case .chats: Image(systemName: "bubble.left")
                    case .spaces: Image(systemName: "square.grid.2x2")
                    }
                }
                var body: some View {
                    ForEach(Tab.allCases) { tab in ↓Button { selection = tab } label: { tabIcon(for: tab) } }
                }
            }
            """),
            // Image and text in one branch, the image alone in the other.
            RuleExample("""
            ↓Button(action: toggleFavourite) {
                if isCompact {
                    Image(systemName: "star")
                } else {
                    Label("Favourite", systemImage: "star")
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

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description) else { return [] }
        return file.viewCalls.compactMap { view in
            guard view.name == "Button" || view.name == "Menu" || view.name == "Link", !view.isLabelledOrHidden,
                  let label = Self.labelClosure(of: view.call),
                  file.contentReader(iconViews: settings.iconViews).mayShowOnlyImages(label.statements) else { return nil }
            return file.finding(Self.self, at: view.nameToken,
                                message: "\(view.name) shows only an image; add .accessibilityLabel(\"…\") saying what it does",
                                severity: severity, span: view.chain, control: view)
        }
    }

    /// The closure that builds the label: `label:`, or the trailing closure of `Button(action:)`.
    static func labelClosure(of call: FunctionCallExprSyntax) -> ClosureExprSyntax? {
        if let labelled = call.additionalTrailingClosures.first(where: { $0.label.text == "label" }) { return labelled.closure }
        if let argument = call.arguments.first(where: { $0.label?.text == "label" }) { return argument.expression.as(ClosureExprSyntax.self) }
        if call.arguments.contains(where: { $0.label?.text == "action" || $0.label?.text == "destination" }) { return call.trailingClosure }
        return nil
    }
}
