import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The check as a team without identifiers meets it: the identifier rules follow the repository's
/// policy; a baseline never hides a new finding; the small things a new user trips on.
/// Own process: a team meets the check on a real `git push` through the installed hook; whether the
/// remote moved is git's answer to the hook's exit status.
@Suite struct AccessibilityPolicyTests {
    /// A screen written the way an app without UI tests writes it: icon buttons labelled, no identifiers.
    func screen(_ name: String, buttons: Int = 1) -> String {
        let rows = (0..<buttons).map { index in
            "            Button(\"Item \\(index)\") { open(\(index)) }\n"
        }.joined()
        return "import SwiftUI\n\nstruct \(name): View {\n    var body: some View {\n        VStack {\n\(rows)        }\n    }\n}\n"
    }

    func findings(_ result: CommandResult) -> [String] {
        result.combined.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }.map(String.init)
    }

    @Test func aRepositoryWithoutUITestsOrIdentifiersGetsNoIdentifierFindingAndIsToldWhy() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(screen("ProfileView", buttons: 2), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(findings(push).isEmpty, "\(push)")
        #expect(push.combined.contains("prepush: note: accessibility: 2 missing-identifier findings not reported: the repository's views set no .accessibilityIdentifier and it has no UI tests, so identifiers are not its practice"), "\(push)")
        #expect(try repo.remoteHead() != nil)
    }

    /// A team whose UI tests query the controls it tags, and which tags them all: a new untagged
    /// control anywhere is refused.
    @Test func aRepositoryThatTagsItsControlsGetsThem() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(screen("ProfileView", buttons: 2), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(findings(push).count == 2 && findings(push).allSatisfy { $0.hasSuffix("[missing-identifier]") }, "\(push)")
        #expect(!push.combined.contains("not reported"), "\(push)")
    }

    /// A repository whose UI tests query a third of its controls by identifier (the room screen,
    /// tagged whole), the rest untagged.
    func partlyTagged() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI

        struct RoomScreen: View {
            var body: some View {
                VStack {
                    Button("Send") { send() }.accessibilityIdentifier("room_button_send")
                    Button("Call") { call() }.accessibilityIdentifier("room_button_call")
                    TextField("Message", text: $draft).accessibilityIdentifier("room_field_message")
                    Toggle("Mute", isOn: $muted).accessibilityIdentifier("room_toggle_mute")
                }
            }
        }

        """, to: "App/Room/RoomScreen.swift")
        let toggles = (1...8).map { "                Toggle(\"Option \($0)\", isOn: $option\($0))\n" }.joined()
        try repo.write("import SwiftUI\n\nstruct SettingsScreen: View {\n    var body: some View {\n        Form {\n\(toggles)        }\n    }\n}\n",
                       to: "App/Settings/SettingsScreen.swift")
        try repo.write("""
        import SwiftUI

        struct ProfileScreen: View {
            var body: some View {
                HStack {
                    Text(user.name)
                    Button { edit() } label: { Image(systemName: "pencil") }
                    Button("Sign out") { signOut() }
                }
            }
        }

        """, to: "App/Profile/ProfileScreen.swift")
        try repo.write("""
        import XCTest

        final class RoomUITests: XCTestCase {
            func testSendsAMessage() {
                let app = XCUIApplication()
                app.launch()
                app.textFields["room_field_message"].typeText("Hello")
                app.buttons["room_button_send"].tap()
                app.buttons["Sign out"].tap()
            }
        }

        """, to: "UITests/RoomUITests.swift")
        try repo.commitAll("app")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    /// Where tagging is partial, a push that labels an untagged button is not refused for its
    /// identifier, and the note counts what the pushed lines would have reported; a control added
    /// among tagged siblings still is.
    @Test func aPartlyTaggedRepositoryRefusesOnlyWhereItsScreenIsTagged() throws {
        let repo = try partlyTagged()
        let profile = try #require(repo.root.read("work/App/Profile/ProfileScreen.swift"))
        try repo.write(profile.replacingOccurrences(of: "Image(systemName: \"pencil\") }", with: "Image(systemName: \"pencil\") }\n                .accessibilityLabel(\"Edit profile\")"),
                       to: "App/Profile/ProfileScreen.swift")
        try repo.commitAll("label the edit button")
        let label = try repo.push()
        #expect(label.status == 0 && findings(label).isEmpty, "\(label)")
        #expect(label.combined.contains("prepush: note: accessibility: 1 missing-identifier finding not reported: App tags 28% of its controls (4 of 14), and the rule applies from 75% or among mostly tagged controls of one view; its UI tests query 2 identifiers (UITests/RoomUITests.swift)"), "\(label)")

        let room = try #require(repo.root.read("work/App/Room/RoomScreen.swift"))
        try repo.write(room.replacingOccurrences(of: "        }\n    }\n}", with: "            Button(\"Leave\") { leave() }\n        }\n    }\n}"),
                       to: "App/Room/RoomScreen.swift")
        let settings = try #require(repo.root.read("work/App/Settings/SettingsScreen.swift"))
        try repo.write(settings.replacingOccurrences(of: "        }\n    }", with: "            Toggle(\"Beta\", isOn: $beta)\n        }\n    }"),
                       to: "App/Settings/SettingsScreen.swift")
        try repo.commitAll("a leave button, a beta toggle")
        let added = try repo.push()
        #expect(added.status == 1, "\(added)")
        #expect(findings(added) == ["App/Room/RoomScreen.swift:10:13: error: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"], "\(added)")
        #expect(added.combined.contains("1 missing-identifier finding not reported: App/Settings tags 0% of its controls (0 of 8)"), "\(added)")
    }

    /// fastlane's SnapshotHelper drives the app, and a screenshot test finds controls by label: not
    /// a team that tests by identifier, and its two identifiers among twenty controls are no practice.
    @Test func aScreenshotHelperIsNoEvidence() throws {
        let repo = try GitRepository()
        try repo.write("import Foundation\nimport XCTest\n\n@MainActor func setupSnapshot(_ app: XCUIApplication) { Snapshot.setupSnapshot(app) }\n",
                       to: "fastlane/SnapshotHelper.swift")
        try repo.write("""
        import XCTest

        final class ScreenshotTests: XCTestCase {
            func testScreenshots() {
                let app = XCUIApplication()
                setupSnapshot(app)
                app.launch()
                app.buttons["Settings"].tap()
                snapshot("settings")
            }
        }

        """, to: "ScreenshotTests/ScreenshotTests.swift")
        let buttons = (1...18).map { "            Button(\"Item \($0)\") { open(\($0)) }\n" }.joined()
        try repo.write("import SwiftUI\n\nstruct ListView: View {\n    var body: some View {\n        VStack {\n\(buttons)"
                       + "            Button(\"Settings\") { settings() }.accessibilityIdentifier(\"list_button_settings\")\n"
                       + "            Button(\"Help\") { help() }.accessibilityIdentifier(\"list_button_help\")\n        }\n    }\n}\n", to: "App/ListView.swift")
        try repo.commitAll("app")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(screen("AboutView"), to: "App/AboutView.swift")
        try repo.commitAll("about")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 0 && findings(push).isEmpty, "\(push)")
        #expect(push.combined.contains("App tags 10% of its controls (2 of 20)"), "\(push)")
        #expect(push.combined.contains("its UI tests (ScreenshotTests/ScreenshotTests.swift) query no identifier a view sets"), "\(push)")
    }

    /// A team that writes `room-join_call`: identifier-convention holds new identifiers to that, and
    /// says which scheme it inferred.
    @Test func theConventionIsTheRepositorysOwnScheme() throws {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI

        struct RoomScreen: View {
            var body: some View {
                VStack {
                    Button("Send") { send() }.accessibilityIdentifier("room-send")
                    Button("Call") { call() }.accessibilityIdentifier("room-join_call")
                    TextField("Message", text: $draft).accessibilityIdentifier("room-message_field")
                    Toggle("Mute", isOn: $muted).accessibilityIdentifier("room-mute")
                }
            }
        }

        """, to: "App/RoomScreen.swift")
        try repo.commitAll("room")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write("""
        import SwiftUI

        struct CallScreen: View {
            var body: some View {
                VStack {
                    Button("Hang up") { hangUp() }.accessibilityIdentifier("call-hang_up")
                    Button("Speaker") { speaker() }.accessibilityIdentifier("callSpeakerButton")
                }
            }
        }

        """, to: "App/CallScreen.swift")
        try repo.commitAll("call")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(findings(push) == ["App/CallScreen.swift:7:69: error: \"callSpeakerButton\" is not written like this repository's identifiers: lower-case words joined by - or _, as 4 of its 4 are (for example login-button_submit) [identifier-convention]"], "\(push)")
        #expect(push.combined.contains("prepush: note: accessibility: identifier-convention follows this repository's scheme, inferred from its identifiers: lower-case words joined by - or _ (4 of 4)"), "\(push)")
    }

    /// LLMonFHIR sets one identifier in the whole app (`llmSourcePicker`) and its UI tests query none:
    /// one identifier shows no convention of the team's, so it is not held to prepush's; the note says
    /// so, and naming a pattern holds it again.
    @Test func oneIdentifierShowsNoConvention() throws {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI

        struct LLMSourceSelection: View {
            @State private var source = 0
            var body: some View {
                Picker("Source", selection: $source) { Text("OpenAI").tag(0) }
                    .accessibilityIdentifier("llmSourcePicker")
            }
        }

        """, to: "App/LLMSourceSelection.swift")
        try repo.commitAll("one identifier")
        let quiet = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(quiet.status == 0 && !quiet.combined.contains("[identifier-convention]"), "\(quiet)")
        #expect(quiet.combined.contains("1 identifier-convention finding not reported: the repository sets 1 identifier, too few to show a convention of its own"), "\(quiet)")
        try repo.write("accessibility:\n  identifierPattern: \"^[a-z]+(_[a-z]+)+$\"\n", to: ".prepush.yml")
        let held = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(held.status == 1 && held.combined.contains("llmSourcePicker"), "\(held)")
    }

    /// A team that ends its identifiers with the type word (damus's `side_menu_logout_button`, listed in
    /// an enum): the type word is read from the end, a name's last word is no type, and only another
    /// control's type word there is reported.
    @Test func theTypeWordIsReadWhereTheTeamPutsIt() throws {
        let repo = try GitRepository()
        try repo.write("""
        import SwiftUI

        enum Identifiers: String {
            case side_menu_logout_button
            case sign_up_name_field
            case post_button
            case onboarding_page_next_page
        }

        struct SideMenu: View {
            var body: some View {
                VStack {
                    Button("Log out") { logOut() }.accessibilityIdentifier(Identifiers.side_menu_logout_button.rawValue)
                    TextField("Name", text: $name).accessibilityIdentifier(Identifiers.sign_up_name_field.rawValue)
                    Button("Post") { post() }.accessibilityIdentifier(Identifiers.post_button.rawValue)
                    Button("Next") { next() }.accessibilityIdentifier(Identifiers.onboarding_page_next_page.rawValue)
                    Toggle("Mute", isOn: $muted).accessibilityIdentifier("side_menu_mute_button")
                }
            }
        }

        """, to: "App/SideMenu.swift")
        let result = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(findings(result).filter { $0.hasSuffix("[identifier-convention]") }
            == ["App/SideMenu.swift:17:66: error: a Toggle's identifier says toggle, not button: \"side_menu_mute_button\" [identifier-convention]"], "\(result)")
        #expect(result.combined.contains("identifier-convention reads the type word last"), "\(result)")
    }

    @Test func namingTheRuleDecidesWithoutALook() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.write("accessibility:\n  rules:\n    missing-identifier: warning\n", to: ".prepush.yml")
        let result = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(findings(result) == ["App/TimelineView.swift:6:13: warning: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"], "\(result)")
    }

    /// 300 baselined `Button(…) {` findings with the same line text, and a new one pushed in the
    /// middle: exactly the new one is reported (the baseline's entries go to the old lines first).
    @Test func aBaselineNeverHidesANewFindingWhoseLineReadsLikeAnOldOne() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        let old = "import SwiftUI\n\nstruct ListScreen: View {\n    var body: some View {\n        VStack {\n"
            + String(repeating: "            Button(\"Open\") { open() }\n", count: 300) + "        }\n    }\n}\n"
        try repo.write(old, to: "App/ListScreen.swift")
        // 300 untagged buttons beside six tagged ones are no practice: the team asks for the rule.
        try repo.write("accessibility:\n  rules:\n    missing-identifier: error\n", to: ".prepush.yml")
        _ = try InProcessCLI.run(["a11y", "--all", "--write-baseline", ".prepush/a11y-baseline.json"], in: repo.path, environment: repo.environment).checked()
        try repo.write("accessibility:\n  baseline: .prepush/a11y-baseline.json\n  rules:\n    missing-identifier: error\n", to: ".prepush.yml")
        try repo.commitAll("300 buttons, baselined")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()

        var lines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("            Button(\"Open\") { open() }", at: 155)
        try repo.write(lines.joined(separator: "\n"), to: "App/ListScreen.swift")
        try repo.commitAll("one more button")
        let push = try repo.push()
        #expect(push.status == 1, "\(push)")
        // Among 301 identical lines, git's diff names the last as the added one: that one is reported.
        #expect(findings(push) == ["App/ListScreen.swift:306:13: error: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"], "\(push)")

        // Code above every button changes: no finding moves out of the baseline.
        try repo.git("reset", "--quiet", "--hard", "HEAD~1")
        try repo.write(old.replacingOccurrences(of: "        VStack {\n", with: "        VStack {\n            Text(\"Header\")\n"), to: "App/ListScreen.swift")
        try repo.commitAll("a header")
        let header = try repo.push()
        #expect(header.status == 0 && findings(header).isEmpty, "\(header)")
    }

    @Test func aFileListWithMissingNonSwiftFilesIsNoError() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        // What `git diff --name-only` gives after a README was deleted.
        let result = try InProcessCLI.run(["a11y", "README.md", "docs/old.png", "App/TimelineView.swift"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "the Swift file is checked: \(result)")
        #expect(findings(result).count == 1, "\(result)")
        let missingSwift = try InProcessCLI.run(["a11y", "App/Gone.swift"], in: repo.path, environment: repo.environment)
        #expect(missingSwift.status == 2 && missingSwift.standardError == "error: App/Gone.swift: no such file\n", "\(missingSwift)")
    }

    @Test func verboseCountsOneCommitInTheSingular() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        try repo.write(screen("ProfileView"), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let run = try InProcessCLI.run(["run", "--verbose"], in: repo.path, environment: repo.environment)
        #expect(run.combined.contains("prepush: accessibility: 1 commit; base: "), "\(run)")
        #expect(!run.combined.contains("1 commits"), "\(run)")
    }
}
