import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush init` writes a configuration from what the repository holds, and what it writes is valid.
@Suite struct InitTests {
    /// XcodeGen's test project as a team keeps it (its schemes, project file, workspace, test plan
    /// and spec, copied from shared/fixtures), with a workflow that names its simulator: the stages
    /// come from what the schemes test, the destination from the workflow.
    @Test func theStagesComeFromWhatTheSchemesTest() throws {
        let repo = try GitRepository()
        let source = Fixtures.shared + "/xcode-projects/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject"
        for file in ["Project.xcodeproj/project.pbxproj", "Project.xcodeproj/xcshareddata/xcschemes/App_iOS Test.xcscheme",
                     "Project.xcodeproj/xcshareddata/xcschemes/App_macOS.xcscheme", "Workspace.xcworkspace/contents.xcworkspacedata",
                     "App_iOS/App_iOS.xctestplan", "project.yml"] {
            try repo.write(try String(contentsOfFile: source + "/" + file, encoding: .utf8), to: file)
        }
        try repo.write("""
        name: CI
        on: [pull_request]
        jobs:
          test:
            runs-on: macos-15
            steps:
              - uses: actions/checkout@v4
              - run: xcodegen generate
              - run: make test
              - run: |
                  set -o pipefail && xcodebuild test -workspace Workspace.xcworkspace -scheme "App_iOS Test" \\
                    -skipMacroValidation -configuration "Test Debug" -destination 'platform=iOS Simulator,name=iPhone 15,OS=17.5' \\
                    -derivedDataPath "$RUNNER_TEMP/dd" | xcbeautify

        """, to: ".github/workflows/ci.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("prepush: wrote .prepush.yml (unit: xcodebuild test -scheme App_iOS Test (unit bundles: 1); ui: xcodebuild test -scheme App_iOS Test (UI bundles: 1); destination from .github/workflows/ci.yml:11; following the team's xcodebuild commands at .github/workflows/ci.yml:11; the team's other test commands named in comments (1))\n"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace Workspace.xcworkspace -scheme 'App_iOS Test' -skipMacroValidation -configuration 'Test Debug' -only-testing:App_iOS_Tests -destination 'platform=iOS Simulator,name=iPhone 15,OS=17.5' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("-scheme 'App_iOS Test' -skipMacroValidation -configuration 'Test Debug' -only-testing:App_iOS_UITests -destination 'platform=iOS Simulator,name=iPhone 15,OS=17.5' -resultBundlePath .build/prepush-ui.xcresult\n"), "\(file)")
        #expect(file.contains("    # Scheme App_iOS Test (Workspace.xcworkspace) tests unit bundles App_iOS_Tests and UI bundles App_iOS_UITests.\n"))
        #expect(file.contains("  # The project is generated (project.yml): generate it first in each xcodebuild stage's run.\n"))
        #expect(file.contains("    # The destination is the one .github/workflows/ci.yml:11 uses.\n"))
        #expect(file.contains("    # The team's command at .github/workflows/ci.yml:11 gives its flags: -skipMacroValidation -configuration 'Test Debug'; left out, as they name the CI's variables: -derivedDataPath $RUNNER_TEMP/dd; its formatter pipe is left out (prepush reads xcodebuild's own output and result bundle).\n"), "\(file)")
        #expect(file.contains("  # The team's own files run these for tests; a stage's run can be one of them instead:\n  #   make test    (.github/workflows/ci.yml:9)\n  unit:\n"), "\(file)")
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0, "\(config)")
    }

    /// A team that commits only its XcodeGen spec (the project is generated on CI): the stages come
    /// from the spec's schemes and test targets, and generate the project first.
    @Test func aGeneratedProjectGetsItsStagesFromTheSpec() throws {
        let repo = try GitRepository()
        let spec = Fixtures.shared + "/xcode-projects/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject/project.yml"
        try repo.write(try String(contentsOfFile: spec, encoding: .utf8), to: "App/project.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme App_iOS (unit bundles: 1); ui: xcodebuild test -scheme App_iOS (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: xcodegen generate --spec App/project.yml && destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit.xcresult && xcodebuild test -project App/Project.xcodeproj -scheme App_iOS -only-testing:App_iOS_Tests -destination \"$destination\" -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("    # The destination is the newest available iPhone simulator, found when the stage runs (`prepush destination`).\n"))
        #expect(file.contains("    # The project is generated from App/project.yml; xcodegen must be on PATH.\n"))
        #expect(!file.contains("  # The project is generated (App/project.yml)"), "said once, by the stages: \(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Tuist's manifest: the stage generates the workspace first (`tuist generate`), and says which
    /// bundle an iPhone destination cannot run.
    @Test func aTuistProjectIsGeneratedFirst() throws {
        let repo = try GitRepository()
        let source = Fixtures.shared + "/xcode-projects/tuist__tuist__app_with_test_plan/cli/Fixtures/app_with_test_plan"
        for file in ["Project.swift", "All.xctestplan"] { try repo.write(try String(contentsOfFile: source + "/" + file, encoding: .utf8), to: file) }
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("(unit: xcodebuild test -scheme App (unit bundles: 2); ui: none (no scheme tests a UI-testing bundle)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: tuist generate --path . --no-open && destination=$(\"${PREPUSH_BIN:-prepush}\" destination) && rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace App.xcworkspace -scheme App -destination \"$destination\" -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("    # MacFrameworkTests is built for macOS only, which an iPhone destination cannot run: give it a stage with -destination 'platform=macOS' -only-testing:MacFrameworkTests.\n"))
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)

        // Packages Tuist 4 resolves (`Tuist/Package.swift`, taskchamp's) are installed before generating.
        try repo.write("// swift-tools-version: 5.9\nimport PackageDescription\nlet package = Package(name: \"App\", dependencies: [])\n", to: "Tuist/Package.swift")
        _ = try InProcessCLI.run(["init", "--force"], in: repo.path, environment: repo.environment)
        let installed = try #require(repo.root.read("work/.prepush.yml"))
        #expect(installed.contains("    run: tuist install && tuist generate --path . --no-open && destination="), "\(installed)")
    }

    /// A root package with test targets is `swift test`; a nested one with tests gets its own stage in
    /// its folder; a project whose only scheme tests nothing gets no UI stage, and the file says why.
    @Test func packagesGetStagesWhereTheirTestsAre() throws {
        let repo = try GitRepository()
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"X\", targets: [.target(name: \"X\"), .testTarget(name: \"XTests\", dependencies: [\"X\"])])\n"
        try repo.write(manifest, to: "Package.swift")
        try repo.write(manifest, to: "Packages/Chat/Package.swift")
        try repo.write("// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"Tools\", targets: [.executableTarget(name: \"lint\")])\n", to: "Tools/Package.swift")
        try repo.write("<?xml version=\"1.0\"?>\n<Scheme><LaunchAction/></Scheme>\n", to: "Shop.xcodeproj/xcshareddata/xcschemes/Shop Widget.xcscheme")
        try repo.write("scenarios:\n  - story: US1\n    priority: P1\n    description: Buy\n    test: test_cart_buy\n", to: ".prepush/scenarios.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("prepush: wrote .prepush.yml (unit: swift test; ui: none (no scheme tests a UI-testing bundle); 1 nested package with tests; the scenario catalog .prepush/scenarios.yml)\n"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: swift test --event-stream-output-path .build/prepush-events.jsonl\n"))
        #expect(file.contains("  package-chat:\n    # Packages/Chat/Package.swift declares test targets.\n    run: swift test\n    workingDirectory: Packages/Chat\n"), "\(file)")
        #expect(!file.contains("Tools"), "a package without tests gets no stage")
        #expect(file.contains("  # ui:                         # no shared scheme tests a UI-testing bundle\n"), "\(file)")
        #expect(file.contains("traceability:\n  catalog: .prepush/scenarios.yml\n"))
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0 && config.standardOutput.contains("package-chat"), "\(config)")
    }

    /// Run from a subfolder, init says where it wrote; with no Swift project at all, it writes
    /// nothing and says so.
    @Test func aSubfolderAndARepositoryWithoutSwift() throws {
        let repo = try GitRepository()
        let nothing = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(nothing.status == 2 && nothing.standardError.hasPrefix("error: no Swift package, Xcode project or workspace, XcodeGen or Tuist spec found in "), "\(nothing)")
        #expect(!repo.exists(".prepush.yml"))
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("x\n", to: "App/README.md")
        let sub = try InProcessCLI.run(["init"], in: repo.path + "/App", environment: repo.environment)
        #expect(sub.status == 0 && sub.standardOutput.hasPrefix("prepush: wrote \(repo.path)/.prepush.yml (unit: none"), "\(sub)")
        #expect(repo.exists(".prepush.yml"))
    }

    /// An app with findings today: init records them in a baseline and points the file at it, so
    /// the first full check passes and a new view's finding is still reported; a baseline already
    /// there is the team's and is kept as it is.
    @Test func theFirstFullCheckAfterInitPasses() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("import SwiftUI\nstruct Cart: View { var body: some View { VStack { Button { } label: { Image(systemName: \"trash\") }\nImage(\"hero\") } } }\n", to: "App/Cart.swift")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("; 2 accessibility findings of today recorded in .prepush/a11y-baseline.json)\n"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  # The 2 findings the views had when prepush init ran are recorded here: only findings not in it are reported.\n"), "\(file)")
        #expect(file.contains("\n  baseline: .prepush/a11y-baseline.json\n"), "\(file)")
        let first = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(first.status == 0 && !first.standardOutput.contains("error:"), "\(first)")
        try repo.write("import SwiftUI\nstruct Pay: View { var body: some View { Button { } label: { Image(systemName: \"creditcard\") } } }\n", to: "App/Pay.swift")
        let next = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(next.status == 1 && next.standardOutput.contains("App/Pay.swift:2:") && !next.standardOutput.contains("App/Cart.swift"), "\(next)")

        try repo.write("{\"version\": 2, \"findings\": []}\n", to: ".prepush/a11y-baseline.json")
        _ = try InProcessCLI.run(["init", "--force"], in: repo.path, environment: repo.environment).checked()
        #expect(repo.root.read("work/.prepush/a11y-baseline.json") == "{\"version\": 2, \"findings\": []}\n", "the team's baseline is kept")
        #expect(try #require(repo.root.read("work/.prepush.yml")).contains("  # .prepush/a11y-baseline.json was here already: only findings not in it are reported.\n  # After"))
    }

    /// `init` turns no identifier rule on (they follow the practice by themselves) and says what it
    /// measured: the controls with an identifier, the UI tests' queries, the scheme of the identifiers.
    @Test func theIdentifierLinesSayWhatThePracticeIs() throws {
        let none = try GitRepository()
        try none.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try none.write("import SwiftUI\nstruct A: View { var body: some View { Button(\"Go\") { } } }\n", to: "App/A.swift")
        _ = try InProcessCLI.run(["init"], in: none.path, environment: none.environment).checked()
        let off = try #require(none.root.read("work/.prepush.yml"))
        #expect(off.contains("    # .accessibilityIdentifier and it has no UI tests, so they report nothing. To require identifiers anyway:\n    # missing-identifier: error\n"), "\(off)")
        #expect(!off.contains("\n    missing-identifier: error"), "\(off)")
        let quiet = try InProcessCLI.run(["a11y", "--all"], in: none.path, environment: none.environment)
        #expect(quiet.status == 0 && quiet.standardOutput.contains("1 missing-identifier finding not reported: the repository's views set no .accessibilityIdentifier"), "\(quiet)")

        let pascal = try GitRepository()
        try pascal.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try pascal.write("""
        import XCTest
        final class RoomUITests: XCTestCase {
            func testSend() { let app = XCUIApplication(); app.launch(); app.buttons["SendButton"].tap() }
        }

        """, to: "UITests/RoomUITests.swift")
        try pascal.write("""
        import SwiftUI
        struct Room: View {
            var body: some View {
                Button("Send") { }.accessibilityIdentifier("SendButton")
                Button("Attach") { }.accessibilityIdentifier("AttachButton")
                TextField("Message", text: $text).accessibilityIdentifier("ComposerField")
                Toggle("Mute", isOn: $muted).accessibilityIdentifier("MuteToggle")
            }
        }

        """, to: "App/Room.swift")
        _ = try InProcessCLI.run(["init"], in: pascal.path, environment: pascal.environment).checked()
        let on = try #require(pascal.root.read("work/.prepush.yml"))
        #expect(on.contains("    # missing-identifier and identifier-convention follow the team's practice: here 4 of 4 controls\n    # have an identifier and its UI tests query 1 identifier (UITests/RoomUITests.swift);"), "\(on)")
        #expect(on.contains("  # Identifiers here are PascalCase words run together (4 of 4); identifier-convention holds new ones to that.\n"), "\(on)")
        #expect(!on.contains("\n    missing-identifier: error") && !on.contains("identifierPattern:"), "\(on)")
        let check = try InProcessCLI.run(["a11y", "--all"], in: pascal.path, environment: pascal.environment)
        #expect(check.status == 0 && !check.standardOutput.contains("identifier-convention"), "\(check)")
        _ = try InProcessCLI.run(["config"], in: pascal.path, environment: pascal.environment).checked()
    }

    @Test func anExistingFileIsKeptUnlessForced() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("verbose: true\n", to: ".prepush.yml")
        let refused = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(refused.status == 2)
        #expect(refused.standardError == "error: .prepush.yml already exists; prepush init writes over it only with --force\n")
        #expect(repo.root.read("work/.prepush.yml") == "verbose: true\n")
        let forced = try InProcessCLI.run(["init", "--force"], in: repo.path, environment: repo.environment)
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.standardOutput.hasPrefix("prepush: wrote .prepush.yml (unit: none (no scheme tests a unit-test bundle); ui: none (no scheme tests a UI-testing bundle))\n"), "\(forced)")
        let config = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0, "\(config)")
    }

    @Test func aWorkspaceWithoutSharedSchemesSaysWhatToFinish() throws {
        let repo = try GitRepository()
        try repo.write("<Workspace/>", to: "App.xcworkspace/contents.xcworkspacedata")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("ui: none (no shared scheme)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("# stages:\n") && file.contains("  # ui:                         # no shared scheme found (Xcode: Manage Schemes → Shared)\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }
}
