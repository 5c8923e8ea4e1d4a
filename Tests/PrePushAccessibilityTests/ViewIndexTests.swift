import PrePushAccessibility
import Testing

/// The view index across files: a component declared in one file decides findings in another. Each
/// source is modelled on an open-source app's code (named at each), cut down to what the rule reads.
@Suite struct ViewIndexTests {
    /// The index of several files, as a run builds it.
    static func index(_ files: [String]) -> ViewIndex {
        var index = ViewIndex()
        for file in files { index.merge(ViewIndex.scan(file)) }
        return index.resolved()
    }

    static func rules(_ findings: [AccessibilityFinding]) -> [String] { findings.map(\.ruleID) }

    // Aidoku `iOS/New/Views/Common/LargeButton.swift`: a Button whose label is what it is given.
    static let largeButton = """
    import SwiftUI
    struct LargeButton<Content: View>: View {
        var action: () -> Void
        @ViewBuilder var label: Content
        var body: some View {
            Button { action() } label: {
                label.padding(12).frame(maxWidth: .infinity)
            }
            .background(Color.pink.opacity(0.8))
        }
    }
    """

    // Aidoku `AddSourceView.swift`: the screen that uses it, with an icon beside the title.
    static let addSource = """
    import SwiftUI
    struct AddSourceView: View {
        var body: some View {
            List {
                LargeButton { install() } label: {
                    HStack { Image(systemName: "plus.circle"); Text("Add Source") }
                }
            }
        }
    }
    """

    // damus `DamusVideoControlsView.swift`: a style that pads the label 8 points and fills it with a
    // circle, used by a screen of another file (`FullScreenCarouselView.swift`) on a 30-point icon.
    static let playerStyle = """
    import SwiftUI
    struct PlayerCircleButtonStyle: ButtonStyle {
        let padding: CGFloat
        init(padding: CGFloat = 8.0) { self.padding = padding }
        func makeBody(configuration: Self.Configuration) -> some View {
            return configuration.label.padding(padding).background { Circle().fill(Color.black.opacity(0.5)) }
        }
    }
    """
    static let carousel = """
    import SwiftUI
    struct FullScreenCarouselView: View {
        var body: some View {
            Button(action: { dismiss() }, label: { Image(systemName: "xmark").frame(width: 30, height: 30) })
                .buttonStyle(PlayerCircleButtonStyle())
                .accessibilityLabel("Close")
        }
    }
    """

    @Test func aButtonStyleOfAnotherFileThatPadsTheLabelEnlargesTheTarget() {
        let checker = AccessibilityChecker()
        #expect(Self.rules(checker.check(path: "FullScreenCarouselView.swift", text: Self.carousel)).contains("small-touch-target"))
        let views = Self.index([Self.playerStyle, Self.carousel])
        #expect(views.labelPadding["PlayerCircleButtonStyle"] == 8)
        #expect(!Self.rules(checker.check(path: "FullScreenCarouselView.swift", text: Self.carousel, views: views)).contains("small-touch-target"))
    }

    // dimeApp `LogView.swift` and `SingleTransactionPhotoView.swift`: a day's summary drawn by
    // ImageRenderer into a photo to save, and a row it alone makes.
    static let photo = """
    import SwiftUI
    struct SingleDayPhotoView: View {
        var body: some View { VStack { Text(amount).font(.system(size: 40)); SingleTransactionPhotoView() } }
    }
    struct SingleTransactionPhotoView: View {
        var body: some View { Text(title).font(.system(size: 15)) }
    }
    """
    static let log = """
    import SwiftUI
    struct LogView: View {
        var body: some View {
            Button("Save") { if let image = ImageRenderer(content: SingleDayPhotoView()).uiImage { save(image) } }
        }
    }
    """

    @Test func aViewOnlyDrawnIntoAnImageIsNotChecked() {
        let checker = AccessibilityChecker()
        let views = Self.index([Self.photo, Self.log])
        #expect(views.renderedOnly == ["SingleDayPhotoView", "SingleTransactionPhotoView"])
        #expect(Self.rules(checker.check(path: "SingleTransactionPhotoView.swift", text: Self.photo, views: views)).isEmpty)
        // Shown on screen as well: checked.
        let shown = Self.index([Self.photo, Self.log, "struct Day: View { var body: some View { SingleDayPhotoView() } }"])
        #expect(shown.renderedOnly.isEmpty)
        #expect(Self.rules(checker.check(path: "SingleTransactionPhotoView.swift", text: Self.photo, views: shown)) == ["fixed-font-size", "fixed-font-size"])
    }

