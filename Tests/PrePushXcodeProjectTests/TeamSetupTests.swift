import Foundation
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// What a team's CI runs around its tests, read from real apps' files (Tests/Fixtures/init-apps,
/// third blind round): fastlane lanes given a scheme and a test plan, the files it copies into place,
/// the Carthage bootstrap, the servers it starts, and a project's workspace.
@Suite struct TeamSetupTests {
    static let apps = Fixtures.own + "/init-apps"

    /// ProtonVPN's GitLab job runs `fastlane run_testplan ios:true scheme:ProtonVPN-iOS
    /// testplan:ProtonVPN-iOS-Unit-All`; the lane reads `options[:testplan]` and names the scheme
    /// itself: that scheme's test of that plan.
    @Test func aLaneGivenASchemeAndAPlanIsThatSchemesTestOfThePlan() throws {
        let tests = TeamCommands.xcodebuildTests(root: Self.apps + "/protonvpn")
        let unit = try #require(tests.first { $0.place == ".gitlab/jobs/app-ios.yml:73" }, "\(tests)")
        #expect(unit.schemes == ["ProtonVPN-iOS"] && unit.flags == ["-testPlan ProtonVPN-iOS-Unit-All"] && unit.isLane, "\(unit)")
        #expect(unit.via == "fastlane run_testplan ios:true scheme:ProtonVPN-iOS testplan:ProtonVPN-iOS-Unit-All")
        // An option the lane never reads, or a scheme it neither reads nor names, gives nothing.
        let lanes = ["check": "run_tests(scheme: \"App\")", "plain": "scheme = \"App\"\nrun_tests(scheme: scheme)"]
        #expect(TeamCommands.laneTest("fastlane check testplan:Other", lanes: lanes, place: "x")?.flags == [])
        #expect(TeamCommands.laneTest("fastlane plain scheme:Other", lanes: lanes, place: "x") == nil)
        #expect(TeamCommands.laneTest("fastlane plain scheme:App", lanes: lanes, place: "x")?.schemes == ["App"])
    }

    /// The Corona-Warn-App's workflow runs its lanes after `cd src/xcode`, from the Fastfile there:
    /// the lane's own scheme, the plan the line gives, its one test configuration and simulator;
    /// the `build_for_testing` lane tests nothing.
    @Test func aLaneRunInASubfolderIsReadFromThatFoldersFastfile() throws {
        let tests = TeamCommands.laneTests(root: Self.apps + "/corona-warn-app")
        #expect(tests.map(\.place) == [".github/workflows/PullRequest.yml:149", ".github/workflows/PullRequest.yml:189"], "\(tests)")
        #expect(tests.map(\.flags) == [["-testPlan UnitTests", "-only-test-configuration DE"], ["-testPlan UITests", "-only-test-configuration DE"]])
        #expect(tests.allSatisfy { $0.schemes == ["ENA"] && $0.destination == "platform=iOS Simulator,name=iPhone 13" })
    }

