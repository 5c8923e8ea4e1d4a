import PrePushAccessibility
import Testing

/// What a file shows of a team's identifier practice, and the scheme its identifiers follow.
@Suite struct IdentifierCensusTests {
    let controls = AccessibilitySettings().controls

    @Test func controlsAndIdentifiersAreCountedNotCommentsOrModifiers() {
        let census = IdentifierCensus(bytes: Array("""
        struct Row: View {
            var body: some View {
                // Button("Old") { }
                Button("Send") { send() }.accessibilityIdentifier("room-send")
                Toggle(isOn: $on) { Text("Mute") }.buttonStyle(.plain)
                Link(destination: url) { Text("Help") }.accessibilityIdentifier(A11y.Room.help)
                PrimaryButton(title: "Go", accessibilityIdentifier: "room-go")
                TextField("Name \\(n)", text: $name).accessibilityIdentifier("room-name_\\(index)")
            }
        }
        """.utf8), controls: controls)
        #expect(census.controls == 4, "Button, Toggle, Link, TextField; not the comment, .buttonStyle or PrimaryButton")
        #expect(census.tagged == 3, "Button, Link, TextField; PrimaryButton is no known control and Toggle has no identifier")
        #expect(census.identifiers == ["room-send", "room-name_{}"])
        #expect(census.identifierNames == ["A11y.Room.help"])
        #expect(!census.isUITest && census.subscriptQueries.isEmpty)
    }

    /// Identifiers on a container, a text and an image, or a second one on a control, tag no
    /// control: `tagged` is never more than `controls` (init once said "53 of 41 controls").
    @Test func identifiersOffControlsTagNoControl() {
        let census = IdentifierCensus(bytes: Array("""
        struct Home: View {
            var body: some View {
                VStack {
                    Text("Welcome").accessibilityIdentifier("home_title")
                    Button("Play") { play() }
                        .buttonStyle(.borderedProminent)
                        .accessibilityIdentifier("home_play")
                    Toggle("Sound", isOn: $sound)
                    Image("hero").accessibilityIdentifier("home_hero")
                    HStack { Button("A") { }; Button("B") { } }.accessibilityIdentifier("home_row")
                    Button("Settings") { }.accessibilityIdentifier("home_settings").accessibilityIdentifier("again")
                }
                .accessibilityIdentifier("home_screen")
            }
        }
        """.utf8), controls: controls)
        #expect(census.controls == 5 && census.tagged == 2, "Play and Settings; \(census)")
        #expect(census.identifiers.count == 7, "every identifier is still read for the convention")
    }

    /// Previews and debug-only code need no identifier: their controls are not counted as untagged
    /// ones; an `#if DEBUG`'s `#else` is release code and is.
    @Test func previewsAndDebugCodeAreNotCounted() {
        let census = IdentifierCensus(bytes: Array("""
        struct Settings: View {
            var body: some View {
                Form {
                    Toggle("Sound", isOn: $sound).accessibilityIdentifier("settings_sound")
                    #if DEBUG
                    Button("Crash") { fatalError() }
                    #if os(iOS)
                    Button("Reset") { }
                    #endif
                    #else
                    Button("Rate") { }
                    #endif
                }
            }
        }
        #Preview {
            Settings().overlay(Button("Reset") { })
        }
        """.utf8), controls: controls)
        #expect(census.controls == 2 && census.tagged == 1, "Sound and Rate; \(census)")
    }

    @Test func aUITestsQueriesAreWhatItsSubscriptsAsk() {
        let census = IdentifierCensus(bytes: Array("""
        import XCTest

        final class RoomUITests: XCTestCase {
            func testSend() {
                let app = XCUIApplication()
                app.buttons["room-send"].tap()
                app.textFields[A11y.Room.message].typeText("hi")
                app.staticTexts["Welcome"].waitForExistence(timeout: 2)
                app.descendants(matching: .any).matching(identifier: "room-list").firstMatch.swipeUp()
            }
        }
        """.utf8), controls: controls)
        #expect(census.isUITest)
        #expect(census.subscriptQueries == ["room-send", "message", "Welcome"])
        #expect(census.explicitIdentifierQueries == 1)
        #expect(census.controls == 0)
    }