    @Test func anImageGivenToAControlOfAnotherFileIsSpokenWithIt() {
        let checker = AccessibilityChecker()
        // Alone, the screen's image looks unlabelled: the component is not known.
        #expect(Self.rules(checker.check(path: "AddSourceView.swift", text: Self.addSource)).contains("image-missing-label"))
        let views = Self.index([Self.largeButton, Self.addSource])
        #expect(views.traits(of: "LargeButton").contains(.control))
        #expect(!Self.rules(checker.check(path: "AddSourceView.swift", text: Self.addSource, views: views)).contains("image-missing-label"))
    }

    @Test func aRowThatCombinesItsIconWithItsTitleSpeaksForTheIcon() {
        // Home Assistant `HADesignSystem`-style settings row: icon and title read as one element.
        let row = """
        struct SettingsRow<Icon: View>: View {
            let title: String
            @ViewBuilder let icon: Icon
            var body: some View {
                HStack { icon.frame(width: 28); Text(title) }.accessibilityElement(children: .combine)
            }
        }
        """
        let screen = """
        struct SettingsView: View {
            var body: some View { SettingsRow(title: "Notifications") { Image(systemName: "bell.badge") } }
        }
        """
        let views = Self.index([row, screen])
        #expect(views.traits(of: "SettingsRow") == [.combinesWithText, .showsText])
        #expect(Self.rules(AccessibilityChecker().check(path: "SettingsView.swift", text: screen, views: views)).isEmpty)
        // A row that only groups (no `.combine`) does not speak for the image.
        let grouping = Self.index([row.replacingOccurrences(of: ".accessibilityElement(children: .combine)", with: ""), screen])
        #expect(Self.rules(AccessibilityChecker().check(path: "SettingsView.swift", text: screen, views: grouping)) == ["image-missing-label"])
    }

    @Test func aHelperThatLabelsItsButtonSpeaksForItsImage() {
        // A toolbar helper in the manner of isowords' `Styleguide` bar buttons.
        let helpers = """
        extension View {
            func unrelated() -> some View { self }
        }
        @MainActor func barButton(_ label: String, action: @escaping () -> Void, @ViewBuilder content: () -> some View) -> some View {
            Button(action: action, label: content).accessibilityLabel(label)
        }
        """
        let screen = """
        struct GameOverView: View {
            var body: some View {
                barButton("Close", action: close) { Image(systemName: "xmark") }
                unrelated { Image(systemName: "gear") }
            }
        }
        """
        let findings = AccessibilityChecker().check(path: "GameOverView.swift", text: screen, views: Self.index([helpers, screen]))
        // The helper's image is spoken for; an image given to an unknown function still is not.
        #expect(findings.map(\.location.line) == [4])
    }

    @Test func aViewEveryUseHidesIsNotReportedInside() {
        // MovieSwiftUI-style poster drawn in its own file, hidden at both screens that show it.
        let poster = """
        struct PosterImage: View {
            let path: String
            var body: some View { Image(path).resizable().aspectRatio(contentMode: .fit) }
        }
        """
        let list = "struct MovieRow: View { var body: some View { HStack { PosterImage(path: p).accessibilityHidden(true); Text(title) } } }"
        let detail = #"struct MovieDetail: View { var body: some View { PosterImage(path: p).accessibilityLabel("Poster of \(title)") } }"#
        let checker = AccessibilityChecker()
        #expect(Self.rules(checker.check(path: "PosterImage.swift", text: poster, views: Self.index([poster, list, detail]))).isEmpty)
        // One screen that shows it unlabelled: the image it is given needs a label there, where the
        // caller knows what it shows; the poster's own body is one image of its `path`, so not inside.
        let bare = "struct Grid: View { var body: some View { PosterImage(path: p) } }"
        let views = Self.index([poster, list, detail, bare])
        #expect(Self.rules(checker.check(path: "PosterImage.swift", text: poster, views: views)).isEmpty)
        #expect(Self.rules(checker.check(path: "Grid.swift", text: bare, views: views)) == ["image-missing-label"])
        #expect(Self.rules(checker.check(path: "MovieRow.swift", text: list, views: views)).isEmpty)
    }

