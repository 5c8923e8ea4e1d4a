import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush init` makes a UI stage only of UI tests the team runs or would run: the schemes its CI
/// tests first, never a screenshot scheme, never a scheme CI leaves out while it tests others
/// (issue 53). home-assistant and Mastodon are real (Tests/Fixtures/ui-schemes/README.md).
@Suite struct InitUIStageTests {
    /// home-assistant: CI runs `fastlane test` (`run_tests(scheme: 'Tests-Unit')`); `Tests-UI`
    /// compiles fastlane's SnapshotHelper and no CI job runs it. The unit stage is `Tests-Unit`;
    /// `Tests-UI` is a comment, not a stage (it was the UI stage before).
    @Test func homeAssistantsScreenshotSchemeIsNoStage() throws {
        let repo = try InitGeneratorTests.repository(from: "../ui-schemes/home-assistant")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Tests-Unit (unit bundles: 3); ui: none (its UI schemes take screenshots or no command init read in the team's CI runs them)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(!file.contains("\n  ui:\n") && !file.contains("-scheme Tests-UI"), "\(file)")
        #expect(file.contains("  # Scheme Tests-UI takes screenshots (Tests-UI compiles fastlane's SnapshotHelper.swift) and no command init read in the team's CI runs it: no stage; `fastlane snapshot` or the scheme itself makes them.\n"), "\(file)")
        #expect(file.contains("  # ui:                         # no UI scheme the team runs: see below\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Mastodon: CI only builds. `Mastodon - Snapshot`'s plan selects only the App Store screenshot
    /// class: a comment. The UI stage is `Mastodon - Release`'s UI bundle without that class (two of
    /// its tests force-unwrap values only the screenshot run sets).
    @Test func mastodonsScreenshotPlanIsNoStageAndItsClassIsSkipped() throws {
        let repo = try InitGeneratorTests.repository(from: "../ui-schemes/mastodon")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("ui: xcodebuild test -scheme Mastodon - Release (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("-scheme 'Mastodon - Release' -only-testing:MastodonUITests -skip-testing:MastodonUITests/MastodonUISnapshotTests -destination"), "\(file)")
        #expect(file.contains("    # MastodonUITests/MastodonUISnapshotTests takes screenshots (its tests keep them, or fastlane's SnapshotHelper.swift), which the team's CI does not run: left out with -skip-testing.\n"), "\(file)")
        #expect(file.contains("  # Scheme Mastodon - Snapshot takes screenshots (every test class it runs in MastodonUITests keeps screenshots (its test plan AppStoreSnapshotTestPlan.xctestplan)) and no command init read in the team's CI runs it: no stage of its own (another scheme's stage runs that bundle); "), "\(file)")
        #expect(!file.contains("-scheme 'Mastodon - Snapshot'"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Mastodon's screenshot scheme run by the team's CI (Mullvad's post-merge screenshot job has this
    /// shape: a plan that selects only the screenshot class of a bundle of other tests too): still no
    /// stage, said as the team's screenshot run; the UI stage is the app scheme's, without that class.
    @Test func aScreenshotPlanTheTeamsCIRunsIsNoStage() throws {
        let repo = try InitGeneratorTests.repository(from: "../ui-schemes/mastodon")
        try repo.write("jobs:\n  shots:\n    steps:\n      - run: xcodebuild test -project Mastodon.xcodeproj -scheme 'Mastodon - Snapshot' -destination 'platform=iOS Simulator,name=iPhone 16'\n",
                       to: ".github/workflows/screenshots.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  # Scheme Mastodon - Snapshot takes screenshots: the team's CI runs it (.github/workflows/screenshots.yml:4) only for the classes of MastodonUITests that take screenshots, so no stage"), "\(file)")
        #expect(!file.contains("-scheme 'Mastodon - Snapshot' -") || file.contains("#   "), "\(file)")
        #expect(file.contains("-scheme 'Mastodon - Release' -only-testing:MastodonUITests -skip-testing:MastodonUITests/MastodonUISnapshotTests"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// XcodeGen's real `App_iOS Test` scheme runs a unit and a UI bundle; the team's workflow tests a
    /// unit-only scheme. The UI bundle is one CI never runs: named in a comment with the command to
    /// run it, no stage. With the workflow testing `App_iOS Test` instead, the UI stage is that scheme.
    @Test func aUISchemeTheTeamsCINeverRunsIsAComment() throws {
        let repo = try GitRepository()
        let xcodegen = InitRealAppTests.projects + "/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject/Project.xcodeproj"
        for file in ["project.pbxproj", "xcshareddata/xcschemes/App_iOS Test.xcscheme"] {
            try repo.write(try String(contentsOfFile: xcodegen + "/" + file, encoding: .utf8), to: "Project.xcodeproj/" + file)
        }
        try repo.write(InitRealAppTests.scheme([("DC2F16BAA6E13B44AB62F888", "App_iOS_Tests", "Project.xcodeproj")]),
                       to: "Project.xcodeproj/xcshareddata/xcschemes/AppUnit.xcscheme")
        let workflow = "jobs:\n  test:\n    steps:\n      - run: xcodebuild test -project Project.xcodeproj -scheme SCHEME -destination 'platform=iOS Simulator,name=iPhone 16'\n"
        try repo.write(workflow.replacingOccurrences(of: "SCHEME", with: "AppUnit"), to: ".github/workflows/ci.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme AppUnit (unit bundles: 1); ui: none (its UI schemes take screenshots or no command init read in the team's CI runs them)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  # Scheme App_iOS Test tests UI bundles App_iOS_UITests, which no command init read in the team's CI runs (they test AppUnit): no stage; to run them on each push:\n"), "\(file)")
        #expect(!file.contains("\n  ui:\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)

        try repo.write(workflow.replacingOccurrences(of: "SCHEME", with: "'App_iOS Test'"), to: ".github/workflows/ci.yml")
        let again = try InProcessCLI.run(["init", "--force"], in: repo.path, environment: repo.environment)
        #expect(again.status == 0 && again.standardOutput.contains("ui: xcodebuild test -scheme App_iOS Test (UI bundles: 1)"), "\(again)")
        let second = try #require(repo.root.read("work/.prepush.yml"))
        #expect(second.contains("-scheme 'App_iOS Test' -only-testing:App_iOS_UITests -destination 'platform=iOS Simulator,name=iPhone 16'"), "\(second)")
    }
}
