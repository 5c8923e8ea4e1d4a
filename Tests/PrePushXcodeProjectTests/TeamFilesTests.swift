import Foundation
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// What `init` reads of the team's files holds only text: a binary file in a CI folder (ugglan keeps
/// 35 snapshot PNGs in `ci_scripts/__Snapshots__`) names no command, even where its bytes spell one.
@Suite struct TeamFilesTests {
    @Test func aBinaryFileInACIFolderHoldsNoCommand() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-files")
        try root.write("xcodebuild test -scheme App -skipMacroValidation -destination 'platform=iOS Simulator,name=iPhone 15'\n", to: "ci_scripts/test.sh")
        // A PNG's signature and a NUL byte, then bytes that read as commands.
        try root.write("\u{89}PNG\r\n\u{1A}\n\u{0}\u{0}\nxcodebuild test -scheme Ghost -skipPackagePluginValidation\ntuist generate --path Ghost\n",
                       to: "ci_scripts/__Snapshots__/shot.png")
        #expect(TeamCommands.xcodebuildTests(root: root.path).map(\.schemes) == [["App"]])
        #expect(TeamCommands.validationFlags(root: root.path).map(\.flag) == ["-skipMacroValidation"])
        #expect(TeamCommands.generatorInvocations(root: root.path).isEmpty)
        #expect(TeamCommands.destination(root: root.path)?.value == "platform=iOS Simulator,name=iPhone 15")

