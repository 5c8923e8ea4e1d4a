import Foundation
import PrePushTestSupport
import Testing

/// `ui-test-identifier` on real repositories: a range that stops setting an identifier a UI test
/// queries is refused whatever the tagging share; the whole tree reports queries no view sets.
@Suite struct UITestIdentifierTests {
    static let view = LoginScreen.view
    static let test = LoginScreen.uiTest
    static let emailModifier = LoginScreen.emailModifier

    /// The app and its UI test committed, `base` naming that commit.
    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(Self.view, to: "App/Login/LoginView.swift")
        try repo.write(Self.test, to: "AppUITests/LoginUITests.swift")
        try repo.commitAll("login")
        try repo.git("branch", "base")
        return repo
    }

    @Test func removingAnIdentifierATestQueriesIsRefusedWithBothPlacesNamed() throws {
        let repo = try repository()
        try repo.write(Self.view.replacingOccurrences(of: Self.emailModifier, with: ""), to: "App/Login/LoginView.swift")
        try repo.commitAll("drop the email identifier")
        let result = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.split(separator: "\n").first == """
        AppUITests/LoginUITests.swift:7:24: error: "login_field_email" is queried here, and no view sets it after this push (App/Login/LoginView.swift:9 set it before); set it again, or change the test with it [ui-test-identifier]
        """, "\(result)")
        // The policy still leaves missing-identifier to the team (66% tagged): the refusal is this rule's.
        #expect(result.combined.contains("1 missing-identifier finding not reported: the repository tags 66% of its controls (2 of 3), and the rule applies from 75% or among mostly tagged controls of one view; its UI tests query 2 identifiers (AppUITests/LoginUITests.swift)"), "\(result)")
    }

    @Test func aPushThatRefusesNamesTheTestThroughTheRunCommandToo() throws {
        let repo = try repository()
        try repo.write("stages:\n  unit:\n    run: \"true\"\n", to: ".prepush.yml")
        try repo.commitAll("configuration")
        try repo.git("branch", "-f", "base")
        try repo.write(Self.view.replacingOccurrences(of: "\"login_field_email\"", with: "\"login_field_mail\""), to: "App/Login/LoginView.swift")
        try repo.commitAll("rename on the view side only")
        let run = try InProcess.run(in: repo.path, environment: repo.environment, base: "base")
        #expect(run.status == 1, "\(run)")
        #expect(run.combined.contains("AppUITests/LoginUITests.swift:7:24: error: \"login_field_email\" is queried here, and no view sets it after this push (App/Login/LoginView.swift:9 set it before)"), "\(run)")
        #expect(run.combined.contains("checks failed: 1 accessibility finding"), "\(run)")
    }

    @Test func keepingTheIdentifierOrRenamingItOnBothSidesPasses() throws {
        let repo = try repository()
        // An edit of the same view that keeps the identifier.
        try repo.write(Self.view.replacingOccurrences(of: "TextField(\"Email\"", with: "TextField(\"E-mail\""), to: "App/Login/LoginView.swift")
        try repo.commitAll("relabel")
        let kept = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(kept.status == 0 && !kept.standardOutput.contains("ui-test-identifier"), "\(kept)")

        // Renamed in the view and in the test in one push.
        try repo.write(Self.view.replacingOccurrences(of: "login_field_email", with: "login_field_mail"), to: "App/Login/LoginView.swift")
        try repo.write(Self.test.replacingOccurrences(of: "login_field_email", with: "login_field_mail"), to: "AppUITests/LoginUITests.swift")
        try repo.commitAll("rename on both sides")
        let renamed = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(renamed.status == 0 && !renamed.standardOutput.contains("ui-test-identifier"), "\(renamed)")
    }

    /// Moved to another view in the same push: still set, nothing breaks.
    @Test func anIdentifierMovedToAnotherViewPasses() throws {
        let repo = try repository()
        try repo.write(Self.view.replacingOccurrences(of: Self.emailModifier, with: ""), to: "App/Login/LoginView.swift")
        try repo.write("import SwiftUI\n\nstruct EmailField: View {\n    @Binding var email: String\n    var body: some View {\n"
                       + "        TextField(\"Email\", text: $email).accessibilityIdentifier(\"login_field_email\")\n    }\n}\n",
                       to: "App/Login/EmailField.swift")
        try repo.commitAll("the email field in a view of its own")
        let result = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(!result.standardOutput.contains("ui-test-identifier"), "\(result)")
    }

    /// Identifiers given through the repository's constants, on both sides, in other files.
    @Test func identifiersThroughConstantsAreFollowed() throws {
        let repo = try GitRepository()
        try repo.write("enum A11y {\n    enum Login {\n        static let email = \"login_field_email\"\n    }\n}\n", to: "Shared/A11y.swift")
        try repo.write(Self.view.replacingOccurrences(of: "\"login_field_email\"", with: "A11y.Login.email"), to: "App/Login/LoginView.swift")
        try repo.write(Self.test.replacingOccurrences(of: "app.textFields[\"login_field_email\"]", with: "app.textFields.matching(identifier: A11y.Login.email).firstMatch"),
                       to: "AppUITests/LoginUITests.swift")
        try repo.commitAll("login")
        try repo.git("branch", "base")
        let view = try #require(repo.root.read("work/App/Login/LoginView.swift"))
        try repo.write(view.replacingOccurrences(of: "            .accessibilityIdentifier(A11y.Login.email)\n", with: ""), to: "App/Login/LoginView.swift")
        try repo.commitAll("drop it")
        let result = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.hasPrefix("AppUITests/LoginUITests.swift:7:45: error: \"login_field_email\" is queried here, and no view sets it after this push (App/Login/LoginView.swift:9 set it before)"), "\(result)")
    }

    /// The whole tree: a query no view answers (a typo) is reported only at the severity the team
    /// configures (the system and dependencies set identifiers the tree does not show); the
    /// screenshot helper and label queries are not reported.
    @Test func theWholeTreeWarnsOfQueriesNoViewAnswers() throws {
        let repo = try repository()
        try repo.write(Self.test.replacingOccurrences(of: "app.launch()", with: "app.launch()\n        app.buttons[\"login_button_sumbit\"].tap()\n        app.buttons[\"Sign in\"].tap()"),
                       to: "AppUITests/LoginUITests.swift")
        try repo.write("import Foundation\nimport XCTest\n\nfunc setupSnapshot(_ app: XCUIApplication) { Snapshot.setupSnapshot(app) }\n"
                       + "func probe(_ app: XCUIApplication) { _ = app.otherElements.matching(identifier: \"status_bar\") }\n",
                       to: "fastlane/SnapshotHelper.swift")
        // The Forgot button among two tagged siblings is missing-identifier's; this test is about the queries.
        try repo.write("accessibility:\n  rules:\n    missing-identifier: off\n", to: ".prepush.yml")
        let quiet = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(quiet.status == 0 && !quiet.standardOutput.contains("[ui-test-identifier]"), "not configured: \(quiet)")
        try repo.write("accessibility:\n  rules:\n    missing-identifier: off\n    ui-test-identifier: warning\n", to: ".prepush.yml")
        let result = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "a warning: \(result)")
        let lines = result.standardOutput.split(separator: "\n").filter { $0.contains("[ui-test-identifier]") }
        #expect(lines == ["AppUITests/LoginUITests.swift:7:21: warning: \"login_button_sumbit\" is queried here, and no view sets it [ui-test-identifier]"], "\(result)")

        try repo.write("accessibility:\n  rules:\n    missing-identifier: off\n    ui-test-identifier: error\n", to: ".prepush.yml")
        let strict = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(strict.status == 1 && strict.standardOutput.contains("7:21: error: \"login_button_sumbit\""), "\(strict)")
    }

    /// Pocket Casts and CodeEdit: their UI tests query identifiers set by a xib
    /// (podcasts/PlayerContainerViewController.xib), by UIKit (podcasts/BasePlayPauseButton.swift) and
    /// by a scene whose id is a case of the app's scene enum (CodeEdit/SceneID.swift); only the typo
    /// is reported.
    @Test func identifiersSetByUIKitXibsAndScenesAnswerTheQueries() throws {
        let repo = try repository()
        try repo.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch">
            <button opaque="NO" id="n9H-5y-Rbm" userLabel="Close Button">
                <accessibility key="accessibilityConfiguration" identifier="Close player" label="Close player"/>
            </button>
        </document>
        """, to: "App/Player/PlayerContainerViewController.xib")
        try repo.write("import UIKit\n\nclass BasePlayPauseButton: UIButton {\n    func setUp() {\n        accessibilityIdentifier = \"play pause button\"\n    }\n}\n",
                       to: "App/Player/BasePlayPauseButton.swift")
        try repo.write("enum SceneID: String, CaseIterable {\n    case welcome\n    case settings\n}\n", to: "App/SceneID.swift")
        try repo.write("import SwiftUI\n\nstruct SettingsWindow: Scene {\n    var body: some Scene {\n        Window(\"Settings\", id: SceneID.settings.rawValue) { Text(\"Settings\") }\n    }\n}\n",
                       to: "App/SettingsWindow.swift")
        let queries = ["app.buttons.matching(identifier: \"Close player\").firstMatch.tap()", "app.buttons.containing(.button, identifier: \"play pause button\").firstMatch.tap()",
                       "_ = app.windows.element(matching: .window, identifier: \"welcome\")", "app.buttons[\"close_playr\"].tap()"]
        try repo.write(Self.test.replacingOccurrences(of: "app.launch()", with: "app.launch()\n        " + queries.joined(separator: "\n        ")),
                       to: "AppUITests/LoginUITests.swift")
        try repo.write("accessibility:\n  rules:\n    missing-identifier: off\n    ui-test-identifier: warning\n", to: ".prepush.yml")
        let result = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        let lines = result.standardOutput.split(separator: "\n").filter { $0.contains("[ui-test-identifier]") }
        #expect(lines.count == 1 && lines.first?.contains("\"close_playr\" is queried here") == true, "\(result)")
    }
}
