import PrePushAccessibility
import Testing

/// Identifiers set outside SwiftUI's `.accessibilityIdentifier(…)`: what `ui-test-identifier` takes for
/// set across a repository (issue 52's false findings on Pocket Casts and CodeEdit, whose UI tests
/// query identifiers that UIKit, AppKit, xibs and scenes set).
@Suite struct IdentifierSettersTests {
    /// Pocket Casts (podcasts/BasePlayPauseButton.swift, DescriptiveActionView.swift) and CodeEdit
    /// (WorkspaceDocument.swift, ProjectNavigatorViewController.swift, SettingsWindow.swift).
    @Test func theCensusReadsUIKitAppKitAndSceneIdentifiers() {
        let census = IdentifierCensus(bytes: Array(#"""
        class BasePlayPauseButton: UIButton {
            override init(frame: CGRect) {
                super.init(frame: frame)
                accessibilityIdentifier = "play pause button"
            }
        }
        func addButton(_ actionButton: UIButton, index: Int) {
            actionButton.accessibilityIdentifier = "action_\(index)"
            if actionButton.accessibilityIdentifier == "ignored" { return }
        }
        func makeWindow(_ window: NSWindow) {
            window.setAccessibilityIdentifier("workspace")
            self.outlineView.setAccessibilityIdentifier(A11y.projectNavigator)
            let column = NSTableColumn(identifier: NSUserInterfaceItemIdentifier(rawValue: "column"))
        }
        struct SettingsWindow: Scene {
            var body: some Scene { Window("Settings", id: SceneID.settings.rawValue) { SettingsView() } }
        }
        struct Row: View {
            var body: some View { PrimaryButton(title: "Save", accessibilityIdentifier: "save_button") }
        }
        """#.utf8), controls: ["Button"])
        #expect(census.otherIdentifiers == ["play pause button", "action_{}", "workspace", "column", "save_button"])
        #expect(census.otherIdentifierNames == ["A11y.projectNavigator", "scene SceneID.settings.rawValue"])
        // Not SwiftUI's modifier: the identifier policy's counts are not moved by them.
        #expect(census.identifiers.isEmpty && census.tagged == 0)
    }

    /// emitron (ContentListView.swift:154, a seventh-round app): SwiftUI's older
    /// `.accessibility(identifier:)` tags its control and sets the identifier as the modifier does;
    /// `.accessibility(label:)` sets none, and a test's `matching(identifier:)` is a query.
    @Test func theOlderAccessibilityModifierSetsAnIdentifier() {
        let census = IdentifierCensus(bytes: Array(#"""
        struct ContentListView: View {
            var body: some View {
                List { Button("Filter") { filter() }.accessibility(identifier: "contentListView") }
                Toggle("Swift", isOn: $on).accessibility(label: Text("Toggle Swift"))
                Button("Save") { save() }.accessibility( identifier: A11y.save)
            }
        }
        """#.utf8), controls: ["Button", "Toggle"])
        #expect(census.identifiers == ["contentListView"] && census.identifierNames == ["A11y.save"], "\(census)")
        #expect(census.controls == 3 && census.tagged == 2, "\(census)")
    }

    /// CodeEdit's `SceneID` (CodeEdit/SceneID.swift): a `String` enum's cases are constants, and a
    /// scene's id named by one of them stands for all of them.
    @Test func aStringEnumsCasesAreConstantsAndNameTheScenes() {
        let constants = ConstantIndex.scan(#"""
        enum SceneID: String, CaseIterable {
            case welcome
            case about
            case extensions, settings = "settings-window"
            var title: String {
                switch self {
                case .welcome: "Welcome"
                default: "Other"
                }
            }
        }
        enum Direction: Int { case up, down }
        """#)
        #expect(constants.strings == [
            "SceneID.welcome.rawValue": "welcome", "SceneID.about.rawValue": "about",
            "SceneID.extensions.rawValue": "extensions", "SceneID.settings.rawValue": "settings-window",
        ])
        let lookup = ConstantLookup(constants)
        #expect(UITestIdentifierRule.otherIdentifiers(named: "scene SceneID.settings.rawValue", constants: [lookup])
            == ["about", "extensions", "settings-window", "welcome"])
        #expect(UITestIdentifierRule.otherIdentifiers(named: "SceneID.about.rawValue", constants: [lookup]) == ["about"])
    }

    /// Pocket Casts' player (podcasts/PlayerContainerViewController.xib), a runtime attribute, and a
    /// macOS view's item identifier; a segue's identifier is nothing on screen.
    @Test func interfaceBuilderDocumentsSetIdentifiers() {
        let xib = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="32700.99.1234" targetRuntime="iOS.CocoaTouch">
            <button opaque="NO" contentMode="scaleToFill" id="n9H-5y-Rbm" userLabel="Close Button" customClass="ThemeableUIButton">
                <rect key="frame" x="14" y="16" width="44" height="44"/>
                <accessibility key="accessibilityConfiguration" identifier="Close player" label="Close player"/>
            </button>
            <view contentMode="scaleToFill" id="abc-12-xyz">
                <userDefinedRuntimeAttributes>
                    <userDefinedRuntimeAttribute type="string" keyPath="accessibilityIdentifier" value="episode_&amp;_notes"/>
                </userDefinedRuntimeAttributes>
            </view>
            <segue destination="x" kind="show" identifier="showDetail" id="s1"/>
            <tableViewCell reuseIdentifier="EpisodeCell" id="c1"/>
        </document>
        """#
        #expect(InterfaceBuilderIdentifiers.identifiers(in: Array(xib.utf8)) == ["Close player", "episode_&_notes"])
        let mac = #"""
        <document type="com.apple.InterfaceBuilder3.Cocoa.XIB" version="3.0" targetRuntime="MacOSX.Cocoa">
            <customView identifier="ProjectNavigator" id="c22-O7-iKe"/>
            <segue identifier="open" id="s2"/>
        </document>
        """#
        #expect(InterfaceBuilderIdentifiers.identifiers(in: Array(mac.utf8)) == ["ProjectNavigator"])
        #expect(InterfaceBuilderIdentifiers.isDocument("podcasts/Player.xib") && !InterfaceBuilderIdentifiers.isDocument("A.swift"))
    }

    /// openHAB (openHAB/OpenHABRootViewController.swift, OpenHABSitemapViewController.swift): the
    /// identifiers its UI tests query are set in `#if DEBUG` code, which the Debug build the tests run
    /// has; the region's controls and modifiers still say nothing of the tagging practice.
    @Test func identifiersSetInDebugOnlyCodeAreKeptApartFromThePractice() {
        let census = IdentifierCensus(bytes: Array("""
        #if DEBUG
        // setup accessibilityIdentifiers for UITest
        navigationItem.rightBarButtonItem?.accessibilityIdentifier = "HamburgerButton"
        widgetTableView.accessibilityIdentifier = A11y.widgetTable
        Button("Reset") { reset() }.accessibilityIdentifier("debug_reset")
        #endif
        #Preview { Button("Preview") {}.accessibilityIdentifier("preview_only") }
        """.utf8), controls: ["Button"])
        #expect(census.otherIdentifiers == ["debug_reset", "HamburgerButton"])
        #expect(census.otherIdentifierNames == ["A11y.widgetTable"])
        #expect(census.controls == 0 && census.tagged == 0 && census.identifiers.isEmpty)
    }
}