        // The same bytes without the NUL are text, and are read.
        try root.write("xcodebuild test -scheme Ghost -skipPackagePluginValidation\ntuist generate --path Ghost\n", to: "ci_scripts/__Snapshots__/shot.png")
        #expect(TeamCommands.xcodebuildTests(root: root.path).flatMap(\.schemes).sorted() == ["App", "Ghost"])
        #expect(TeamCommands.generatorInvocations(root: root.path).map(\.path) == ["Ghost"])
    }

    @Test func aFileWithCRLFLineEndsHasItsLines() throws {
        // A workflow saved on Windows: Swift reads "\r\n" as one Character, so without care the
        // whole file was one line and its commands were never found.
        let root = try TemporaryDirectory(prefix: "prepush-team-crlf")
        try root.write("jobs:\r\n  test:\r\n    steps:\r\n      - run: xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 15'\r\n      - run: make test\r\n",
                       to: ".github/workflows/ci.yml")
        try root.write("test:\r\n\txcodebuild test -scheme Lib\r\n", to: "Makefile")
        #expect(TeamCommands.xcodebuildTests(root: root.path).flatMap(\.schemes).sorted() == ["App", "Lib"])
        #expect(TeamCommands.destination(root: root.path)?.value == "platform=iOS Simulator,name=iPhone 15")
        #expect(TeamCommands.testCommands(root: root.path).map(\.text).contains("make test"))
        #expect(PackageManifest.unguardedUIKitImport(in: "import SwiftUI\r\nimport UIKit\r\n") == 2)
    }

    /// A Makefile's commands name its variables; they are read with the values make gives them when
    /// nobody sets one (Immuni's `xcodegen generate --spec "${PROJECT_YAML_FILE}"`, the spec chosen by
    /// `ifeq ($(EXCLUDE_DEV_TOOLING),)`): the default branch counts, a branch make takes only with
    /// something set does not, and a value under a condition init cannot decide is not guessed.
    @Test func aMakefilesCommandsAreReadWithItsOwnVariables() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-make")
        try root.write("""
        ifeq ($(EXCLUDE_DEV_TOOLING),)
        	export PROJECT_YAML_FILE := project_debug.yml
        else
        	export PROJECT_YAML_FILE := project.yml
        endif
        ifdef CI
        DESTINATION := platform=iOS Simulator,name=iPhone 8
        else
        DESTINATION ?= platform=iOS Simulator,name=iPhone 16
        endif
        ifeq ($(shell uname),Darwin)
        PLAN := Mac
        endif
        SCHEME = App
        SCHEME += Kit

        app: export APPSTORE_ID = 1
        app:
        	swiftgen
        	xcodegen generate --spec "${PROJECT_YAML_FILE}"

        test:
        	xcodebuild test -scheme "$(firstword $(SCHEME))" -destination '$(DESTINATION)' -testPlan $(PLAN) DIR=$$HOME
        	xcodebuild test -scheme Lib -destination '$(DESTINATION)'
        """, to: "Makefile")
        let generators = TeamCommands.generatorInvocations(root: root.path)
        #expect(generators.map(\.spec) == ["project_debug.yml"])
        // The target's recipe makes its sources first: the generation a stage runs does too.
        #expect(generators.map(\.run) == ["swiftgen && xcodegen generate --spec project_debug.yml"])
        // The spec the command names includes the other and takes its name: its scheme is that spec's.
        try root.write("name: Immuni\ntargets:\n  Immuni:\n    type: application\n    platform: iOS\n    scheme:\n      testTargets: [AppTests]\n"
                       + "  AppTests:\n    type: bundle.unit-test\n    platform: iOS\n", to: "project.yml")
        try root.write("include:\n  - project.yml\ntargets:\n  DebugMenu:\n    type: framework\n    platform: iOS\n", to: "project_debug.yml")
        let scheme = XcodeProjectSurvey(root: root.path, generators: generators).schemes.first { $0.name == "Immuni" }
        #expect(scheme?.generatedFrom == "project_debug.yml" && scheme?.unitBundles == ["AppTests"], "\(String(describing: scheme))")
        #expect(TeamCommands.destination(root: root.path)?.value == "platform=iOS Simulator,name=iPhone 16")
        let expanded = MakeVariables.expanded(try String(contentsOfFile: root.path + "/Makefile", encoding: .utf8)).split(separator: "\n")
        // A make function and an undecided variable stay as written; the recipe's `$$` is the shell's `$`.
        #expect(expanded.last { $0.contains("-testPlan") }?.hasSuffix("-testPlan $(PLAN) DIR=$HOME") == true)
        #expect(MakeVariables.expanded("SCHEME = App\nSCHEME += Kit\nx:\n\techo $(SCHEME)").hasSuffix("\techo App Kit"))
        let tests = TeamCommands.xcodebuildTests(root: root.path)
        #expect(tests.map(\.schemes) == [["Lib"]] && tests.first?.destination == "platform=iOS Simulator,name=iPhone 16", "\(tests)")
    }

    /// A command offered from a workflow runs where the step runs it (wallabag's `cd SharedLib` then
    /// `swift test`, Polkadot Vault's `cd ios` then `bundle exec fastlane run_unit_tests`, a step's
    /// `working-directory:`); the validation switches of a lane file a subfolder's Fastfile imports
    /// (Polkadot Vault's `ios/fastlane/lanes/lane_tests.rb`) are the team's too.
    @Test func aWorkflowCommandIsOfferedInTheFolderItRunsIn() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-folder")
        try root.write("""
        jobs:
          test:
            steps:
              - name: Run SharedLib tests
                run: |
                  cd SharedLib
                  swift test
              - name: Run unit tests
                working-directory: ios
                run: bundle exec fastlane run_unit_tests
              - run: cd Kit && swift test --parallel
              - run: swift test --package-path Other
        """, to: ".github/workflows/ci.yml")
        try root.write("import \"lanes/lane_tests.rb\"\n", to: "ios/fastlane/Fastfile")
        try root.write("lane :run_unit_tests do\n  run_tests(scheme: \"App\", xcargs: \"-skipPackagePluginValidation\")\nend\n", to: "ios/fastlane/lanes/lane_tests.rb")
        let commands = TeamCommands.testCommands(root: root.path).map(\.text)
        #expect(commands == ["cd SharedLib && swift test", "cd ios && bundle exec fastlane run_unit_tests", "cd Kit && swift test --parallel",
                             "swift test --package-path Other"], "\(commands)")
        #expect(TeamCommands.validationFlags(root: root.path).map(\.place) == ["ios/fastlane/lanes/lane_tests.rb:2"])
    }
}