    /// A UI test imports XCTest and drives an app; fastlane's SnapshotHelper does both and queries
    /// nothing (its `Locale(identifier:)` is no element query).
    @Test func aUITestImportsXCTestAndIsNotTheSnapshotHelper() {
        let helper = IdentifierCensus(bytes: Array("""
        import Foundation
        import XCTest

        func setupSnapshot(_ app: XCUIApplication, waitForAnimations: Bool = true) {
            Snapshot.setupSnapshot(app, waitForAnimations: waitForAnimations)
        }
        func setLocale() { locale = Locale(identifier: deviceLanguage).identifier }
        """.utf8), controls: controls)
        #expect(!helper.isUITest && helper.explicitIdentifierQueries == 0)
        let caller = IdentifierCensus(bytes: Array("""
        import XCTest
        final class ScreenshotTests: XCTestCase {
            func testScreens() { let app = XCUIApplication(); setupSnapshot(app); app.launch() }
            func testFrench() { let formatter = DateFormatter(); formatter.locale = Locale(identifier: "fr_FR") }
        }
        """.utf8), controls: controls)
        #expect(caller.isUITest && caller.explicitIdentifierQueries == 0)
        let query = IdentifierCensus(bytes: Array("""
        import XCTest
        let app = XCUIApplication()
        let pay = app.descendants(matching: .any).element(matching: .button,
                                                          identifier: "checkout_button_pay")
        """.utf8), controls: controls)
        #expect(query.explicitIdentifierQueries == 1)
        let noImport = IdentifierCensus(bytes: Array("let app = XCUIApplication(); app.buttons[\"room-send\"].tap()".utf8), controls: controls)
        #expect(!noImport.isUITest)
    }

    @Test func subscriptsOutsideAUITestAreNoQueries() {
        let census = IdentifierCensus(bytes: Array(#"let first = model.buttons["x"]; let match = list.matching(identifier: "y")"#.utf8), controls: controls)
        #expect(census.subscriptQueries.isEmpty && census.explicitIdentifierQueries == 0)
    }
}

@Suite struct IdentifierSchemeTests {
    @Test func aTeamsMixOfSeparatorsIsOneScheme() throws {
        let scheme = try #require(IdentifierScheme.infer(from: ["room-send", "room-join_call", "room-message_field", "room-mute", "settings-dark_mode"]))
        #expect(scheme.wordCase == .lower && Set(scheme.separators) == ["-", "_"])
        #expect(scheme.fits("call-hang_up") && scheme.fits("room-row_{}"))
        #expect(!scheme.fits("callSpeakerButton") && !scheme.fits("call.speaker"))
        #expect(scheme.description == "lower-case words joined by - or _")
    }

    @Test func pascalCaseRunTogether() throws {
        let scheme = try #require(IdentifierScheme.infer(from: ["SendButton", "AttachButton", "ComposerField", "MuteToggle", "URLField"]))
        #expect(scheme.wordCase == .pascal && scheme.separators.isEmpty && scheme.fitting == 5)
        #expect(scheme.fits("LeaveButton") && !scheme.fits("leave_button") && !scheme.fits("leaveButton"))
    }

    /// All-lower-case words fit camelCase too: the stricter scheme is kept when it covers 70%, so a
    /// camelCase newcomer is the outlier.
    @Test func theStricterCaseWinsWhenItCovers() throws {
        let scheme = try #require(IdentifierScheme.infer(from: ["room-send", "room-call", "room-mute", "room-leave", "roomInfoButton"]))
        #expect(scheme.wordCase == .lower && scheme.fitting == 4)
        let camel = try #require(IdentifierScheme.infer(from: ["roomSend", "roomCall", "settings", "roomMute", "profileEdit"]))
        #expect(camel.wordCase == .camel && camel.fitting == 5)
    }

    @Test func noSchemeWhereNoneCovers() {
        #expect(IdentifierScheme.infer(from: ["room-send", "SendButton", "room_call", "CallButton", "mute.toggle", "muteToggle"]) == nil)
        #expect(IdentifierScheme.infer(from: []) == nil)
    }

    @Test func aStraySeparatorIsNotPartOfTheScheme() throws {
        let identifiers = ["a_b", "c_d", "e_f", "g_h", "i_j", "k_l", "m_n", "o_p", "q_r", "s.t"]
        let scheme = try #require(IdentifierScheme.infer(from: identifiers))
        #expect(scheme.separators == ["_"] && !scheme.fits("s.t") && scheme.fitting == 9)
    }
}

@Suite struct SiblingControlsTests {
    @Test func aControlAmongTaggedSiblingsKnowsIt() {
        let code = """
        struct RoomScreen: View {
            var body: some View {
                Button("Send") { }.accessibilityIdentifier("room_button_send")
                Button("Call") { }.accessibilityIdentifier("room_button_call")
                Button("Leave") { }
            }
        }
        struct SettingsScreen: View {
            var body: some View {
                Toggle("A", isOn: $a)
                Toggle("B", isOn: $b).accessibilityIdentifier("settings_toggle_b")
            }
        }
        """
        let findings = AccessibilityChecker().check(path: "V.swift", text: code).filter { $0.ruleID == "missing-identifier" }
        #expect(findings.map(\.location.line) == [5, 10])
        #expect(findings.first?.siblings == SiblingControls(tagged: 2, untagged: 0) && findings.first?.siblings?.isTaggedScreen == true)
        #expect(findings.last?.siblings == SiblingControls(tagged: 1, untagged: 0) && findings.last?.siblings?.isTaggedScreen == false)
    }
}
