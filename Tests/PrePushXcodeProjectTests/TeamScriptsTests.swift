import Foundation
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// A scheme the team's CI names only as an argument of its own script (Simplenote's Buildkite step
/// `build-and-ui-test.sh SimplenoteUITests …`, whose script passes `scheme:"$1"` to fastlane): the
/// team runs that scheme, though no `xcodebuild` or `scan` line names it.
@Suite struct TeamScriptsTests {
    static let simplenote = Fixtures.own + "/ci-scripts/simplenote"

    @Test func aSchemeHandedToTheTeamsScriptIsOneItsCIRuns() {
        let found = TeamCommands.schemesPassedToScripts(root: Self.simplenote)
        #expect(found.map(\.scheme) == ["SimplenoteUITests"], "\(found)")
        #expect(found.first?.place == ".buildkite/pipeline.yml:56")
        #expect(found.first?.command == ".buildkite/commands/build-and-ui-test.sh SimplenoteUITests 'iPhone SE (3rd generation)'")
    }

    @Test func anArgumentTheScriptUsesOtherwiseOrAScriptOutsideTheRepositoryNamesNoScheme() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-scripts")
        // The repository is `repo/`; `outside.sh` sits beside it.
        try root.write("#!/bin/sh\nxcodebuild test -scheme \"$1\"\n", to: "outside.sh")
        try root.write("#!/bin/sh\nfastlane ui device:\"$1\" scheme:\"$10\"\n# scheme: \"$2\"\necho \"$2\"\n", to: "repo/scripts/ui.sh")
        try root.write("#!/bin/sh\nxcodebuild test -scheme \"${1}\" -destination \"$2\"\n", to: "repo/scripts/test.sh")
        try root.write("""
        steps:
          - command: "./scripts/ui.sh AppUITests Other"
          - command: ./scripts/test.sh AppTests 'platform=iOS Simulator,name=iPhone 16'
          - command: ../outside.sh AppOutside
          - command: scripts/test.sh $SCHEME
          # - command: scripts/test.sh Commented
        """, to: "repo/.buildkite/pipeline.yml")
        #expect(TeamCommands.schemesPassedToScripts(root: root.path + "/repo").map(\.scheme) == ["AppTests"])
    }

    static let elementX = Fixtures.own + "/ci-scripts/element-x"

    /// Element X's CI runs its own Swift tool (`swift run -q tools ci unit-tests`); the tool's
    /// subcommands run `xcodebuild test` with `"--scheme", "UnitTests"`, and `unit-tests` runs
    /// `PreviewTests.parse([]).run()`, whose file says `static let scheme = "PreviewTests"`. Each
    /// scheme comes with a CI line that reaches it, and where the tool names it.
    @Test func schemesTheTeamsSwiftToolNamesAreOnesItsCIRuns() {
        let found = TeamCommands.schemesPassedToScripts(root: Self.elementX)
        #expect(found.map(\.scheme) == ["PreviewTests", "UITests", "UnitTests"], "\(found)")
        let unit = found.first { $0.scheme == "UnitTests" }
        #expect(unit?.place == ".github/workflows/unit-tests.yml:33" && unit?.command == "swift run -q tools ci unit-tests", "\(String(describing: unit))")
        #expect(unit?.tool == "Tools/Sources/Commands/CI/UnitTests.swift:27")
        #expect(found.first { $0.scheme == "PreviewTests" }?.tool == "Tools/Sources/Commands/CI/PreviewTests.swift:11")
        // `failures.append("UnitTests")` and `"UITests.xcresult"` name no scheme; the subcommand decides.
        var tools = TeamCommands.SwiftTools(root: Self.elementX)
        #expect(tools.schemes(runBy: "swift run -q tools ci unit-tests").map(\.scheme) == ["PreviewTests", "UnitTests"])
        #expect(tools.schemes(runBy: "swift run -q tools ci ui-tests \"${args[@]}\"").map(\.scheme) == ["UITests"])
        #expect(tools.schemes(runBy: "swift run -q other").isEmpty && tools.schemes(runBy: "swift build").isEmpty)
    }

    /// The tool's folder comes from the pull request's manifest: a `path:` or a link that leads out
    /// of the repository is not read, and `--package-path` is the package's folder.
    @Test func aToolOutsideTheRepositoryIsNotRead() throws {
        let root = try TemporaryDirectory(prefix: "prepush-team-tools")
        let tool = "struct Run { static let scheme = \"%@\" }\n"
        try root.write(tool.replacingOccurrences(of: "%@", with: "Leaked"), to: "secret/Run.swift")
        try root.write(tool.replacingOccurrences(of: "%@", with: "Linked"), to: "elsewhere/Run.swift")
        try root.write(tool.replacingOccurrences(of: "%@", with: "AppTests"), to: "repo/Tools/inner/Sources/ci/Run.swift")
        try root.write("""
        // swift-tools-version: 6.0
        import PackageDescription
        let package = Package(name: "T", products: [.executable(name: "out", targets: ["Out"])],
                              targets: [.executableTarget(name: "Out", path: "../secret"), .executableTarget(name: "linked", path: "Linked")])
        """, to: "repo/Package.swift")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/repo/Linked", withDestinationPath: root.path + "/elsewhere")
        try root.write("// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: \"I\", targets: [.executableTarget(name: \"ci\")])\n",
                       to: "repo/Tools/inner/Package.swift")
        try root.write("""
        jobs:
          test:
            steps:
              - run: swift run out
              - run: swift run linked
              - run: swift run --package-path Tools/inner -c release ci
        """, to: "repo/.github/workflows/ci.yml")
        let found = TeamCommands.schemesPassedToScripts(root: root.path + "/repo")
        #expect(found.map(\.scheme) == ["AppTests"] && found.first?.tool == "Tools/inner/Sources/ci/Run.swift:1", "\(found)")
    }

    /// Lanes and targets named for tests, and not for a release (DuckDuckGo's `release_testflight`,
    /// `latest_build_number_for_version`, element-ios' `build`): only test lanes are offered.
    @Test func testLanesAreNamedForTestsNotForTestFlight() {
        for name in ["test", "tests", "uitest", "unit_tests", "runTests", "test-client", "ui-tests", "testing"] {
            #expect(TeamCommands.isTestName(Substring(name)), "\(name)")
        }
        for name in ["release_testflight", "promote_latest_testflight_to_appstore", "latest_build_number_for_version", "build", "contest"] {
            #expect(!TeamCommands.isTestName(Substring(name)), "\(name)")
        }
        #expect(TeamCommands.runsTestLane("bundle exec fastlane ios test"))
        #expect(!TeamCommands.runsTestLane("bundle exec fastlane build") && !TeamCommands.runsTestLane("bundle exec fastlane release_testflight"))
    }

    static let initApps = Fixtures.own + "/init-apps"

    /// The Blue Alliance's test lane (Tests/Fixtures/init-apps): `spm(command: "test", package_path:)`
    /// is `swift test` in each package, `devices: ["iPhone 17 Pro"]` names the run's simulator, and the
    /// workflow step's `name: fastlane test` is a title, not the command on the line after it.
    @Test func aFastlaneTestLaneNamesItsPackagesAndItsSimulator() throws {
        let root = Self.initApps + "/the-blue-alliance"
        #expect(TeamCommands.swiftTestFolders(["Packages/MyTBAKit", "Packages/TBAAPI", "Packages/TBAUtils", "Packages/Other"], root: root)
                == ["Packages/MyTBAKit", "Packages/TBAAPI", "Packages/TBAUtils"])
        let destination = try #require(TeamCommands.destination(root: root))
        #expect(destination.value == "platform=iOS Simulator,name=iPhone 17 Pro" && destination.place == "fastlane/Fastfile:31", "\(destination)")
        let commands = TeamCommands.testCommands(root: root)
        #expect(commands.contains { $0.text == "bundle exec fastlane test" && $0.place == ".github/workflows/pull_request.yml:60" }, "\(commands)")
        #expect(!commands.contains { $0.text.hasPrefix("name:") }, "\(commands)")
        // A Ruby expression is no simulator: `device: options[:device]` (Simplenote's lane).
        #expect(TeamCommands.quoted(after: "device:", in: "    device: options[:device],") == nil)
    }

    /// OpenFoodFacts' script escapes its destination's spaces (`platform=iOS\ Simulator,name=iPhone\ 8`):
    /// one word, not `platform=iOS` (a device). Its `.gitignore` leaves Carthage's frameworks out.
    @Test func anEscapedDestinationIsOneWordAndUncommittedCarthageIsSeen() throws {
        let root = Self.initApps + "/openfoodfacts"
        // The Fastfile's lane is read first; the script's escaped spaces must read as the same simulator.
        let destination = try #require(TeamCommands.destination(root: root))
        #expect(destination.value == "platform=iOS Simulator,name=iPhone 8" && destination.place == "fastlane/Fastfile:21", "\(destination)")
        #expect(TeamCommands.value(after: "-destination", in: "xcodebuild test -destination platform=iOS\\ Simulator,name=iPhone\\ 8 \\") == "platform=iOS Simulator,name=iPhone 8")
        #expect(XcodeProjectSurvey(root: root).carthageNotCommitted)
        #expect(!XcodeProjectSurvey(root: Self.initApps + "/netnewswire").carthageNotCommitted)
    }

    /// A committed CocoaPods workspace whose Pods the repository ignores is installed first, through
    /// Bundler when the Gemfile pins cocoapods; committed Pods are not.
    @Test func podsTheRepositoryIgnoresAreInstalled() throws {
        let root = try TemporaryDirectory(prefix: "prepush-pods")
        try root.write("platform :ios, '16.0'\ntarget 'App' do\n  pod 'Alamofire'\nend\n", to: "Podfile")
        try root.write("source 'https://rubygems.org'\ngem 'cocoapods', '~> 1.15'\n", to: "Gemfile")
        try root.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace version = \"1.0\"></Workspace>\n", to: "App.xcworkspace/contents.xcworkspacedata")
        let workspace = XcodeProjectSurvey.Container(path: "App.xcworkspace", isWorkspace: true)
        #expect(XcodeProjectSurvey(root: root.path).podInstall(beside: workspace) == nil, "the Pods are committed")
        try root.write("DerivedData/\nPods/\n", to: ".gitignore")
        #expect(XcodeProjectSurvey(root: root.path).podInstall(beside: workspace) == "bundle exec pod install")
        // deltachat's `.gitignore` leaves out all the folder holds (`Pods/*`): the same.
        try root.write("## CocoaPods\nPods/*\n", to: ".gitignore")
        #expect(XcodeProjectSurvey(root: root.path).podInstall(beside: workspace) == "bundle exec pod install")
    }
}
