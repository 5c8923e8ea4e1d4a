import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The accessibility check through real pushes with the installed hook.
/// Own process: the range checked is the one git sends the installed hook on a real `git push` (a new
/// branch, a forced update, a rename), and a refused push leaves the remote where it was.
@Suite struct AccessibilityPushTests {
    let legacy = """
    import SwiftUI

    struct SettingsView: View {
        @State private var on = false
        var body: some View {
            VStack {
                Toggle("Notifications", isOn: $on)
                Text("Version 1.0")
            }
        }
    }

    """

    let home = """
    import SwiftUI

    struct HomeView: View {
        var body: some View {
            VStack {
                Button("Add") { add() }
                    .padding()
                    .accessibilityIdentifier("home_button_add")
                Text("Tasks")
            }
        }
    }

    """

    /// A repository with the views pushed once (without checks), the stage leaving a marker.
    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.addTaggedScreen()
        try repo.write(legacy, to: "App/Views/SettingsView.swift")
        try repo.write(home, to: "App/Views/HomeView.swift")
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("views")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        return repo
    }

    @Test func addingAButtonWithoutIdentifierRefusesThePushBeforeTheStages() throws {
        let repo = try repository()
        let before = try repo.remoteHead()
        try repo.write(home.replacingOccurrences(of: "            Text(\"Tasks\")", with: "            Button(\"Clear\") { clear() }\n            Text(\"Tasks\")"), to: "App/Views/HomeView.swift")
        try repo.commitAll("a new button")
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("App/Views/HomeView.swift:9:13: error: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"))
        #expect(push.combined.contains("push refused: 1 accessibility finding"))
        #expect(!repo.root.exists("stage-ran"), "no stage runs after a blocking finding")
        #expect(try repo.remoteHead() == before)
    }

    @Test func removingAnIdentifierRefusesThePush() throws {
        let repo = try repository()
        try repo.write(home.replacingOccurrences(of: "                .accessibilityIdentifier(\"home_button_add\")\n", with: ""), to: "App/Views/HomeView.swift")
        try repo.commitAll("drop the identifier")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(push.combined.contains("App/Views/HomeView.swift:6:13: error: Button has no .accessibilityIdentifier"))
    }

    @Test func replacingAnIdentifierLineWithOtherCodeRefusesThePush() throws {
        let repo = try repository()
        // The identifier's line becomes a new view: a replacement, not a pure deletion.
        try repo.write(home.replacingOccurrences(of: "                .accessibilityIdentifier(\"home_button_add\")\n",
                                                 with: "            Text(\"Added\")\n"), to: "App/Views/HomeView.swift")
        try repo.commitAll("identifier replaced")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(push.combined.contains("App/Views/HomeView.swift:6:13: error: Button has no .accessibilityIdentifier"), "\(push.combined)")
    }

    @Test func editingAnUnrelatedLineOfALegacyFilePasses() throws {
        let repo = try repository()
        try repo.write(legacy.replacingOccurrences(of: "Version 1.0", with: "Version 1.1"), to: "App/Views/SettingsView.swift")
        try repo.commitAll("bump the version text")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 0, "\(push)")
        #expect(!push.combined.contains("missing-identifier"), "the old Toggle is not this push's doing")
        #expect(repo.root.exists("stage-ran"))
        let all = try InProcessCLI.run(["hook", "pre-push", "origin", repo.remotePath, "--all-lines"], in: repo.path, environment: repo.environment,
                                       standardInput: "refs/heads/main \(try repo.head()) refs/heads/main \(try repo.git("rev-parse", "HEAD~1"))\n")
        #expect(all.status == 1, "--all-lines reports the old Toggle too")
        #expect(all.standardOutput.contains("App/Views/SettingsView.swift:7:13: error: Toggle has no .accessibilityIdentifier"))
    }

    @Test func aNewBranchChecksOnlyItsOwnCommits() throws {
        let repo = try repository()
        try repo.git("checkout", "--quiet", "-b", "feature")
        try repo.write("import SwiftUI\nstruct AboutView: View { var body: some View { Text(\"About\") } }\n", to: "App/Views/AboutView.swift")
        try repo.commitAll("about screen")
        let push = try repo.push("feature")
        #expect(push.status == 0, "the legacy Toggle on main is not this branch's: \(push)")
    }

    @Test func iconOnlyButtonsAndBadIdentifiersAreFound() throws {
        let repo = try repository()
        try repo.write("""
        import SwiftUI

        struct ToolbarView: View {
            var body: some View {
                HStack {
                    Button(action: share) { Image(systemName: "square.and.arrow.up") }
                        .accessibilityIdentifier("toolbar_button_share")
                    Toggle("Sync", isOn: .constant(true))
                        .accessibilityIdentifier("toolbar_button_sync")
                }
            }
        }

        """, to: "App/Views/My Toolbar View.swift")
        try repo.commitAll("toolbar")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(push.combined.contains("App/Views/My Toolbar View.swift:6:13: error: Button shows only an image; add .accessibilityLabel(\"…\") saying what it does [icon-button-missing-label]"))
        #expect(push.combined.contains("App/Views/My Toolbar View.swift:9:42: error: a Toggle's identifier says toggle, not button: \"toolbar_button_sync\" [identifier-convention]"))
    }

    @Test func aRuleTurnedOffOrSuppressedDoesNotBlock() throws {
        let repo = try repository()
        try repo.write("stages:\n  unit:\n    run: 'true'\naccessibility:\n  rules:\n    missing-identifier: warning\n", to: ".prepush.yml")
        try repo.write(home.replacingOccurrences(of: "            Text(\"Tasks\")", with: "            Button(\"Clear\") { clear() }\n            Text(\"Tasks\")"), to: "App/Views/HomeView.swift")
        try repo.commitAll("warning only")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("App/Views/HomeView.swift:9:13: warning: Button has no .accessibilityIdentifier"))
    }

    @Test func anUnknownRuleInTheConfigurationIsAUsageError() throws {
        let repo = try repository()
        try repo.write("accessibility:\n  rules:\n    missing-identifer: off\n", to: ".prepush.yml")
        try repo.commitAll("typo")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(push.standardError.contains(".prepush.yml:3:5: error: unknown key \"missing-identifer\" in accessibility.rules"))
        #expect(push.standardError.contains("    missing-identifer: off\n    ^"), "the line and a caret under the key")
    }

    @Test func aForcePushIsCheckedAgainstWhatBothSidesShare() throws {
        let repo = try repository()
        try repo.write(legacy.replacingOccurrences(of: "Version 1.0", with: "Version 2.0"), to: "App/Views/SettingsView.swift")
        try repo.commitAll("pushed, then rewritten")
        #expect(try repo.push().status == 0)
        // Rewrite: drop the pushed commit and add a new button without an identifier instead.
        try repo.git("reset", "--quiet", "--hard", "HEAD~1")
        try repo.write(home.replacingOccurrences(of: "            Text(\"Tasks\")", with: "            Button(\"Clear\") { clear() }\n            Text(\"Tasks\")"), to: "App/Views/HomeView.swift")
        try repo.commitAll("rewritten history")
        let push = try repo.gitResult(["push", "--force", "origin", "main"])
        #expect(push.status != 0)
        #expect(push.combined.contains("App/Views/HomeView.swift:9:13: error: Button has no .accessibilityIdentifier"))
        #expect(!push.combined.contains("SettingsView.swift"), "the settings view is the same on both sides of the merge base")
    }

    @Test func aRenameIsCheckedOnlyWhereItChangedLines() throws {
        let repo = try repository()
        try repo.git("mv", "App/Views/SettingsView.swift", "App/Views/PreferencesView.swift")
        try repo.commitAll("rename, content unchanged")
        let rename = try repo.push()
        #expect(rename.status == 0, "a renamed legacy file changes no line: \(rename)")
        try repo.git("mv", "App/Views/PreferencesView.swift", "App/Views/Preferences Screen View.swift")
        try repo.write(legacy.replacingOccurrences(of: "            Text(\"Version 1.0\")", with: "            Text(\"Version 1.0\")\n            Stepper(\"Count\", value: $count)"),
                       to: "App/Views/Preferences Screen View.swift")
        try repo.commitAll("rename with an edit")
        let edited = try repo.push()
        #expect(edited.status != 0)
        #expect(edited.combined.contains("App/Views/Preferences Screen View.swift:9:13: error: Stepper has no .accessibilityIdentifier"))
        #expect(!edited.combined.contains("Toggle has no"), "the old Toggle still passes")
    }

    @Test func binaryAndNonUTF8ViewFilesAndDeletionsDoNotBlock() throws {
        let repo = try repository()
        try repo.write(Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0x01, 0x02, 0x00, 0xFF]), to: "App/Views/IconView.swift")
        // Latin-1 "é" in a comment: not UTF-8, so not Swift the parser can read.
        try repo.write(Data("import SwiftUI\n// caf".utf8) + Data([0xE9]) + Data("\nstruct CafeView: View { var body: some View { Button(\"x\") { } } }\n".utf8),
                            to: "App/Views/CafeView.swift")
        try repo.commitAll("a binary and a Latin-1 view")
        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(push.combined.contains("App/Views/CafeView.swift: not UTF-8 text; not checked"))
        try repo.git("push", "--quiet", "--no-verify", "origin", "main:doomed")
        let deletion = try repo.push(":doomed")
        #expect(deletion.status == 0, "\(deletion)")
        #expect(!deletion.combined.contains("accessibility finding"))
    }

    /// Issue 52: a login screen two thirds tagged, a UI test querying its email field. Deleting the
    /// field's identifier is refused through the hook whatever the tagging share, naming the test's
    /// query and the view line that set it; renaming it in the view and the test passes.
    @Test func removingAnIdentifierAUITestQueriesRefusesThePush() throws {
        let repo = try GitRepository()
        let (view, test) = (LoginScreen.view, LoginScreen.uiTest)
        try repo.write(view, to: "App/Login/LoginView.swift")
        try repo.write(test, to: "AppUITests/LoginUITests.swift")
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("login")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        try repo.write(view.replacingOccurrences(of: LoginScreen.emailModifier, with: ""), to: "App/Login/LoginView.swift")
        try repo.commitAll("drop the email identifier")
        let refused = try repo.push()
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.combined.contains("AppUITests/LoginUITests.swift:7:24: error: \"login_field_email\" is queried here, and no view sets it after this push (App/Login/LoginView.swift:9 set it before); set it again, or change the test with it [ui-test-identifier]"), "\(refused)")
        #expect(!repo.root.exists("stage-ran"), "no stage runs after a blocking finding")

        try repo.git("reset", "--quiet", "--hard", "HEAD~1")
        try repo.write(view.replacingOccurrences(of: "login_field_email", with: "login_field_mail"), to: "App/Login/LoginView.swift")
        try repo.write(test.replacingOccurrences(of: "login_field_email", with: "login_field_mail"), to: "AppUITests/LoginUITests.swift")
        try repo.commitAll("rename the email identifier on both sides")
        let renamed = try repo.push()
        #expect(renamed.status == 0 && !renamed.combined.contains("[ui-test-identifier]"), "\(renamed)")
    }
}