    /// A project a committed workspace lists elsewhere is built through that workspace (ProtonVPN's
    /// root workspace holds `apps/ios/iOS.xcodeproj`); an absolute location (Habitica's test plans
    /// under `/Users/…`) is not the repository's.
    @Test func aProjectIsBuiltThroughTheWorkspaceThatListsIt() throws {
        let survey = XcodeProjectSurvey(root: Self.apps + "/protonvpn")
        let scheme = try #require(survey.schemes.first { $0.name == "ProtonVPN-iOS" })
        #expect(scheme.container == XcodeProjectSurvey.Container(path: "ProtonVPN.xcworkspace", isWorkspace: true))
        let habitica = try String(contentsOfFile: Self.apps + "/habitica/Habitica.xcworkspace/contents.xcworkspacedata", encoding: .utf8)
        #expect(XcodeProjectSurvey.workspaceProjects(habitica, folder: "") == ["Habitica Models/Habitica Models.xcodeproj", "Habitica Database/Habitica Database.xcodeproj",
                                                                             "Habitica API Client/Habitica API Client.xcodeproj", "Habitica.xcodeproj"])
    }

    /// The Blue Alliance's workflow copies its committed mock secrets to the gitignored place the
    /// build reads them from; a copy to a committed or present file, or from outside, is no set-up.
    @Test func aCopyTheCIMakesIntoAnIgnoredPlaceIsSetUp() throws {
        let root = Self.apps + "/the-blue-alliance"
        let copies = TeamCommands.setupCopies(root: root, ignored: XcodeProjectSurvey(root: root).ignoresFile)
        #expect(copies == [TeamCommands.SetupCopy(from: "mock-Secrets.plist", to: "the-blue-alliance-ios/Secrets.plist", place: ".github/workflows/pull_request.yml:53")], "\(copies)")
        let other = try TemporaryDirectory(prefix: "prepush-setup-copies")
        try other.write("Secrets.plist\nConfig.xcconfig\n", to: ".gitignore")
        try other.write("x", to: "mock.plist")
        try other.write("x", to: "Config.xcconfig")
        try other.write("""
        steps:
          - run: cp mock.plist Committed.plist && cp mock.plist Config.xcconfig
          - run: cp ../mock.plist Secrets.plist; cp "$HOME/mock.plist" Secrets.plist
          - run: cp -n mock.plist App/Secrets.plist
        """, to: ".github/workflows/ci.yml")
        let found = TeamCommands.setupCopies(root: other.path, ignored: XcodeProjectSurvey(root: other.path).ignoresFile)
        #expect(found.map(\.to) == ["App/Secrets.plist"] && found.first?.place == ".github/workflows/ci.yml:4", "\(found)")
    }

    /// Ignored files beside a committed example (Habitica's `secrets.yml.example`) are named; a
    /// folder's dot (`.idea/workspace`), a dotfile and fastlane's settings are not, and nothing crashes.
    @Test func anIgnoredFileWithACommittedExampleIsNamed() throws {
        #expect(XcodeProjectSurvey(root: Self.apps + "/habitica").exampleFiles.map { "\($0.file) \($0.example)" } == ["secrets.yml secrets.yml.example"])
        let root = try TemporaryDirectory(prefix: "prepush-example-files")
        try root.write(".idea/workspace\n.env\nfastlane/.env\n/Config.xcconfig\n*.log\nApp/Env.swift\n", to: ".gitignore")
        for file in [".env.example", "fastlane/.env.example", "Config.xcconfig.template", "App/Env.sample.swift"] { try root.write("x", to: file) }
        #expect(XcodeProjectSurvey(root: root.path).exampleFiles.map { "\($0.file) \($0.example)" }
                == ["Config.xcconfig Config.xcconfig.template", "App/Env.swift App/Env.sample.swift"])
    }

    /// OpenFoodFacts' Fastfile bootstraps Carthage for iOS as xcframeworks; a repository whose files
    /// never do gets the xcframeworks bootstrap alone.
    @Test func carthageIsBootstrappedAsTheTeamDoesIt() throws {
        let bootstrap = TeamCommands.carthageBootstrap(root: Self.apps + "/openfoodfacts")
        #expect(bootstrap.run == "carthage bootstrap --platform iOS --use-xcframeworks" && bootstrap.place == "fastlane/Fastfile:15", "\(bootstrap)")
        let root = try TemporaryDirectory(prefix: "prepush-carthage")
        #expect(TeamCommands.carthageBootstrap(root: root.path).run == "carthage bootstrap --use-xcframeworks")
    }

    /// Nextcloud Talk's workflow starts a PHP server on localhost before its tests; a `docker run`
    /// of a lint image (no `-d`) starts none.
    @Test func aServerTheCIStartsIsSeen() throws {
        let servers = TeamCommands.serverStarts(root: Self.apps + "/nextcloud-talk")
        #expect(servers.first?.place == ".github/workflows/talk-ios-tests.yml:213" && servers.first?.command.contains("php -S localhost:8080") == true, "\(servers)")
        let root = try TemporaryDirectory(prefix: "prepush-servers")
        try root.write("steps:\n  - run: docker run --rm -v `pwd`:/src lint\n  - run: xcodebuild test -scheme App\n", to: ".github/workflows/ci.yml")
        #expect(TeamCommands.serverStarts(root: root.path).isEmpty)
        try root.write("steps:\n  - run: docker run -d -p 8080:80 server\n  - run: xcodebuild test -scheme App\n", to: ".github/workflows/ci.yml")
        #expect(TeamCommands.serverStarts(root: root.path).map(\.place) == [".github/workflows/ci.yml:2"])
        // Spezi's template (fifth round): a reusable workflow starts Firebase's emulators for the lane's tests.
        try root.write("jobs:\n  test:\n    with:\n      fastlanelane: test\n      setupfirebaseemulator: true\n", to: ".github/workflows/ci.yml")
        #expect(TeamCommands.serverStarts(root: root.path).map(\.command) == ["setupfirebaseemulator: true"])
    }

    /// Passepartout (fifth round) builds its app package from a submodule, `.package(path:
    /// "../partout")`: in a clone without it the stages fail, which init says. A checked-out
    /// submodule, or one no manifest builds from, is nothing to say.
    @Test func aSubmoduleAPackageBuildsFromIsNamedWhenMissing() throws {
        let root = try TemporaryDirectory(prefix: "prepush-submodules")
        try root.write("[submodule \"partout\"]\n\tpath = partout\n\turl = https://github.com/partout-io/partout\n[submodule \"docs\"]\n\tpath = docs/site\n", to: ".gitmodules")
        try root.write("let package = Package(dependencies: [.package(path: \"../partout\"), .package(path: \"../partout/cross/apple-legacy\")])\n", to: "app-apple/Package.swift")
        try FileManager.default.createDirectory(atPath: root.path + "/partout", withIntermediateDirectories: true)
        let missing = TeamCommands.missingSubmodules(root: root.path)
        #expect(missing.map(\.path) == ["partout"] && missing.map(\.usedBy) == ["app-apple/Package.swift"], "\(missing)")
        try root.write("// swift-tools-version:5.9\n", to: "partout/Package.swift")
        #expect(TeamCommands.missingSubmodules(root: root.path).isEmpty)
    }

    /// bitchat's workflow tests each package of its matrix (`include:` entries) with a `swift test`
    /// continued over lines to `--package-path ${{ matrix.path }}`, and builds for
    /// `generic/platform=iOS Simulator`, which runs no test: no stage's destination.
    @Test func aMatrixOfPackagesIsTestedAndAGenericDestinationIsNone() throws {
        let root = Self.apps + "/bitchat"
        #expect(TeamCommands.swiftTestFolders(["localPackages/BitFoundation", "localPackages/BitLogger", "localPackages/Arti"], root: root)
                == ["localPackages/BitFoundation", "localPackages/BitLogger"])
        #expect(TeamCommands.destination(root: root) == nil)
        let commands = TeamCommands.testCommands(root: root).map(\.text)
        #expect(commands.contains { $0.hasSuffix("--package-path localPackages/BitLogger &") }, "\(commands)")
    }

    /// A `.gitignore` pattern in a folder (Pocket's `Config/secrets*.xcconfig`) names the file its
    /// committed example stands for.
    @Test func anIgnoredPatternNamesTheFileOfAnExample() throws {
        let root = try TemporaryDirectory(prefix: "prepush-example-patterns")
        try root.write("Config/secrets*.xcconfig\n", to: ".gitignore")
        for file in ["Config/secrets.xcconfig.example", "Config/Other.example", "Config/secrets-mock.txt"] { try root.write("x", to: file) }
        #expect(XcodeProjectSurvey(root: root.path).exampleFiles.map { "\($0.file) \($0.example)" } == ["Config/secrets.xcconfig Config/secrets.xcconfig.example"])
    }

    /// Passepartout's UI scheme runs one of two test plans, each taking screenshots and skipping the
    /// flow-test classes; the extension scheme `PassepartoutIntents` lists the same bundle without a
    /// plan. The classes every plan skips are ones the team never runs: both schemes take
    /// screenshots, and neither is a UI stage.
    @Test func classesEveryPlanSkipsAreNoUITestsTheTeamRuns() throws {
        let survey = XcodeProjectSurvey(root: Self.apps + "/passepartout")
        let ui = try #require(survey.schemes.first { $0.name == "PassepartoutUITests" }, "\(survey.schemes.map(\.name)) \(survey.problems)")
        #expect(ui.screenshotBundles == ["PassepartoutUITests"], "\(ui)")
        let intents = try #require(survey.schemes.first { $0.name == "PassepartoutIntents" })
        #expect(intents.testPlan == nil && intents.uiBundles == ["PassepartoutUITests"] && intents.screenshotBundles == ["PassepartoutUITests"], "\(intents)")
        #expect(intents.screenshotBundlesBesidesSkipped == ["PassepartoutUITests"] && ui.screenshotBundlesBesidesSkipped.isEmpty)
        #expect(survey.uiScheme(excluding: ["PassepartoutUITests", "PassepartoutIntents"]) == nil)
    }

    /// nos (sixth round): CI runs `NosTests` with `test-without-building` after a `build-for-testing`
    /// that passes the validation switches: that is the team's test of the scheme, and the switches
    /// are the build's. Its `NosUITests` scheme names a target the project no longer has: no bundle.
    @Test func aTestWithoutBuildingIsTheTeamsTestAndAStaleTargetIsNoBundle() throws {
        let root = Self.apps + "/nos"
        let tests = TeamCommands.xcodebuildTests(root: root)
        #expect(tests.map(\.schemes) == [["NosTests"]] && tests.map(\.place) == [".github/workflows/test.yml:27"], "\(tests)")
        #expect(tests.first?.withoutBuilding == true && tests.first?.flags == [], "\(tests)")
        #expect(TeamCommands.validationFlags(root: root).map(\.flag) == ["-skipPackagePluginValidation", "-skipMacroValidation"])
        let survey = XcodeProjectSurvey(root: root)
        let stale = try #require(survey.schemes.first { $0.name == "NosUITests" }, "\(survey.schemes.map(\.name))")
        #expect(stale.staleBundles == ["NosUITests"] && stale.uiBundles.isEmpty && stale.guessed.isEmpty, "\(stale)")
        #expect(survey.schemes.first { $0.name == "NosTests" }?.unitBundles == ["NosTests"])
    }

    /// Radix Wallet (seventh round): fastlane's dotenv gives its lanes `XCARGS="-skipPackagePluginValidation"`,
    /// and the workflow trusts every macro with `defaults write … IDESkipMacroFingerprintValidation`:
    /// both validations are off where the team tests, so a stage turns them off too.
    @Test func aDotenvsXcargsAndADefaultsWriteTurnValidationOff() throws {
        let root = try TemporaryDirectory(prefix: "prepush-validation")
        try root.write("XCARGS=\"-skipPackagePluginValidation\"\nSCAN_XCARGS=${XCARGS}\n", to: "fastlane/.env")
        try root.write("      - name: Skip macro validation\n        run: |\n          defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES\n", to: ".github/workflows/ci.yml")
        let flags = TeamCommands.validationFlags(root: root.path)
        #expect(flags.map(\.flag) == ["-skipMacroValidation", "-skipPackagePluginValidation"], "\(flags)")
        #expect(flags.map(\.place) == [".github/workflows/ci.yml:3", "fastlane/.env:1"], "\(flags)")
    }

    /// anytype (eighth round): the scheme names `AnytypeTests/AnytypeTests.xctestplan`, which git holds
    /// in `AnyTypeTests/` beside another `AnytypeTests/` folder. On a Mac both are one folder and Xcode
    /// finds the plan; the survey finds it too, whatever the case of each folder.
    @Test func aTestPlanIsFoundWhateverTheCaseOfItsFolders() throws {
        let root = try TemporaryDirectory(prefix: "prepush-plan-case")
        try root.write("{}", to: "AnyTypeTests/AnytypeTests.xctestplan")
        try root.write("import XCTest\n", to: "AnytypeTests/SomeTests.swift")
        let survey = XcodeProjectSurvey(root: root.path)
        #expect(survey.onDisk("AnytypeTests/AnytypeTests.xctestplan") == "AnyTypeTests/AnytypeTests.xctestplan")
        #expect(survey.onDisk("AnytypeTests/SomeTests.swift") == "AnytypeTests/SomeTests.swift")
        #expect(survey.onDisk("Missing/Plan.xctestplan") == "Missing/Plan.xctestplan")
    }
}
