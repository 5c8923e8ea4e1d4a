import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushXcodeProject
import Testing

/// Which UI bundles and classes take screenshots rather than check the app, and which schemes the
/// team's fastlane lanes test: read from real apps' project files, lanes and test sources
/// (Tests/Fixtures/ui-schemes/README.md names each origin and commit).
@Suite struct ScreenshotSchemeTests {
    static let fixtures = Fixtures.own + "/ui-schemes"

    /// home-assistant's CI runs `fastlane test`, whose lane file runs `run_tests(scheme: 'Tests-Unit')`
    /// and `run_tests(scheme: 'WatchApp')` over many lines each: those are the schemes the team tests.
    @Test func fastlanesRunTestsNameTheSchemesTheTeamTests() {
        let found = TeamCommands.fastlaneTestSchemes(root: Self.fixtures + "/home-assistant")
        #expect(found.map(\.scheme) == ["Tests-Unit", "WatchApp"], "\(found)")
        #expect(found.map(\.place) == ["fastlane/lanes/testing.rb:42", "fastlane/lanes/testing.rb:74"], "\(found)")
        // Mastodon's lanes only build (`xcodebuild(build: true, …)`, `gym`): no scheme is tested.
        #expect(TeamCommands.fastlaneTestSchemes(root: Self.fixtures + "/mastodon").isEmpty)
    }

    /// Pocket Casts' Fastfile (github.com/Automattic/pocket-casts-ios at c23892d1f47b, lines 39 and
    /// 187–191 and 985–997, verbatim): the `test` lane runs `run_tests(scheme: SCHEME)` with the
    /// constant set at the top; the `screenshots` lane's `scan(… build_for_testing: true …)` only
    /// builds the screenshot scheme for `snapshot` and tests nothing.
    @Test func aConstantSchemeIsReadAndABuildForTestingIsNoTest() throws {
        let root = try TemporaryDirectory(prefix: "prepush-pocketcasts")
        try root.write("""
        SCHEME = 'pocketcasts'

          desc 'Run the unit tests'
          lane :test do
            run_tests(
              scheme: SCHEME
            )
          end

          lane :screenshots do
            iphone_devices = ['iPhone 12']
            ipad_devices = ['iPad (9th generation)']

            # Build once to speed up the other runs
            scan(
              workspace: 'podcasts.xcworkspace',
              scheme: 'Screenshot Automation',
              build_for_testing: true,
              clean: true,
              devices: iphone_devices + ipad_devices,
              reset_simulator: true
            )

        """, to: "fastlane/Fastfile")
        let found = TeamCommands.fastlaneTestSchemes(root: root.path)
        #expect(found.map(\.scheme) == ["pocketcasts"] && found.map(\.place) == ["fastlane/Fastfile:6"], "\(found)")
    }

    /// kiwix's workflow (github.com/kiwix/kiwix-apple at 973f26d22dde, .github/workflows/ci.yml: an
    /// excerpt of lines 79–87, the `if:` and `env:` lines left out) runs `UITests_macOS` and has the iPhone UI tests commented out: a
    /// commented-out command is no scheme the team tests.
    @Test func aCommentedOutCommandRunsNothing() throws {
        let root = try TemporaryDirectory(prefix: "prepush-kiwix")
        try root.write("""
              - name: Run UI Tests on macOS
                run: xcodebuild test -scheme UITests_macOS -destination 'platform=macOS'
              # - name: Run UI Tests on iPhone
              #   run: xcodebuild test -scheme UITests_iPhone -destination "platform=iOS Simulator,name=$DEVICE_NAME"

        """, to: ".github/workflows/ci.yml")
        #expect(TeamCommands.xcodebuildTests(root: root.path).map(\.schemes) == [["UITests_macOS"]])
    }

    /// A destination fastlane names is a test's only inside `run_tests(`/`scan(`: home-assistant's test
    /// lane names iPhone 17; Mastodon's `iPhone 14 Pro` is its build lane's (`xcodebuild(build: true,
    /// destination: …)`), a simulator current Xcodes no longer ship, so it is not copied.
    @Test func onlyATestCallsDestinationIsTheTeams() throws {
        let home = try #require(TeamCommands.destination(root: Self.fixtures + "/home-assistant"))
        #expect(home.value == "platform=iOS Simulator,name=iPhone 17,OS=latest" && home.place == "fastlane/lanes/testing.rb:51", "\(home)")
        #expect(TeamCommands.destination(root: Self.fixtures + "/mastodon") == nil)
    }

