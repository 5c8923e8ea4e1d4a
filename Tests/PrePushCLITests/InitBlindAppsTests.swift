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

    /// The Corona-Warn-App (third blind round): CI runs, from `src/xcode`, one fastlane lane with
    /// `testplan:UnitTests` and again with `testplan:UITests`. Each stage runs the scheme with the plan
    /// that runs its bundles, the lane's one test configuration and its simulator.
    @Test func theCoronaWarnAppsTwoPlansAreItsTwoStages() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/corona-warn-app")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: rm -rf .build/prepush-unit.xcresult && xcodebuild test -workspace src/xcode/ENA.xcworkspace -scheme ENA -testPlan UnitTests -only-test-configuration DE -destination 'platform=iOS Simulator,name=iPhone 13' -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        #expect(file.contains("    run: rm -rf .build/prepush-ui.xcresult && xcodebuild test -workspace src/xcode/ENA.xcworkspace -scheme ENA -testPlan UITests -only-test-configuration DE -destination 'platform=iOS Simulator,name=iPhone 13' -resultBundlePath .build/prepush-ui.xcresult\n"), "\(file)")
        #expect(file.contains("    # The team's CI runs this scheme through fastlane: arch -arm64 bundle exec fastlane test_without_building testplan:UnitTests    (.github/workflows/PullRequest.yml:149)"), "\(file)")
        #expect(!file.contains("-skip-testing"), "a named plan skips what it skips itself: \(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Habitica (third blind round): the workflow tests scheme Habitica with `-testPlan "Unit Tests"`
    /// and with `-testPlan "UI Tests"`, though the scheme's default plan runs no UI bundle; its
    /// `secrets.yml` is gitignored beside a committed example; its CI's `pod install` is from before
    /// the move to packages and no Podfile is left.
    @Test func habiticasUIPlanIsItsUIStage() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/habitica")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("ui: xcodebuild test -scheme Habitica (UI bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains(" && xcodebuild test -workspace Habitica.xcworkspace -scheme Habitica -testPlan 'Unit Tests' -showBuildTimingSummary -skip-testing:HabiticaTests/TaskRepeatablesSummaryInteractorTests -destination \"$destination\" -resultBundlePath .build/prepush-unit.xcresult\n"), "\(file)")
        // The skip is the default plan's, which the unit stage names; the UI plan skips what it skips itself.
        #expect(!file.contains("-testPlan 'UI Tests' -showBuildTimingSummary -skip-testing"), "\(file)")
        #expect(file.contains(" && xcodebuild test -workspace Habitica.xcworkspace -scheme Habitica -testPlan 'UI Tests' -showBuildTimingSummary -destination \"$destination\" -resultBundlePath .build/prepush-ui.xcresult\n"), "\(file)")
        #expect(file.contains("  # secrets.yml is not committed (the .gitignore names it) but secrets.yml.example is: "), "\(file)")
        #expect(!file.contains("pod install"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// The Blue Alliance with its scheme: the stage copies the mock secrets into place, as the
    /// workflow does, when they are missing.
    @Test func theMockSecretsTheCICopiesAreCopiedByTheStage() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/the-blue-alliance")
        try repo.write(InitRealAppTests.scheme([("A1", "TBAUnitTests", "the-blue-alliance-ios.xcodeproj")]),
                       to: "the-blue-alliance-ios.xcodeproj/xcshareddata/xcschemes/The Blue Alliance.xcscheme")
        #expect(try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment).status == 0)
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: test -e the-blue-alliance-ios/Secrets.plist || cp mock-Secrets.plist the-blue-alliance-ios/Secrets.plist && rm -rf .build/prepush-unit.xcresult && xcodebuild test -project the-blue-alliance-ios.xcodeproj -scheme 'The Blue Alliance' "), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Two schemes of one unit bundle each, both tested by the team's CI (kDrive's local tests and
    /// its API tests, which need an account): the unit stage is the one CI runs first, not the first
    /// by name; the other is a stage of its own.
    @Test func amongEqualSchemesTheUnitStageIsTheOneCIRunsFirst() throws {
        let repo = try GitRepository()
        try repo.write(InitRealAppTests.scheme([("A1", "AppAPITests", "App.xcodeproj")]), to: "App.xcodeproj/xcshareddata/xcschemes/AppAPITests.xcscheme")
        try repo.write(InitRealAppTests.scheme([("A2", "AppTests", "App.xcodeproj")]), to: "App.xcodeproj/xcshareddata/xcschemes/AppTests.xcscheme")
        try repo.write("""
        jobs:
          local:
            steps:
              - run: xcodebuild test -project App.xcodeproj -scheme AppTests -destination 'platform=iOS Simulator,name=iPhone 16'
          api:
            steps:
              - run: xcodebuild test -project App.xcodeproj -scheme AppAPITests -destination 'platform=iOS Simulator,name=iPhone 16'
        """, to: ".github/workflows/ci.yml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme AppTests (unit bundles: 1)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  unit-appapitests:\n"), "\(file)")
    }

    /// Passepartout (fifth round, after reading it): the workflow runs `ci/run-apple-tests.sh`, whose
    /// one line is `cd app-apple && FOR_TESTING=1 swift test`, and every test the CI runs is a
    /// `swift test`. The script's lines are the CI's own; the app scheme's one unit bundle, which no
    /// CI runs, is a comment, and the package the script tests is the stage.
    @Test func aCIThatOnlyRunsSwiftTestThroughItsScriptsLeavesTheSchemeAComment() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/passepartout")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: none (scheme Passepartout is one the team's CI never runs: a comment)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("  #   cd app-apple && FOR_TESTING=1 swift test    (ci/run-apple-tests.sh:2)\n"), "\(file)")
        #expect(file.contains("  # Scheme Passepartout tests unit bundles PassepartoutTests, which the team's CI never runs (its tests are swift test: ci/run-apple-tests.sh:2): no stage; to run them on each push:\n  # unit:\n"), "\(file)")
        #expect(file.contains("  package-app-apple:\n    # app-apple/Package.swift declares test targets.\n    run: swift test\n    workingDirectory: app-apple\n"), "\(file)")
        #expect(!file.contains("\n  unit:") && !file.contains("\n  ui:"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }

    /// Eurofurence (seventh round): fastlane snapshot runs the app scheme with `testplan("Screenshots")`,
    /// and the scheme's default plan runs the Screenshots bundle beside the app's own UI bundles. The
    /// scheme is the app's, not a screenshot scheme: the unit stage runs its unit bundles, the UI stage
    /// its UI bundles without the screenshot one, and the App Clip's scheme (one bundle each) is no stage.
    @Test func aSchemeSnapshotRunsWithAnotherPlanIsTheAppsOwn() throws {
        let repo = try InitGeneratorTests.repository(from: "../init-apps/eurofurence")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0 && result.standardOutput.contains("unit: xcodebuild test -scheme Eurofurence (unit bundles: 6); ui: xcodebuild test -scheme Eurofurence (UI bundles: 3)"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains(" -scheme Eurofurence -skip-testing:Screenshots -skip-testing:EurofurenceUITests -skip-testing:'Eurofurence Clip UITests' "), "\(file)")
        #expect(file.contains(" -scheme Eurofurence -only-testing:EurofurenceUITests -only-testing:'Eurofurence Clip UITests' "), "\(file)")
        #expect(file.contains("  # Scheme Screenshots takes screenshots (Screenshots holds fastlane's SnapshotHelper.swift) and no command init read in the team's CI runs it: no stage;"), "\(file)")
        #expect(!file.contains("Scheme Eurofurence takes screenshots") && !file.contains("-scheme 'Eurofurence Clip'"), "\(file)")
        #expect(try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }
}
