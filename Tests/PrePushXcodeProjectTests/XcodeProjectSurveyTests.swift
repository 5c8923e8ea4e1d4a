import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// Real projects' schemes, project files and test plans (shared/fixtures/xcode-projects, whose
/// README says what a careful engineer would configure for each), read as Xcode reads them.
@Suite struct XcodeProjectSurveyTests {
    static let projects = Fixtures.shared + "/xcode-projects"

    /// XcodeGen's test project: every iOS scheme that tests mixes a unit and a UI bundle; the
    /// product types come from the project file, a test plan adds its targets, and schemes with no
    /// TestAction test nothing.
    @Test func xcodeGensTestProjectHasMixedSchemesReadFromTheProjectFile() throws {
        let survey = XcodeProjectSurvey(root: Self.projects + "/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject")
        let test = try #require(survey.schemes.first { $0.name == "App_iOS Test" })
        #expect(test.unitBundles == ["App_iOS_Tests"] && test.uiBundles == ["App_iOS_UITests"] && test.guessed.isEmpty, "\(test)")
        #expect(test.container == XcodeProjectSurvey.Container(path: "Workspace.xcworkspace", isWorkspace: true), "the workspace beside the project")
        let clip = try #require(survey.schemes.first { $0.name == "App_Clip" })
        #expect(clip.unitBundles == ["App_Clip_Tests"] && clip.uiBundles == ["App_Clip_UITests"])
        let planned = try #require(survey.schemes.first { $0.name == "App_Scheme" })
        #expect(planned.testPlan == "App_iOS/App_iOS.xctestplan")
        #expect(Set(planned.unitBundles) == ["App_iOS_Tests"] && Set(planned.uiBundles) == ["App_iOS_UITests"], "\(planned)")
        for name in ["App_macOS", "Framework", "Tool", "iMessageApp"] {
            let scheme = try #require(survey.schemes.first { $0.name == name })
            #expect(scheme.unitBundles.isEmpty && scheme.uiBundles.isEmpty, "\(name) tests nothing")
        }
        #expect(survey.unitScheme?.name == "App_iOS Test" && survey.uiScheme?.name == "App_iOS Test")
        #expect(survey.generatorSpecs.contains("project.yml") && survey.generatorSpecs.contains("AnotherProject/project.yml"))
        #expect(survey.problems.isEmpty, "\(survey.problems)")
    }

