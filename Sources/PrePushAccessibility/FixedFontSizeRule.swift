import PrePushCore
internal import SwiftSyntax

/// A font of fixed size, which does not grow with Dynamic Type.
package struct FixedFontSizeRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "fixed-font-size",
        name: "Font that ignores Dynamic Type",
        rationale: """
        `.system(size:)` and `.custom(_:fixedSize:)` keep their size when a reader asks for larger \
        text. Text styles (`.body`, `.headline`) and `.custom(_:size:)` (which scales relative to \
        body) grow with Dynamic Type. `.dynamicTypeSize(.large)` pins a whole view to one size; a range \
        (`...DynamicTypeSize.accessibility2`) is fine. A font on an `Image`, or on a Label styled `.iconOnly`, sizes an SF Symbol, which is an \
        icon, not text: not reported; nor emoji, a widget's or complication's views, text in a frame fixed \
        in both directions, a size read from the user's own setting (`@AppStorage`, a `Slider` or `Stepper` of the view) or a `@ScaledMetric`, \
        text in a navigation bar or toolbar (bars keep their height; the system's own bar titles do not \
        grow either, and show the Large Content Viewer instead), or a size of at least 60 points, larger \
        than Dynamic Type's largest text style at its largest size.
        """,
        issueType: .dynamicTypeUnsupported,
        defaultSeverity: .warning,
        nonTriggeringExamples: [
            // One glyph drawn to a size: a separator dot, a letter favicon.
            RuleExample(#"Text(verbatim: "·").font(.system(size: 8))"#),
            RuleExample(#"Text(site.name.prefix(1).uppercased()).font(.system(size: 14, weight: .bold))"#),
            RuleExample(#"Image(systemName: "star.fill").font(.system(size: 24))"#),
            // A Label that shows only its icon (Swiftfin's player buttons), alone or in a styled group.
            RuleExample(#"Label("Forward", systemImage: "goforward.10").labelStyle(.iconOnly).font(.system(size: 32))"#),
            RuleExample("""
            Button(action: toggle) {
                Group {
                    if playing { Label("Pause", systemImage: "pause.fill") } else { Label("Play", systemImage: "play.fill") }
                }
                .font(.system(size: 36, weight: .bold))
                .labelStyle(.iconOnly)
            }
            """),
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
            // Emoji are pictures: the font sizes them.
            RuleExample(#"Text("🔥").font(.system(size: 40))"#),
            // A widget's view (made by its configuration): the system fits widgets to their family.
            RuleExample("""
            struct StepsWidget: Widget {
                var body: some WidgetConfiguration {
                    StaticConfiguration(kind: "steps", provider: StepsProvider()) { entry in StepsView(entry: entry) }
                }
            }
            struct StepsView: View {
                let entry: StepsEntry
                var body: some View { Text("\\(entry.steps)").font(.system(size: 34, weight: .bold)) }
            }
            """),
            // A size the reader sets with a slider on screen (SimpleLogin's "show big" view).
            RuleExample("""
            struct BigEmailView: View {
                let email: String
                @State private var percentage = 0.5
                var body: some View {
                    Text(email).font(.system(size: (percentage + 1) * 24))
                    Slider(value: $percentage)
                }
            }
            """),
            // A complication reading its family.
            RuleExample("""
            struct RingComplication: View {
                @Environment(\\.widgetFamily) private var family
                var body: some View { Text("72%").font(.system(size: family == .accessoryCircular ? 12 : 16)) }
            }
            """),
            // A badge count in a circle of fixed size: a larger font would only be cut off.
            RuleExample(#"Text("\(count)").font(.system(size: 11, weight: .bold)).frame(width: 18, height: 18).background(Circle().fill(.red))"#),
            RuleExample("""
            ZStack {
                Circle().fill(.red).frame(width: 20, height: 20)
                Text("\\(unread)").font(.system(size: 12))
            }
            """),
            // Yattee (MiniPlayerView.swift): a count badge on a framed icon.
            RuleExample("""
            ZStack(alignment: .bottom) {
                Image(systemName: "list.bullet").frame(width: 32, height: 32)
                if queueCount > 0 { Text("\\(queueCount)").font(.system(size: 9)).padding(.horizontal, 3).background(.red, in: Capsule()) }
            }
            """),
            // Trio (CurrentGlucoseView.swift): the reading drawn in a ring whose body has a fixed frame.
            RuleExample("""
            struct TrendRing: View { var body: some View { Circle().stroke(lineWidth: 8).frame(width: 130, height: 130) } }
            struct GlucoseView: View {
                var body: some View { ZStack { TrendRing(); Text(reading).font(.system(size: 40, weight: .bold)) } }
            }
            """),
            // The reader's own size setting, or a size that Dynamic Type scales.
            RuleExample("""
            struct ChapterView: View {
                @AppStorage("readerFontSize") private var fontSize = 17.0
                @ScaledMetric private var captionSize: CGFloat = 12
                var body: some View {
                    Text(chapter.text).font(.system(size: fontSize))
                    Text(chapter.source).font(.system(size: captionSize))
                }
            }
            """),
            // A size made from a scaled one (swift-paperless caps its @ScaledMetric), or UIKit's scaler (IcySky).
            RuleExample("""
            struct FieldChip: View {
                @ScaledMetric(relativeTo: .body) private var fontSizeRaw = 15
                private var fontSize: CGFloat { min(fontSizeRaw, 20) }
                var body: some View {
                    Text(title).font(.system(size: fontSize))
                    Text(draft).font(.system(size: UIFontMetrics.default.scaledValue(for: 20)))
                }
            }
            """),
            // Home Assistant's Assist microphone: a font on a Button whose label is only an icon.
            RuleExample(#"Button(action: record, label: { Image(uiImage: micIcon) }).font(.system(size: iconSize.width))"#),
            // isowords (Sources/HomeFeature/Home.swift): a font on a row of icon buttons, one of them a
            // component whose body is a Button showing only a symbol, sizes their symbols.
            RuleExample("""
            private struct CubeIconView: View {
                let action: () -> Void
                var body: some View { Button(action: self.action) { Image(systemName: "cube.fill").font(.system(size: 24)) } }
            }
            struct HomeHeader: View {
                var body: some View {
                    HStack {
                        CubeIconView { open() }
                        Spacer()
                        Button { help() } label: { Image(systemName: "questionmark.circle") }
                        Button { settings() } label: { Image(systemName: "gear") }
                    }
                    .font(.system(size: 24))
                }
            }
            """),
            // Daily Dozen (WhiteInlineTitle.swift): a custom title in the navigation bar, as the system's own.
            RuleExample(#"content.toolbar { ToolbarItem(placement: .principal) { Text(titleKey).font(.system(size: 17, weight: .semibold)) } }"#),
            // Display type bigger than any Dynamic Type size (Pocket Casts' End of Year story).
            RuleExample(#"Text("2024").font(.system(size: 227, weight: .bold))"#),
            // tvOS has no Dynamic Type (Yattee's queue panel).
            RuleExample("""
            #if os(tvOS)
            Text(video.title).font(.system(size: 28))
            #endif
            """),
            // A hidden count badge whose count the text beside it shows at full size (damus, NoteContentView.swift).
            RuleExample("""
            HStack {
                ZStack(alignment: .topTrailing) {
                    Image("images").accessibilityHidden(true)
                    if media.count > 1 {
                        Text(verbatim: "\\(media.count)").font(.system(size: 10, weight: .semibold)).offset(x: 6, y: -6).accessibilityHidden(true)
                    }
                }
                Text(pluralizedString(key: "media_count", count: media.count))
            }
            """),
            // A view only drawn into an image to save or share (dimeApp, SingleTransactionPhotoView.swift): never on screen.
            RuleExample("""
            struct DayPhoto: View {
                var body: some View { Text(amount).font(.system(size: 40, weight: .bold)) }
            }
            struct DayRow: View {
                var body: some View {
                    Button("Save as photo") { if let image = ImageRenderer(content: DayPhoto()).uiImage { save(image) } }
                }
            }
            """),
            // A submenu's label inside a Menu's content (winston, SubredditPosts.swift): the system draws the row.
            RuleExample("""
            Menu {
                Menu { ForEach(ranges) { range in Button(range.title) { sort = .top(range) } } } label: {
                    Label(option.title, systemImage: option.icon).font(.system(size: 17, weight: .bold))
                }
            } label: { Image(systemName: "arrow.up.arrow.down") }
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
            // Not tvOS alone: the iOS build has it too.
            RuleExample("""
            #if os(tvOS) || os(iOS)
            Text(video.title).font(↓.system(size: 28))
            #endif
            """),
            RuleExample(#"Text("Title").font(↓Font.system(size: 12, weight: .bold))"#),
            // Hidden, and shown nowhere else: the only place the count is seen.
            RuleExample(#"ZStack { Image(systemName: "bell"); Text(verbatim: "\(unread)").font(↓.system(size: 10)).accessibilityHidden(true) }"#),
            // Drawn into an image and shown on screen too.
            RuleExample("""
            struct DayPhoto: View {
                var body: some View { Text(amount).font(↓.system(size: 40, weight: .bold)) }
            }
            struct DayRow: View {
                var body: some View {
                    DayPhoto()
                    Button("Save as photo") { if let image = ImageRenderer(content: DayPhoto()).uiImage { save(image) } }
                }
            }
            """),
            // A Menu's own label is drawn by the app, in the font it is given.
            RuleExample(#"Menu { Button("Newest") { sort = .new } } label: { Text("Sort").font(↓.system(size: 17)) }"#),
            RuleExample(#"Text("Title").font(↓.custom("Avenir", fixedSize: 17))"#),
            // A Label shows its title unless its style says otherwise.
            RuleExample(#"Label("Forward", systemImage: "goforward.10").font(↓.system(size: 32))"#),
            // Words beside an emoji are text; a frame fixed in one direction lets the text grow in the other.
            RuleExample(#"Text("Hot 🔥").font(↓.system(size: 20))"#),
            RuleExample(#"Text("Total").font(↓.system(size: 17)).frame(width: 200)"#),
            RuleExample(#"ZStack { Color.blue.frame(height: 200); Text("Welcome").font(↓.system(size: 28)) }"#),
            // A plain stored size is not a setting: it is the same for every reader.
            RuleExample("""
            struct PriceTag: View {
                var size: CGFloat = 17
                var body: some View { Text(price).font(↓.system(size: size)) }
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
            // A Label that shows its icon alone (`.labelStyle(.iconOnly)`) is an image here too.
            if view.name == "Image" || (view.name == "Label" && view.showsIconOnly) { continue }
            func onlyImages() -> Bool {
                // A control's label (`Button(action:label:)`, whose label is no trailing closure), or the content.
                let isControl = ["Button", "Menu", "Link"].contains(view.name)
                guard let content = (isControl ? IconButtonMissingLabelRule.labelClosure(of: view.call) : nil) ?? view.call.trailingClosure else { return false }
                let reader = file.contentReader(iconViews: settings.iconViews, readsForFont: true)
                // The style on the view's own chain applies to every Label inside (`Group { … }.labelStyle(.iconOnly)`).
                reader.iconOnlyLabels = view.showsIconOnly
                return reader.alwaysShowsOnlyImages(content.statements)
            }
            for font in view.modifier("font") {
                guard let argument = font.arguments.first?.expression.as(FunctionCallExprSyntax.self),
                      let member = argument.calledExpression.as(MemberAccessExprSyntax.self) else { continue }
                let labels = Set(argument.arguments.compactMap { $0.label?.text })
                let fixed = (member.declName.baseName.text == "system" && labels.contains("size"))
                    || (member.declName.baseName.text == "custom" && labels.contains("fixedSize"))
                if fixed && !Self.isSingleGlyph(view) && !Self.isEmojiOnly(view) && !onlyImages() && !Self.scalesWithHiddenFrame(view, in: file)
                    && !Self.isOnWidgetSurface(view, in: file) && !Self.isInFixedContainer(view, in: file)
                    && !Self.isSizedBySetting(argument, in: file) && !Self.isInBar(view) && !Self.isLargerThanDynamicType(argument, in: file)
                    // The system draws a menu's rows in its own font, which follows Dynamic Type.
                    && !SmallTouchTargetRule.isMenuItem(view) && !Self.isHiddenDuplicate(view) {
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
