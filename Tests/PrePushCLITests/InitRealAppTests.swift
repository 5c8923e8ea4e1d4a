import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush init` on the layouts real apps have (issue 53): a project in a subfolder that uses the
/// root's package, a workflow whose commands hold `${{ … }}`, identifiers on more than controls,
/// a scheme and test plan that skip tests. The project files are real ones (shared/fixtures) or
/// written the way Xcode writes them.
@Suite struct InitRealAppTests {
    static let projects = Fixtures.shared + "/xcode-projects"

    /// A shared scheme as Xcode 16 writes it (tuist's `App.xcscheme` in shared/fixtures is the
    /// model): a TestAction whose testables are `(id, name, container)`.
    static func scheme(_ testables: [(String, String, String)]) -> String {
        let references = testables.map { identifier, name, container in
            """
                     <TestableReference
                        skipped = "NO"
                        parallelizable = "YES">
                        <BuildableReference
                           BuildableIdentifier = "primary"
                           BlueprintIdentifier = "\(identifier)"
                           BuildableName = "\(name).xctest"
                           BlueprintName = "\(name)"
                           ReferencedContainer = "container:\(container)">
                        </BuildableReference>
                     </TestableReference>

            """
        }.joined()
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme
           LastUpgradeVersion = "1620"
           version = "1.7">
           <TestAction
              buildConfiguration = "Debug"
              selectedDebuggerIdentifier = "Xcode.DebuggerFoundation.Debugger.LLDB"
              selectedLauncherIdentifier = "Xcode.DebuggerFoundation.Launcher.LLDB"
              shouldUseLaunchSchemeArgsEnv = "YES"
              shouldAutocreateTestPlan = "YES">
              <Testables>
        \(references)      </Testables>
           </TestAction>
        </Scheme>

        """
    }

    static let packageWithTests = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"GameKit\", targets: [.target(name: \"GameKit\"), .testTarget(name: \"GameKitTests\", dependencies: [\"GameKit\"])])\n"

    /// `App/Game.xcodeproj` (tuist's real project file) whose shared scheme runs the app's unit
    /// bundles and the test targets of the root's package (`container:..`) and of a local package
    /// (`container:../Packages/Physics`), run by the team's `make test-app`: every file is read
    /// from its own folder (no "./project.pbxproj: cannot be read"), and the unit stage is the
    /// team's xcodebuild command, not a root `swift test`.
    @Test func aProjectInASubfolderIsReadAndRunAsTheTeamRunsIt() throws {
        let repo = try GitRepository()
        let project = Self.projects + "/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests/App.xcodeproj/project.pbxproj"
        try repo.write(try String(contentsOfFile: project, encoding: .utf8), to: "App/Game.xcodeproj/project.pbxproj")
        try repo.write(Self.scheme([("F806E0D32D54DD3C0058A673", "AppTests", "Game.xcodeproj"), ("F806E1092D54DD7B0058A673", "AppFrameworkTests", "Game.xcodeproj"),
                                    ("GameKitTests", "GameKitTests", ".."), ("PhysicsTests", "PhysicsTests", "../Packages/Physics")]),
                       to: "App/Game.xcodeproj/xcshareddata/xcschemes/Game.xcscheme")
        try repo.write(Self.packageWithTests, to: "Package.swift")
        try repo.write(Self.packageWithTests.replacingOccurrences(of: "GameKit", with: "Physics"), to: "Packages/Physics/Package.swift")
        try repo.write("""
        .PHONY: test-app
        test-app:
        \tset -o pipefail && xcodebuild test -project App/Game.xcodeproj -scheme Game \\
        \t\t-destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2' -skipMacroValidation | xcpretty

        """, to: "Makefile")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(!result.standardError.contains("cannot be read") && !result.standardError.contains("project.pbxproj"), "\(result)")
        #expect(result.standardOutput.hasPrefix("prepush: wrote .prepush.yml (unit: xcodebuild test -scheme Game (unit bundles: 4); ui: none (no scheme tests a UI-testing bundle); 1 nested package with tests; destination from Makefile:3; following the team's xcodebuild commands at Makefile:3)\n"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  unit:\n    # Scheme Game (App/Game.xcodeproj) tests unit bundles AppTests, AppFrameworkTests, GameKitTests, PhysicsTests.\n    # It runs the test targets of the root's Package.swift too (the project uses the package): no swift test stage of its own.\n"), "\(file)")
        #expect(file.contains("    # The team's command at Makefile:3 (make test-app) gives its flags: -skipMacroValidation; its formatter pipe is left out"), "\(file)")
        #expect(file.contains("    run: rm -rf .build/prepush-unit.xcresult && xcodebuild test -project App/Game.xcodeproj -scheme Game -skipMacroValidation -destination 'platform=iOS Simulator,name=iPhone 16,OS=18.2' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(!file.contains("swift test --event-stream-output-path"), "the scheme runs the root package's tests: \(file)")
        #expect(!file.contains("#   make test-app"), "the adopted command is not offered again: \(file)")
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0 && config.standardOutput.contains("unit"), "\(config)")
    }

    /// Where the team's CI runs tests, a nested package whose tests none of its commands runs is a
    /// comment, not a stage (ugglan's LocalModules, home-assistant's HADesignSystem, Element X's
    /// BuildExtensions): the team chose not to run them. A package CI does test stays a stage: by a
    /// `swift test` whose line names its folder (home-assistant's `push_ci.yml` runs PushServer's in
    /// a container, `-w /workspace/Sources/PushServer`), or by the step's `working-directory:`. A
    /// folder whose name another begins with (`Sources/Push`) is not named by it.
    @Test func nestedPackagesTheTeamsCIDoesNotTestAreComments() throws {
        let repo = try GitRepository()
        for folder in ["Sources/PushServer", "Sources/Push", "Sources/DesignSystem", "Packages/Tools", "Packages/Views"] {
            try repo.write(Self.packageWithTests, to: folder + "/Package.swift")
        }
        // A package whose tests compare snapshots (Element X's real PreviewTests.swift, `import
        // SnapshotTesting`) is a comment even though the team's CI runs it: its images are one simulator's.
        let preview = try String(contentsOfFile: Fixtures.own + "/ci-scripts/element-x/PreviewTests/Sources/PreviewTests.swift", encoding: .utf8)
        try repo.write(preview, to: "Packages/Views/Tests/GameKitTests/PreviewTests.swift")
        try repo.write("""
        name: Push
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - uses: actions/checkout@v4
              - name: Run tests
                run: docker run --rm -v "$PWD:/workspace" -w /workspace/Sources/PushServer swift:5.8-jammy swift test
          tools:
            runs-on: macos-15
            steps:
              - name: Tools
                working-directory: Packages/Tools
                run: swift test
              - name: Views
                run: swift test --package-path Packages/Views
              - name: App
                run: xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'

        """, to: ".github/workflows/ci.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("; 5 nested packages with tests (2 the team's CI does not run, 1 comparing snapshots: comments);"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  package-pushserver:\n    # Sources/PushServer/Package.swift declares test targets.\n    run: swift test\n"), "\(file)")
        #expect(file.contains("  package-tools:\n"), "\(file)")
        for (folder, name) in [("Sources/Push", "package-push"), ("Sources/DesignSystem", "package-designsystem")] {
            #expect(file.contains("  # \(folder)/Package.swift declares test targets, which no command init read in the team's CI runs: no stage; to run them on each push:\n  # \(name):\n  #   run: swift test\n  #   workingDirectory: \(folder)\n"), "\(file)")
        }
        #expect(file.contains("  # Packages/Views/Package.swift declares test targets that compare snapshots (Packages/Views/Tests/GameKitTests/PreviewTests.swift imports a snapshot library), which pass only on the simulator their images were recorded on: no stage; to run them on each push, with that simulator as the destination:\n  # package-views:\n  #   run: swift test\n"), "\(file)")
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0 && config.standardOutput.contains("package-pushserver") && !config.standardOutput.contains("package-designsystem"), "\(config)")
        #expect(!config.standardOutput.contains("package-views"), "\(config)")
    }

    /// A workflow's `${{ matrix.… }}` and `${{ env.… }}` are expanded from the job's matrix and the
    /// environments where they are literal; a command with an expression that has no value there
    /// (`secrets.…`) is said to need one, not offered as a command to paste.
    @Test func workflowExpressionsAreExpandedOrSaidToNeedAValue() throws {
        let repo = try GitRepository()
        try repo.write(Self.packageWithTests, to: "Package.swift")
        try repo.write("""
        name: Tests
        on: [pull_request]
        env:
          LANE: screenshots_test
        jobs:
          packages:
            runs-on: macos-15
            strategy:
              matrix:
                package: ["Kit", "Physics"]
            steps:
              - uses: actions/checkout@v4
              - run: swift test --package-path Packages/${{ matrix.package }}
          snapshots:
            runs-on: macos-15
            env:
              DEVICE: iPhone 16
            steps:
              - run: bundle exec fastlane ${{ env.LANE }} device:"${{ env.DEVICE }}" token:${{ secrets.SNAPSHOT_TOKEN }}

        """, to: ".github/workflows/tests.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  #   swift test --package-path Packages/Kit    (.github/workflows/tests.yml:13)\n  #   swift test --package-path Packages/Physics    (.github/workflows/tests.yml:13)\n"), "\(file)")
        #expect(file.contains("  #   not runnable as written, it needs a value for ${{ secrets.SNAPSHOT_TOKEN }}: bundle exec fastlane screenshots_test device:\"iPhone 16\" token:${{ secrets.SNAPSHOT_TOKEN }}    (.github/workflows/tests.yml:19)\n"), "\(file)")
        #expect(!file.contains("matrix.package") && !file.contains("env.LANE"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Identifiers set on a container, a text and an image tag no control: the comment counts the
    /// controls that have one, never more than there are ("53 of 41 controls").
    @Test func theIdentifierCommentCountsTaggedControls() throws {
        let repo = try GitRepository()
        try repo.write(Self.packageWithTests, to: "Package.swift")
        try repo.write("""
        import SwiftUI
        struct Home: View {
            var body: some View {
                VStack {
                    Text("Welcome").accessibilityIdentifier("home_title")
                    Image("hero").accessibilityIdentifier("home_hero")
                    Button("Play") { }.accessibilityIdentifier("home_play")
                    Button("Settings") { }.accessibilityIdentifier("home_settings")
                    Toggle("Sound", isOn: $sound)
                }
                .accessibilityIdentifier("home_screen")
            }
        }

        """, to: "App/Views/Home.swift")
        _ = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment).checked()
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    # missing-identifier and identifier-convention follow the team's practice: here 2 of 3 controls\n"), "\(file)")
        _ = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).checked()
    }

    /// Wikipedia's real schemes, project targets, test plan and workflows: what the unit scheme and
    /// the UI test plan skip is given to xcodebuild as `-skip-testing:Bundle/Class[/test]`, and said.
    @Test func skippedTestsAreAppliedToTheStage() throws {
        let repo = try GitRepository()
        let source = Self.projects + "/wikimedia__wikipedia-ios"
        for file in ["Wikipedia.xcodeproj/xcshareddata/xcschemes/Wikipedia.xcscheme", "Wikipedia.xcodeproj/xcshareddata/xcschemes/WikipediaUITests.xcscheme",
                     "Test Plans/UITests.xctestplan", ".github/workflows/run_unit_tests.yml", ".github/workflows/run_ui_tests.yml"] {
            try repo.write(try String(contentsOfFile: source + "/" + file, encoding: .utf8), to: file)
        }
        // The excerpt is the project file's native targets section, verbatim; it is given the frame it lacks.
        let excerpt = try String(contentsOfFile: source + "/Wikipedia.xcodeproj/project.pbxproj.excerpt", encoding: .utf8)
        try repo.write("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n" + excerpt + "\n\t};\n}\n", to: "Wikipedia.xcodeproj/project.pbxproj")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardError.isEmpty, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    # The scheme skips 10 classes or tests (WikipediaUnitTests/ArticleCacheReadingManualTests, WikipediaUnitTests/ArticleManualPerformanceTests, WikipediaUnitTests/ArticleViewControllerTests, …): the run leaves them out with -skip-testing.\n"), "\(file)")
        #expect(file.contains("-scheme Wikipedia -skip-testing:WikipediaUnitTests/ArticleCacheReadingManualTests "), "\(file)")
        #expect(file.contains(" -skip-testing:WikipediaUnitTests/MWKHistoryListPerformanceTests/testReadPerformance "), "\(file)")
        #expect(file.contains("    # The scheme and its test plan Test Plans/UITests.xctestplan skip 1 class or test (WikipediaUITests/WikipediaUITests): the run leaves them out with -skip-testing.\n"), "\(file)")
        #expect(file.contains("-scheme WikipediaUITests -testPlan UITests -skip-testing:WikipediaUITests/WikipediaUITests -destination"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// A UI stage only for a UI-testing bundle an iPhone simulator runs: a watchOS bundle
    /// (`SDKROOT = watchos` in its target's configurations; tuist's real project file given one) is
    /// named in a comment, and so is a screenshot scheme fastlane's Snapfile runs and the team's CI
    /// does not; the UI stage is XcodeGen's real `App_iOS Test`, restricted to its UI bundle.
    @Test func uiStagesOnlyForBundlesAnIPhoneRunsAndNotForScreenshots() throws {
        let repo = try GitRepository()
        let xcodegen = Self.projects + "/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject/Project.xcodeproj"
        for file in ["project.pbxproj", "xcshareddata/xcschemes/App_iOS Test.xcscheme"] {
            try repo.write(try String(contentsOfFile: xcodegen + "/" + file, encoding: .utf8), to: "Project.xcodeproj/" + file)
        }
        try repo.write(Self.scheme([("F674B2CFC4738EEC49BAD0DA", "App_iOS_UITests", "Project.xcodeproj")]),
                       to: "Project.xcodeproj/xcshareddata/xcschemes/AppScreenshots.xcscheme")
        try repo.write("# Snapfile\nscheme(\"AppScreenshots\")\ndevices([\"iPhone 16 Pro Max\"])\n", to: "fastlane/Snapfile")
        var watch = try String(contentsOfFile: Self.projects + "/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests/App.xcodeproj/project.pbxproj", encoding: .utf8)
        // AppFrameworkTests made a watchOS UI-testing bundle: its product type, and SDKROOT in both its configurations.
        let target = try #require(watch.range(of: "F806E1092D54DD7B0058A673 /* AppFrameworkTests */ = {"))
        let type = try #require(watch.range(of: "com.apple.product-type.bundle.unit-test", range: target.upperBound..<watch.endIndex))
        watch.replaceSubrange(type, with: "com.apple.product-type.bundle.ui-testing")
        for configuration in ["F806E11E2D54DD7C0058A673 /* Debug */", "F806E11F2D54DD7C0058A673 /* Release */"] {
            let header = "\t\t\(configuration) = {\n\t\t\tisa = XCBuildConfiguration;\n\t\t\tbuildSettings = {\n"
            #expect(watch.contains(header))
            watch = watch.replacingOccurrences(of: header, with: header + "\t\t\t\tSDKROOT = watchos;\n")
        }
        try repo.write(watch, to: "Watch/Watch.xcodeproj/project.pbxproj")
        try repo.write(Self.scheme([("F806E1092D54DD7B0058A673", "WatchUITests", "Watch.xcodeproj")]), to: "Watch/Watch.xcodeproj/xcshareddata/xcschemes/WatchUITests.xcscheme")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("ui: xcodebuild test -scheme App_iOS Test (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("xcodebuild test -project Project.xcodeproj -scheme 'App_iOS Test' -only-testing:App_iOS_UITests -destination \"$destination\" -resultBundlePath .build/prepush-ui.xcresult\n"), "\(file)")
        #expect(file.contains("  # Scheme WatchUITests tests bundles for another platform, WatchUITests (watchos): an iPhone simulator cannot run them, so no stage does.\n"), "\(file)")
        #expect(file.contains("  # Scheme AppScreenshots takes screenshots (fastlane snapshot runs it (fastlane/Snapfile:2)) and no command init read in the team's CI runs it: no stage of its own (another scheme's stage runs that bundle); `fastlane snapshot` or the scheme itself makes them.\n"), "\(file)")
        #expect(!file.contains("-scheme WatchUITests") && !file.contains("-scheme AppScreenshots"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Element X's CI runs its tests through its own Swift tool (Tests/Fixtures/ci-scripts/element-x,
    /// real files): `unit-tests` runs the schemes UnitTests and PreviewTests, whose bundle compares
    /// snapshots. Here on tuist's real project file: UnitTests tests AppTests, PreviewTests tests
    /// AppFrameworkTests, which holds Element X's PreviewTests.swift (`import SnapshotTesting`). The
    /// unit stage is UnitTests and says the tool runs it; PreviewTests is offered in a comment that
    /// says its images belong to the team's simulator, never made a stage on another.
    @Test func schemesTheTeamsSwiftToolRunsAreTheTeamsAndSnapshotsAreNoStage() throws {
        let repo = try GitRepository()
        let project = Self.projects + "/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests/App.xcodeproj/project.pbxproj"
        try repo.write(try String(contentsOfFile: project, encoding: .utf8), to: "App.xcodeproj/project.pbxproj")
        try repo.write(Self.scheme([("F806E0D32D54DD3C0058A673", "AppTests", "App.xcodeproj")]), to: "App.xcodeproj/xcshareddata/xcschemes/UnitTests.xcscheme")
        try repo.write(Self.scheme([("F806E1092D54DD7B0058A673", "AppFrameworkTests", "App.xcodeproj")]), to: "App.xcodeproj/xcshareddata/xcschemes/PreviewTests.xcscheme")
        let elementX = Fixtures.own + "/ci-scripts/element-x/"
        for file in ["Package.swift", "Tools/Sources/Commands/CI/CI.swift", "Tools/Sources/Commands/CI/UnitTests.swift", "Tools/Sources/Commands/CI/PreviewTests.swift",
                     "Tools/Sources/Commands/CI/UITests.swift", ".github/workflows/unit-tests.yml"] {
            try repo.write(try String(contentsOfFile: elementX + file, encoding: .utf8), to: file)
        }
        try repo.write(try String(contentsOfFile: elementX + "PreviewTests/Sources/PreviewTests.swift", encoding: .utf8), to: "AppFrameworkTests/PreviewTests.swift")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme UnitTests (unit bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    # The team's CI runs this scheme through its Swift tool (Tools/Sources/Commands/CI/UnitTests.swift:27): swift run -q tools ci unit-tests    (.github/workflows/unit-tests.yml:33); what the tool sets up around the run is not done here.\n"), "\(file)")
        #expect(file.contains("  # Scheme PreviewTests tests unit bundles AppFrameworkTests, which the team's CI runs through its Swift tool (Tools/Sources/Commands/CI/PreviewTests.swift:11, run by swift run -q tools ci unit-tests at .github/workflows/unit-tests.yml:33): no stage"), "\(file)")
        #expect(file.contains(": no stage (AppFrameworkTests compares snapshots, recorded on the simulator the team's CI sets up: give that destination, on another the images differ); to run it on each push too:\n  # unit-previewtests:\n"), "\(file)")
        #expect(file.contains("  #   run: destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit-previewtests.xcresult && xcodebuild test -project App.xcodeproj -scheme PreviewTests -destination "), "\(file)")
        #expect(!file.contains("\n  unit-previewtests:"), "\(file)")
        #expect(!file.contains("\n    run: destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-ui"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }
}
