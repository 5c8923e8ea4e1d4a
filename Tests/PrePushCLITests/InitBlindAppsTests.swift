import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush init` on two apps a helper judged from their CI files before init ever ran on them
/// (Tests/Fixtures/init-apps, real files): the stages each team's CI runs, and nothing that cannot run.
@Suite struct InitBlindAppsTests {
    /// NetNewsWire: the macOS job's `… test 2>&1 | tee log | xcbeautify` gives no `2>` argument; the iOS
    /// job is a stage of its own with its flags (`$(inherited)` is Xcode's, kept quoted); the packages
    /// the CI plan runs are no stages, whatever the scheme's stale testables say; the two no plan runs
    /// are comments.
    @Test func netNewsWiresTwoJobsAreStagesAndItsPlanRunsThePackages() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/netnewswire")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("(2 the team's CI does not run: comments)"), "\(result)")
        #expect(!result.standardError.contains("does not exist"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: rm -rf .build/prepush-unit.xcresult && xcodebuild test -project NetNewsWire.xcodeproj -scheme NetNewsWire -testPlan NetNewsWire-CI -xcconfig .github/macos-ci-no-signing.xcconfig -destination 'platform=macOS,arch=arm64' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("  unit-netnewswire-ios:\n"), "\(file)")
        #expect(file.contains(" -scheme NetNewsWire-iOS -testPlan NetNewsWire-iOS -xcconfig .github/ios-ci-no-signing.xcconfig 'OTHER_SWIFT_FLAGS=$(inherited) -DDEBUG -DSKIP_APP_GROUP_ACCESS' -destination 'platform=iOS Simulator,name=iPhone 17' "), "\(file)")
        #expect(!file.contains("'2>'") && !file.contains(" CoreTests,") && !file.contains(" CoreTests."), "\(file)")
        #expect(file.contains("  # Modules/Account/Package.swift declares test targets, which scheme NetNewsWire runs (the test plan NetNewsWire-CI the team's command names): no stage of its own, so each test runs once.\n"), "\(file)")
        #expect(file.contains("  # Modules/NewsBlur/Package.swift declares test targets, which no command init read in the team's CI runs: no stage; to run them on each push:\n"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// element-ios: every target is in a file `project.yml` includes, the project is gitignored
    /// beside a stale committed scheme, and CocoaPods makes the workspace. The stages generate, install
    /// the pods and test the workspace's schemes (unit Riot, UI RiotSwiftUITests, and RiotSwiftUI,
    /// which fastlane's test lane runs too); the fastlane build lane is no test command.
    @Test func elementIOSIsGeneratedFromItsIncludesAndBuiltThroughThePodsWorkspace() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/element-ios")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Riot (unit bundles: 1); ui: xcodebuild test -scheme RiotSwiftUITests (UI bundles: 1)"), "\(result)")
        #expect(!result.standardError.contains("project.pbxproj"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        // The simulator is the one the Fastfile's `uitest` lane names (`device: "iPhone 15"`).
        #expect(file.contains("    run: xcodegen generate --spec project.yml && bundle exec pod install && rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace Riot.xcworkspace -scheme Riot -destination 'platform=iOS Simulator,name=iPhone 15' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains(" && xcodebuild test -workspace Riot.xcworkspace -scheme RiotSwiftUITests -destination "), "\(file)")
        #expect(file.contains("  unit-riotswiftui:\n"), "\(file)")
        #expect(!file.contains("Guessed from their names") && !file.contains("fastlane build"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }
}