    /// Wikipedia: a unit scheme and a UI scheme with its own test plan; the project file is an
    /// excerpt (its native targets section, verbatim), given the plist frame the excerpt lacks.
    @Test func wikipediaHasAUnitSchemeAndAUISchemeWithATestPlan() throws {
        let source = Self.projects + "/wikimedia__wikipedia-ios"
        let root = try TemporaryDirectory(prefix: "prepush-xcode")
        for file in ["Wikipedia.xcodeproj/xcshareddata/xcschemes/Wikipedia.xcscheme",
                     "Wikipedia.xcodeproj/xcshareddata/xcschemes/WikipediaUITests.xcscheme", "Test Plans/UITests.xctestplan"] {
            try root.write(try String(contentsOfFile: source + "/" + file, encoding: .utf8), to: file)
        }
        let excerpt = try String(contentsOfFile: source + "/Wikipedia.xcodeproj/project.pbxproj.excerpt", encoding: .utf8)
        try root.write("// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tobjects = {\n" + excerpt + "\n\t};\n}\n", to: "Wikipedia.xcodeproj/project.pbxproj")
        let survey = XcodeProjectSurvey(root: root.path)
        #expect(survey.unitScheme?.name == "Wikipedia" && survey.unitScheme?.unitBundles == ["WikipediaUnitTests"], "\(survey.schemes)")
        let ui = try #require(survey.uiScheme)
        #expect(ui.name == "WikipediaUITests" && ui.uiBundles == ["WikipediaUITests"] && ui.unitBundles.isEmpty, "\(ui)")
        #expect(ui.testPlan == "Test Plans/UITests.xctestplan")
        // The plan skips its target's class of the same name; the unit scheme skips 10 classes and
        // tests. Each is named as -skip-testing: takes it, after its bundle.
        #expect(ui.skippedTests == ["WikipediaUITests/WikipediaUITests"], "\(ui.skippedTests)")
        #expect(survey.unitScheme?.skippedTests.count == 10
                && survey.unitScheme?.skippedTests.contains("WikipediaUnitTests/MWKHistoryListPerformanceTests/testReadPerformance") == true)
        #expect(survey.schemes.allSatisfy(\.guessed.isEmpty) && survey.problems.isEmpty, "\(survey.problems)")
    }

    /// Tuist's project with tests: two unit bundles, no UI-testing bundle, so no UI scheme.
    @Test func aProjectWithOnlyUnitBundlesHasNoUIScheme() throws {
        let survey = XcodeProjectSurvey(root: Self.projects + "/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests")
        let app = try #require(survey.schemes.first { $0.name == "App" })
        #expect(Set(app.unitBundles) == ["AppTests", "AppFrameworkTests"] && app.uiBundles.isEmpty && app.guessed.isEmpty, "\(app)")
        #expect(survey.unitScheme?.name == "App" && survey.uiScheme == nil)
    }

    /// Kickstarter's scheme without its project file: the bundles are told apart by name, and said to be guessed.
    @Test func withoutTheProjectFileTheKindsAreGuessedAndSaidToBe() throws {
        let survey = XcodeProjectSurvey(root: Self.projects + "/kickstarter__ios-oss")
        let scheme = try #require(survey.schemes.first)
        #expect(scheme.name == "Kickstarter-Framework-iOS" && !scheme.guessed.isEmpty, "\(scheme)")
        #expect(survey.problems.contains { $0.hasPrefix("Kickstarter.xcodeproj/project.pbxproj") }, "\(survey.problems)")
    }

    /// A scheme that is not XML, and a project file that is not a property list: each a problem
    /// with its place, never a crash, and the rest still read.
    @Test func brokenFilesAreProblemsNotCrashes() throws {
        let root = try TemporaryDirectory(prefix: "prepush-xcode")
        try root.write("<Scheme><TestAction><Testables>", to: "App.xcodeproj/xcshareddata/xcschemes/Broken.xcscheme")
        try root.write("{ objects = { ", to: "App.xcodeproj/project.pbxproj")
        try root.write("""
        <?xml version="1.0" encoding="UTF-8"?>
        <Scheme><TestAction><Testables><TestableReference skipped = "NO"><BuildableReference BlueprintIdentifier = "X1" BlueprintName = "AppUITests" ReferencedContainer = "container:App.xcodeproj"/></TestableReference></Testables></TestAction></Scheme>
        """, to: "App.xcodeproj/xcshareddata/xcschemes/App.xcscheme")
        let survey = XcodeProjectSurvey(root: root.path)
        #expect(survey.problems.contains { $0.contains("Broken.xcscheme") && $0.contains("malformed XML") }, "\(survey.problems)")
        #expect(survey.problems.contains { $0.hasPrefix("App.xcodeproj/project.pbxproj: not a project file Xcode can read") }, "\(survey.problems)")
        #expect(survey.uiScheme?.name == "App" && survey.uiScheme?.guessed == ["AppUITests"])
    }

    /// The test commands teams keep in their Makefile and workflows, with where they are; a
    /// destination built from variables is not copied.
    @Test func theTeamsOwnTestCommandsAreFound() {
        let kickstarter = TeamCommands.testCommands(root: Self.projects + "/kickstarter__ios-oss")
        #expect(kickstarter.map(\.text) == ["make test-all", "make test"] && kickstarter.map(\.place) == ["Makefile:31", "Makefile:35"], "\(kickstarter)")
        let xcodegen = TeamCommands.testCommands(root: Self.projects + "/yonaskolb__XcodeGen")
        #expect(xcodegen.contains(TeamCommands.Command(text: "set -o pipefail && swift test 2>&1 | xcpretty", place: ".github/workflows/ci.yml:21")), "\(xcodegen)")
        let wikipedia = TeamCommands.testCommands(root: Self.projects + "/wikimedia__wikipedia-ios")
        #expect(wikipedia.contains { $0.text.hasPrefix("xcodebuild test -scheme") && $0.place.hasPrefix(".github/workflows/run_") }, "\(wikipedia)")
        #expect(TeamCommands.destination(root: Self.projects + "/wikimedia__wikipedia-ios") == nil, "name=$SIMULATOR is not a destination to copy")
    }

    /// Tuist's manifest (Swift, parsed, never run): its test targets' kinds, the scheme whose test
    /// plans name them (matched beside the manifest), the macOS-only bundle; a test target that no
    /// declared scheme tests gets the scheme Tuist generates for it.
    @Test func aTuistManifestIsReadAsSwift() throws {
        let survey = XcodeProjectSurvey(root: Self.projects + "/tuist__tuist__app_with_test_plan")
        let app = try #require(survey.schemes.first { $0.name == "App" }, "\(survey.schemes)")
        #expect(app.unitBundles == ["AppTests", "MacFrameworkTests"] && app.uiBundles.isEmpty && app.macOnlyBundles == ["MacFrameworkTests"], "\(app)")
        #expect(app.container == XcodeProjectSurvey.Container(path: "cli/Fixtures/app_with_test_plan/App.xcworkspace", isWorkspace: true))
        #expect(app.generatedFrom == "cli/Fixtures/app_with_test_plan/Project.swift" && survey.uiScheme == nil && survey.problems.isEmpty)

        let root = try TemporaryDirectory(prefix: "prepush-tuist")
        try root.write("""
        import ProjectDescription
        let project = Project(name: "Shop", targets: [
            Target(name: "Shop", platform: .iOS, product: .app, bundleId: "shop"),
            .target(name: "ShopTests", destinations: .iOS, product: .unitTests, bundleId: "shop.tests"),
            .target(name: "ShopUITests", destinations: [.iPhone, .iPad], product: .uiTests, bundleId: "shop.uitests"),
        ], schemes: [
            .scheme(name: "Shop-Unit", testAction: .targets(["ShopTests"])),
        ])
        """, to: "Project.swift")
        let shop = XcodeProjectSurvey(root: root.path)
        #expect(shop.unitScheme?.name == "Shop-Unit" && shop.unitScheme?.unitBundles == ["ShopTests"], "\(shop.schemes)")
        #expect(shop.uiScheme?.name == "ShopUITests" && shop.uiScheme?.uiBundles == ["ShopUITests"] && shop.uiScheme?.macOnlyBundles == [], "\(shop.schemes)")
        #expect(shop.uiScheme?.container.path == "Shop.xcworkspace")
    }

    /// The team's `xcodebuild test` commands, word by word: Wikipedia's unit workflow runs a matrix
    /// of schemes, its UI workflow a test plan; destinations built from CI variables and the
    /// `| xcpretty` are what a stage cannot take over.
    @Test func theTeamsXcodebuildCommandsAreReadForTheirFlags() throws {
        let commands = TeamCommands.xcodebuildTests(root: Self.projects + "/wikimedia__wikipedia-ios")
        let unit = try #require(commands.first { $0.place == ".github/workflows/run_unit_tests.yml:40" }, "\(commands)")
        #expect(unit.schemes == ["Wikipedia", "WMFComponents", "WMFData"] && unit.flags.isEmpty && unit.piped, "\(unit)")
        #expect(unit.destination == nil && unit.dropped == ["-destination platform=iOS Simulator,name=$SIMULATOR,OS=$IOS_VERSION"], "\(unit)")
        let ui = try #require(commands.first { $0.place == ".github/workflows/run_ui_tests.yml:106" }, "\(commands)")
        #expect(ui.schemes == ["WikipediaUITests"] && ui.flags == ["-testPlan UITests"] && ui.piped, "\(ui)")
        // XcodeGen's CI runs `swift test` and scripts that only build: no xcodebuild test command.
        #expect(TeamCommands.xcodebuildTests(root: Self.projects + "/yonaskolb__XcodeGen").isEmpty)
        let written = TeamCommands.xcodebuildTest(
            "NSUnbufferedIO=YES xcodebuild -quiet -workspace App.xcworkspace -scheme App test -skipPackagePluginValidation -parallel-testing-enabled NO -destination 'platform=iOS Simulator,name=iPhone 15' CODE_SIGNING_ALLOWED=NO; echo done",
            place: "ci_scripts/test.sh:3", file: [])
        #expect(written?.schemes == ["App"] && written?.flags == ["-quiet", "-skipPackagePluginValidation", "-parallel-testing-enabled NO", "'CODE_SIGNING_ALLOWED=NO'"], "\(String(describing: written))")
        #expect(written?.destination == "platform=iOS Simulator,name=iPhone 15" && written?.dropped == [] && written?.piped == false)
        #expect(TeamCommands.xcodebuildTest("xcodebuild build -scheme App", place: "", file: []) == nil, "building is not testing")
        // NetNewsWire's macOS job (github.com/Ranchero-Software/NetNewsWire, .github/workflows/ci.yml:55-62 at
        // 834decfad378, MIT), joined as its backslashes join it: the redirection ends xcodebuild's words,
        // it is no argument (a stage once ran `xcodebuild … '2>'`).
        let redirected = TeamCommands.xcodebuildTest(
            #"xcodebuild -project NetNewsWire.xcodeproj -scheme NetNewsWire -testPlan NetNewsWire-CI -xcconfig .github/macos-ci-no-signing.xcconfig -destination "platform=macOS,arch=arm64" -resultBundlePath "$result_bundle" test 2>&1 | tee "$build_log" | xcbeautify --renderer github-actions"#,
            place: ".github/workflows/ci.yml:55", file: [])
        #expect(redirected?.flags == ["-testPlan NetNewsWire-CI", "-xcconfig .github/macos-ci-no-signing.xcconfig"], "\(String(describing: redirected))")
        #expect(redirected?.destination == "platform=macOS,arch=arm64")
        #expect(ShellWords.tokens("a 2>&1 >>log <in b&>x").map(\.value) == ["a", "2>&1", ">>", "log", "<", "in", "b", "&", ">", "x"])
    }

    /// An XcodeGen spec without its generated project (what a team that generates it on CI commits):
    /// the test targets' kinds and the schemes that run them come from the spec (YAML, through libyaml).
    @Test func aGeneratedProjectIsReadFromItsSpec() throws {
        let root = try TemporaryDirectory(prefix: "prepush-xcodegen")
        let spec = Self.projects + "/yonaskolb__XcodeGen__TestProject/Tests/Fixtures/TestProject/project.yml"
        try root.write(try String(contentsOfFile: spec, encoding: .utf8), to: "App/project.yml")
        let survey = XcodeProjectSurvey(root: root.path)
        let scheme = try #require(survey.schemes.first { $0.name == "App_iOS" }, "\(survey.schemes.map(\.name))")
        #expect(scheme.unitBundles == ["App_iOS_Tests"] && scheme.uiBundles == ["App_iOS_UITests"], "\(scheme)")
        #expect(scheme.container.path == "App/Project.xcodeproj" && scheme.generatedFrom == "App/project.yml")
        let planned = try #require(survey.schemes.first { $0.name == "App_Scheme" })
        #expect(planned.unitBundles == ["App_iOS_Tests"] && planned.uiBundles == ["App_iOS_UITests"], "\(planned)")
        #expect(survey.generatorSpecs == ["App/project.yml"] && survey.problems.isEmpty, "\(survey.problems)")
    }

    /// A spec's `include:` comes from the pull request: a file outside the repository, directly or
    /// through a link, is not read; one inside is, relative to the including file.
    @Test func aSpecsIncludesAreReadOnlyInsideTheRepository() throws {
        let root = try TemporaryDirectory(prefix: "prepush-xcodegen-include")
        let target = { (name: String) in "targets:\n  \(name):\n    type: bundle.unit-test\n    platform: iOS\n" }
        try root.write(target("Leaked"), to: "outside.yml")
        try root.write(target("Linked"), to: "elsewhere/linked.yml")
        try root.write(target("AppTests") + "include:\n  - ../More/more.yml\n", to: "repo/App/Targets/tests.yml")
        try root.write(target("MoreTests"), to: "repo/App/More/more.yml")
        try root.write("""
        name: App
        include:
          - path: Targets/tests.yml
          - ../../outside.yml
          - linked.yml
        targets:
          App:
            type: application
            platform: iOS
            scheme:
              testTargets: [AppTests, MoreTests, Leaked, Linked]

        """, to: "repo/App/project.yml")
        try FileManager.default.createSymbolicLink(atPath: root.path + "/repo/App/linked.yml", withDestinationPath: root.path + "/elsewhere/linked.yml")
        let survey = XcodeProjectSurvey(root: root.path + "/repo")
        let scheme = try #require(survey.schemes.first { $0.name == "App" }, "\(survey.schemes.map(\.name)) \(survey.problems)")
        #expect(scheme.unitBundles.sorted() == ["AppTests", "MoreTests"], "\(scheme)")
    }

    /// A project in a subfolder whose scheme runs the test targets of local packages (the root's,
    /// `container:..`, and one beside it): they are unit tests read from the packages, and no file
    /// that is there is said to be unreadable; a container that is neither says why.
    @Test func bundlesOfLocalPackagesAreReadFromTheirFolders() throws {
        let root = try TemporaryDirectory(prefix: "prepush-xcode")
        let project = Self.projects + "/tuist__tuist__xcode_project_with_tests/fixtures/xcode_project_with_tests/App.xcodeproj/project.pbxproj"
        try root.write(try String(contentsOfFile: project, encoding: .utf8), to: "App/Game.xcodeproj/project.pbxproj")
        let manifest = "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"K\", targets: [.testTarget(name: \"KTests\")])\n"
        try root.write(manifest, to: "Package.swift")
        try root.write(manifest, to: "Packages/Physics/Package.swift")
        func testable(_ identifier: String, _ name: String, _ container: String) -> String {
            "<TestableReference skipped = \"NO\"><BuildableReference BuildableIdentifier = \"primary\" BlueprintIdentifier = \"\(identifier)\" BlueprintName = \"\(name)\" ReferencedContainer = \"container:\(container)\"></BuildableReference></TestableReference>"
        }
        try root.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Scheme><TestAction><Testables>"
                       + testable("F806E0D32D54DD3C0058A673", "AppTests", "Game.xcodeproj") + testable("KTests", "KTests", "..")
                       + testable("PhysicsTests", "PhysicsTests", "../Packages/Physics") + testable("Gone", "GoneTests", "../Gone")
                       + "</Testables></TestAction></Scheme>\n", to: "App/Game.xcodeproj/xcshareddata/xcschemes/Game.xcscheme")
        let survey = XcodeProjectSurvey(root: root.path)
        let game = try #require(survey.schemes.first)
        #expect(game.container == XcodeProjectSurvey.Container(path: "App/Game.xcodeproj", isWorkspace: false))
        #expect(game.unitBundles == ["AppTests", "KTests", "PhysicsTests", "GoneTests"] && game.guessed == ["GoneTests"], "\(game)")
        #expect(game.packages == ["", "Packages/Physics"], "\(game.packages)")
        #expect(survey.problems == ["Gone/Package.swift: does not exist; GoneTests is tested from Gone, which holds neither a project nor a package"], "\(survey.problems)")
    }

    /// The team's workflow commands with `${{ matrix.… }}` and `${{ env.… }}` expanded from the
    /// job (Wikipedia's real unit-test workflow runs a matrix of three schemes); what has no
    /// literal value is named in `needs`.
    @Test func workflowExpressionsAreExpandedFromTheJob() throws {
        let wikipedia = TeamCommands.testCommands(root: Self.projects + "/wikimedia__wikipedia-ios").filter { $0.place == ".github/workflows/run_unit_tests.yml:40" }
        #expect(wikipedia.map { $0.text.prefix(40) } == ["xcodebuild test -scheme Wikipedia -proje", "xcodebuild test -scheme WMFComponents -p", "xcodebuild test -scheme WMFData -project"], "\(wikipedia)")
        #expect(wikipedia.allSatisfy { $0.needs.isEmpty })
        let root = try TemporaryDirectory(prefix: "prepush-workflow")
        try root.write("""
        env:
          CONFIG: Debug
        jobs:
          test:
            strategy:
              matrix:
                os: ${{ fromJSON(needs.setup.outputs.os) }}
            steps:
              - run: swift test -c ${{ env.CONFIG }} --filter ${{ matrix.os }}
                env:
                  CONFIG: release

        """, to: ".github/workflows/ci.yml")
        let commands = TeamCommands.testCommands(root: root.path)
        #expect(commands == [TeamCommands.Command(text: "swift test -c release --filter ${{ matrix.os }}", place: ".github/workflows/ci.yml:9", needs: ["matrix.os"])], "\(commands)")
    }
}