    /// home-assistant's `Tests-UI` bundle compiles fastlane's `SnapshotHelper.swift` (its sources
    /// build phase in project.pbxproj; the Snapfile names an older scheme name, `HomeAssistantUITests`),
    /// and its one class takes fastlane snapshots: the bundle takes screenshots only.
    @Test func aBundleThatCompilesFastlanesHelperTakesScreenshots() throws {
        let survey = XcodeProjectSurvey(root: Self.fixtures + "/home-assistant")
        let scheme = try #require(survey.schemes.first { $0.name == "Tests-UI" }, "\(survey.schemes.map(\.name))")
        #expect(scheme.uiBundles == ["Tests-UI"] && scheme.screenshotBundles == ["Tests-UI"], "\(scheme)")
        #expect(survey.snapshotHelperBundles == ["Tests-UI"] && survey.snapshotHelperFolders == ["UI"], "\(survey.snapshotHelperBundles)")
        let unit = try #require(survey.schemes.first { $0.name == "Tests-Unit" })
        #expect(unit.uiBundles.isEmpty && unit.screenshotBundles.isEmpty && unit.unitBundles.contains("Tests-App"), "\(unit)")
    }

    /// home-assistant's `WatchApp` scheme (the one its lane tests on a watch) names its testable
    /// without `BlueprintName`, as Xcode writes a target in a synchronized folder: the bundle is named
    /// from `BuildableName`, and it is a watchOS unit bundle, which no iPhone stage can run.
    @Test func aWatchUnitBundleIsNamedFromItsProductAndKeptOutOfTheUnitBundles() throws {
        let survey = XcodeProjectSurvey(root: Self.fixtures + "/home-assistant")
        let watch = try #require(survey.schemes.first { $0.name == "WatchApp" }, "\(survey.schemes.map(\.name))")
        #expect(watch.unitBundles.isEmpty && watch.otherPlatformBundles == ["HomeAssistant-WatchAppTests (watchos)"], "\(watch)")
        #expect(survey.unitScheme?.name == "Tests-Unit")
    }

    /// Mastodon's `Mastodon - Snapshot` runs a test plan that selects only `MastodonUISnapshotTests`,
    /// whose tests reach `XCUIScreen.main.screenshot()` kept with `.keepAlways` through the class's own
    /// `snapshot(…)` and `takeSnapshot(name:)`: a screenshot scheme. `Mastodon - Release` runs the
    /// whole bundle, where `MastodonUITests` checks the app: the bundle stays, the screenshot class is named.
    @Test func aPlanThatSelectsOnlyScreenshotTestsIsAScreenshotScheme() throws {
        let survey = XcodeProjectSurvey(root: Self.fixtures + "/mastodon")
        let snapshot = try #require(survey.schemes.first { $0.name == "Mastodon - Snapshot" }, "\(survey.schemes.map(\.name))")
        #expect(snapshot.uiBundles == ["MastodonUITests"] && snapshot.screenshotBundles == ["MastodonUITests"], "\(snapshot)")
        let release = try #require(survey.schemes.first { $0.name == "Mastodon - Release" })
        #expect(release.uiBundles == ["MastodonUITests"] && release.screenshotBundles.isEmpty, "\(release)")
        #expect(release.screenshotClasses == ["MastodonUITests/MastodonUISnapshotTests"], "\(release)")
    }

    /// The classes themselves: Mastodon's screenshot class and its plain UI test class, read from their
    /// real sources; and a class that keeps a screenshot only in `tearDown` when a test fails (how a test
    /// reports, not what it is for) is no screenshot class.
    @Test func screenshotClassesAreTheOnesWhoseTestsKeepScreenshots() throws {
        let folder = Self.fixtures + "/mastodon/MastodonUITests"
        let texts = try ["MastodonUISnapshotTests.swift", "MastodonUITests.swift"].map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        let reading = ScreenshotTests.read(texts)
        #expect(reading.testClasses == ["MastodonUISnapshotTests", "MastodonUITests"], "\(reading)")
        #expect(reading.screenshotClasses == ["MastodonUISnapshotTests"], "\(reading)")
        let failureShots = """
        import XCTest
        final class LoginUITests: XCTestCase {
            let app = XCUIApplication()
            func testLogin() { app.launch(); XCTAssertTrue(app.buttons["login"].exists) }
            override func tearDown() {
                if (testRun?.failureCount ?? 0) > 0 { keep(app.screenshot()) }
                super.tearDown()
            }
            func keep(_ screenshot: XCUIScreenshot) {
                let attachment = XCTAttachment(screenshot: screenshot)
                attachment.lifetime = .keepAlways
                add(attachment)
            }
        }
        """
        let login = ScreenshotTests.read([failureShots])
        #expect(login.testClasses == ["LoginUITests"] && login.screenshotClasses.isEmpty, "\(login)")
        let home = try String(contentsOfFile: Self.fixtures + "/home-assistant/Tests/UI/HomeAssistantUITests.swift", encoding: .utf8)
        #expect(ScreenshotTests.read([home]).screenshotClasses == ["HomeAssistantUITests"], "fastlane's snapshot(\"01…\")")
    }
}