    @Test func anIconViewOfAnotherFileMakesAnIconOnlyButton() {
        // Home Assistant's `SettingsButton` draws one icon; a Button showing only such a view is icon-only.
        let icon = "struct SettingsCog: View { var body: some View { Image(uiImage: MaterialDesignIcons.cogIcon.image(ofSize: size)) } }"
        let screen = "struct Toolbar: View { var body: some View { Button(action: openSettings) { SettingsCog() } } }"
        // (The Button's missing identifier is the identifier policy's business, not this test's.)
        #expect(!Self.rules(AccessibilityChecker().check(path: "Toolbar.swift", text: screen)).contains("icon-button-missing-label"))
        #expect(Self.rules(AccessibilityChecker().check(path: "Toolbar.swift", text: screen, views: Self.index([icon, screen])))
            .contains("icon-button-missing-label"))
    }

    @Test func aWidgetsViewsAreKnownAcrossFiles() {
        // Home Assistant `Sources/Extensions/Widgets`: the configuration in one file, its views in others.
        let widget = """
        struct WidgetGauge: Widget {
            var body: some WidgetConfiguration {
                AppIntentConfiguration(kind: "gauge", intent: GaugeIntent.self, provider: GaugeProvider()) { entry in
                    WidgetGaugeView(entry: entry)
                }
                .supportedFamilies([.accessoryCircular])
            }
        }
        """
        let view = "struct WidgetGaugeView: View { let entry: Entry; var body: some View { VStack { GaugeLabel(value: entry.value) } } }"
        let label = #"struct GaugeLabel: View { let value: Double; var body: some View { Text("\(value)").font(.system(size: 10)) } }"#
        let views = Self.index([widget, view, label])
        #expect(views.widgetSurfaces.isSuperset(of: ["WidgetGaugeView", "GaugeLabel"]))
        #expect(AccessibilityChecker().check(path: "GaugeLabel.swift", text: label, views: views).isEmpty)
        // A UIKit cell hosting SwiftUI (Pocket Casts' `ContentUnavailableConfiguration`) is no widget.
        let cell = "enum Empty { static func noNetwork() -> UIContentConfiguration { UIHostingConfiguration { WidgetGaugeView(entry: .empty) } } }"
        #expect(Self.index([cell, view, label]).widgetSurfaces.isEmpty)
        // The same view in an app screen only: a fixed font there is a finding.
        #expect(Self.rules(AccessibilityChecker().check(path: "GaugeLabel.swift", text: label, views: Self.index([view, label])))
            == ["fixed-font-size"])
    }

    @Test func aNameDeclaredTwiceKeepsOnlyWhatBothSay() {
        let button = "struct Row: View { var body: some View { Button(action: open) { Text(title) } } }"
        let plain = "struct Row: View { var body: some View { HStack { Text(title) } } }"
        #expect(Self.index([button, plain]).traits(of: "Row") == [.showsText])
        #expect(Self.index([button]).traits(of: "Row") == [.control, .showsText])
    }

    @Test func badInputGivesAnEmptyIndexNotACrash() {
        #expect(ViewIndex.scan("struct { var body: some View { Button(").components.isEmpty)
        #expect(ViewIndex.scan(bytes: [0xFF, 0xFE, 0x00]).isEmpty)
    }

    // Daily Dozen (`PreferencesTabView.swift`, `AdvancedUtilities/`): a settings screen links to the
    // developer utilities only in a debug build; the utilities show a test-data generator.
    static let preferences = """
    import SwiftUI
    struct PreferencesTabView: View {
        var body: some View {
            List {
                Section { ExportHistorySection() }
                #if DEBUG
                Section {
                    NavigationLink(destination: AdvancedUtilities()) { Text("Advanced Utilities") }
                }
                #endif
            }
        }
    }
    """
    static let utilities = """
    import SwiftUI
    struct AdvancedUtilities: View {
        var body: some View {
            Form { GenerateHistoryTestDataView() }
        }
    }
    #Preview {
        AdvancedUtilities()
    }
    """
    static let generator = """
    import SwiftUI
    struct GenerateHistoryTestDataView: View {
        var body: some View {
            Button { generate(30) } label: {
                Text("30d").frame(width: 55, height: 32)
            }
        }
    }
    """

    @Test func aScreenOnlyADebugBuildLinksToIsNotReportedNorWhatItShows() {
        let views = Self.index([Self.preferences, Self.utilities, Self.generator])
        #expect(views.developerOnly == ["AdvancedUtilities", "GenerateHistoryTestDataView"])
        let checker = AccessibilityChecker()
        #expect(Self.rules(checker.check(path: "GenerateHistoryTestData.swift", text: Self.generator)).contains("small-touch-target"))
        #expect(Self.rules(checker.check(path: "GenerateHistoryTestData.swift", text: Self.generator, views: views)).isEmpty)
        // Asked to check debug code, it is reported again.
        var settings = AccessibilitySettings()
        settings.checkDebugCode = true
        #expect(Self.rules(AccessibilityChecker(settings: settings).check(path: "GenerateHistoryTestData.swift", text: Self.generator, views: views))
                .contains("small-touch-target"))
    }

    @Test func aScreenAlsoMadeByCodeThatShipsIsReported() {
        // The same generator, also shown by a shipped screen (or hosted by UIKit code outside any view).
        let onboarding = """
        import SwiftUI
        struct OnboardingView: View {
            var body: some View { VStack { GenerateHistoryTestDataView() } }
        }
        """
        let hosting = """
        import SwiftUI
        final class ImportController: UIViewController {
            func show() { present(UIHostingController(rootView: AdvancedUtilities()), animated: true) }
        }
        """
        for shipped in [onboarding, hosting] {
            let views = Self.index([Self.preferences, Self.utilities, Self.generator, shipped])
            #expect(!views.developerOnly.contains("GenerateHistoryTestDataView"))
            #expect(Self.rules(AccessibilityChecker().check(path: "GenerateHistoryTestData.swift", text: Self.generator, views: views)).contains("small-touch-target"))
        }
        // Made only in previews and never in debug code: not known to be developer-only.
        #expect(Self.index([Self.utilities, Self.generator]).developerOnly.isEmpty)
    }

    /// Meshtastic's trace-route chart sits under `if false { … }`: no build shows it, so nothing in
    /// it is reported; the same view outside the `if` is.
    @Test func codeUnderIfFalseIsNotReported() {
        let off = """
        struct TraceRouteLog: View {
            var body: some View {
                if false {
                    HStack { Text("Route") }.onTapGesture { showRoute() }
                }
            }
        }
        """
        let checker = AccessibilityChecker()
        #expect(Self.rules(checker.check(path: "TraceRouteLog.swift", text: off)).isEmpty)
        let on = off.replacingOccurrences(of: "if false {", with: "if showsRoute {")
        #expect(Self.rules(checker.check(path: "TraceRouteLog.swift", text: on)) == ["tap-gesture-missing-trait"])
    }

    /// MovieSwiftUI: `SmallMoviePosterImage` is made only by `CustomListRow`, which shows the list's
    /// name and is only ever a NavigationLink's label: the link reads the row's text, and the
    /// poster needs no label. Shown by a row outside any link, it does.
    @Test func anImageOfAViewOnlyARowInALinkShowsIsSpokenWithTheLink() {
        let row = """
        struct CustomListRow: View {
            let list: CustomList
            var body: some View { HStack { SmallMoviePosterImage(loader: list.loader); Text(list.name) } }
        }
        struct SmallMoviePosterImage: View {
            let loader: ImageLoader
            var body: some View { Image(uiImage: loader.image ?? UIImage()).resizable().frame(width: 33, height: 50) }
        }
        """
        let lists = "struct MyLists: View { var body: some View { List(lists) { list in NavigationLink(destination: Detail(list)) { CustomListRow(list: list) } } } }"
        let checker = AccessibilityChecker()
        #expect(Self.rules(checker.check(path: "CustomListRow.swift", text: row, views: Self.index([row, lists]))).isEmpty)
        let bare = "struct Recent: View { var body: some View { CustomListRow(list: recent) } }"
        #expect(Self.rules(checker.check(path: "CustomListRow.swift", text: row, views: Self.index([row, lists, bare]))) == ["image-missing-label"])
    }
}
