import Foundation
import PrePushTestSupport
import Testing

/// An xcodebuild stage's result bundle, read through `xcrun` found on PATH: here a stand-in that
/// replays xcresulttool output captured from real runs (`shared/fixtures/xcresult-json`), so the
/// whole path — locating the bundle, running xcresulttool, reading its JSON, exporting attachments,
/// the reports — runs on Linux too.
@Suite struct ResultBundleStageTests {
    func fakeXcrun(in folder: TemporaryDirectory, failing: Bool = false) throws -> String {
        let fixture = Fixtures.shared + "/xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json"
        let manifest = #"[{"testIdentifier": "FastlaneTrainerExampleUITests/FastlaneTrainerExampleUITests/testBasicNavigation()", "attachments": {"exportedFileName": "Nav_0_1.png", "isAssociatedWithFailure": true}}]"#
        try folder.write("""
        #!/bin/sh
        # Replays captured xcresulttool output by its arguments; records every call.
        echo "$*" >> "\(folder.url("calls"))"
        \(failing ? "echo 'Error: This bundle is not a valid result bundle.' >&2; exit 1" : "")
        case "$1 $2 $3" in
          "xcresulttool get test-results") cat '\(fixture)' ;;
          "xcresulttool export attachments")
            while [ $# -gt 0 ]; do [ "$1" = --output-path ] && out="$2"; shift; done
            mkdir -p "$out" && printf 'PNG' > "$out/Nav_0_1.png" && printf '%s' '\(manifest)' > "$out/manifest.json" ;;
          *) exit 1 ;;
        esac
        """, to: "bin/xcrun", executable: true)
        return folder.url("bin")
    }

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        let stage = "mkdir -p Build/R.xcresult; echo \\\"Test Case '-[App.SmokeTests testOpens]' passed (0.010 seconds).\\\"; : -resultBundlePath Build/R.xcresult; exit 65"
        try repo.write("stages:\n  ui:\n    run: \"\(stage)\"\n", to: ".prepush.yml")
        return repo
    }

    @Test func theReportsComeFromTheBundleWithTheFailingTestsScreenshots() throws {
        let repo = try repository()
        let tools = try TemporaryDirectory()
        var environment = repo.environment
        environment["PATH"] = try fakeXcrun(in: tools) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try InProcess.run(in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/.prepush/reports/results.json"))) as? [String: Any])
        let tests = try #require(json["tests"] as? [[String: Any]])
        #expect(tests.count > 30, "\(tests.count) tests: the console's one, not the bundle's")
        let navigation = try #require(tests.first { $0["name"] as? String == "testBasicNavigation()" })
        #expect(navigation["screenshotPath"] as? String == repo.path + "/.prepush/reports/attachments/Nav_0_1.png")
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/attachments/Nav_0_1.png"))
        let calls = tools.read("calls") ?? ""
        #expect(calls.hasPrefix("xcresulttool get test-results tests --path \(repo.path)/Build/R.xcresult\n"), "\(calls)")
        #expect(!result.combined.contains("warning: cannot read the result bundle"))
    }

    @Test func theTraceabilityReportEmbedsTheFailingTestsScreenshotFromTheBundle() throws {
        let repo = try repository()
        // The fixture's tests are not named test_<feature>_<scenario>: the team's pattern maps them.
        let stage = "mkdir -p Build/R.xcresult; : -resultBundlePath Build/R.xcresult; exit 65"
        try repo.write("stages:\n  ui:\n    run: \"\(stage)\"\ntraceability:\n  testNamePattern: 'test[A-Z][A-Za-z]*'\n", to: ".prepush.yml")
        try repo.write("""
        scenarios:
          - story: US1
            priority: P2
            description: Navigate from the first screen
            test: FastlaneTrainerExampleUITests/testBasicNavigation()

        """, to: ".prepush/scenarios.yml")
        let tools = try TemporaryDirectory()
        var environment = repo.environment
        environment["PATH"] = try fakeXcrun(in: tools) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try InProcess.run(in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("prepush: scenarios: 1, 1 implemented, 0 passed, 1 failed"), "\(result.standardOutput)")
        let html = try String(contentsOfFile: repo.path + "/.prepush/reports/traceability.html", encoding: .utf8)
        // The exported attachment's bytes ("PNG"), inline: the report opens anywhere.
        #expect(html.contains("src=\"data:image/png;base64,\(Data("PNG".utf8).base64EncodedString())\""), "no embedded screenshot")
    }

    @Test func aBundleXcresulttoolCannotReadFallsBackToTheConsoleWithOneWarning() throws {
        let repo = try repository()
        let tools = try TemporaryDirectory()
        var environment = repo.environment
        environment["PATH"] = try fakeXcrun(in: tools, failing: true) + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try InProcess.run(in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        let warnings = result.combined.split(separator: "\n").filter { $0.contains("cannot read the result bundle") }
        #expect(warnings == ["prepush: warning: cannot read the result bundle Build/R.xcresult (xcresulttool get test-results exited 1: Error: This bundle is not a valid result bundle.); the results come from the console"], "\(result)")
        let json = try String(contentsOfFile: repo.path + "/.prepush/reports/results.json", encoding: .utf8)
        #expect(json.contains("\"testIdentifier\": \"App.SmokeTests.testOpens\""), "\(json)")
    }

    /// The fixture as xcodebuild would write it for a run of only its failed tests: the test cases
    /// that failed, with the suites and bundles that hold them, as captured (what `-only-testing:`
    /// of exactly those tests selects; their outcomes are the capture's, so they fail again).
    static func failedTestsOnly(of fixture: String) throws -> Data {
        func narrowed(_ node: [String: Any]) -> [String: Any]? {
            if node["nodeType"] as? String == "Test Case" { return node["result"] as? String == "Failed" ? node : nil }
            guard let children = node["children"] as? [[String: Any]] else { return nil }
            let kept = children.compactMap(narrowed)
            guard !kept.isEmpty else { return nil }
            var copy = node
            copy["children"] = kept
            return copy
        }
        let root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: fixture))) as? [String: Any])
        let nodes = try #require(root["testNodes"] as? [[String: Any]])
        return try JSONSerialization.data(withJSONObject: ["testNodes": nodes.compactMap(narrowed)])
    }

    @Test func anXcodebuildStageRunsOnlyItsFailedTestsAgainEachIntoItsOwnBundle() throws {
        let fixture = Fixtures.shared + "/xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json"
        let tools = try TemporaryDirectory()
        try tools.write(String(decoding: try Self.failedTestsOnly(of: fixture), as: UTF8.self), to: "failed-only.json")
        // xcodebuild: records its arguments, writes the bundle -resultBundlePath names (refusing
        // an existing one, as xcodebuild does) and fails as a run with failing tests does.
        try tools.write("""
        #!/bin/sh
        echo "$*" >> "\(tools.url("xcodebuild-calls"))"
        while [ $# -gt 0 ]; do [ "$1" = -resultBundlePath ] && out="$2"; shift; done
        [ -e "$out" ] && { echo "error: Existing file at -resultBundlePath \"$out\"" >&2; exit 70; }
        mkdir -p "$out"
        echo "** TEST FAILED **"
        exit 65
        """, to: "bin/xcodebuild", executable: true)
        try tools.write("""
        #!/bin/sh
        echo "$*" >> "\(tools.url("xcrun-calls"))"
        case "$1 $2 $3 $6" in
          "xcresulttool get test-results "*.retry-*.xcresult) cat '\(tools.url("failed-only.json"))' ;;
          "xcresulttool get test-results "*) cat '\(fixture)' ;;
          *) exit 1 ;;
        esac
        """, to: "bin/xcrun", executable: true)
        let repo = try GitRepository()
        try repo.write("""
        stages:
          ui:
            run: xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16' -resultBundlePath Build/UI.xcresult
            retry: 2

        """, to: ".prepush.yml")
        // A bundle of the same name left by an earlier push: prepush's own, removed before the retry.
        try repo.write("stale", to: "Build/UI.retry-1.xcresult/Info.plist")
        var environment = repo.environment
        environment["PATH"] = tools.url("bin") + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        let result = try InProcess.run(in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")

        let calls = (tools.read("xcodebuild-calls") ?? "").split(separator: "\n").map(String.init)
        #expect(calls.count == 3, "1 run and 2 retries: \(calls)")
        #expect(calls.first?.hasPrefix("test -scheme App") == true, "\(calls)")
        for (retry, call) in calls.dropFirst().enumerated() {
            #expect(call.contains(" test-without-building ") && !call.contains(" test "), "\(call)")
            #expect(call.hasSuffix("-resultBundlePath Build/UI.retry-\(retry + 1).xcresult"), "\(call)")
            let selected = Set(call.split(separator: " ").filter { $0.hasPrefix("-only-testing:") })
            // Exactly the failed tests, each in the forms xcodebuild takes; none that passed.
            #expect(selected.contains("-only-testing:FastlaneTrainerExampleUITests/FastlaneTrainerExampleUITests/testBasicNavigation"))
            #expect(selected.contains("-only-testing:FastlaneTrainerExampleUITests/FastlaneTrainerExampleUITests/testBasicNavigation()"))
            #expect(selected.contains("-only-testing:FastlaneTrainerExampleTests/FastlaneTrainerTests/UserTests/RegistrationTests/PasswordTests/testPasswordLength()"))
            #expect(selected.contains("-only-testing:FastlaneTrainerExampleXCTests/FastlaneTrainerExampleXCTests/testBasicAssertions"))
            #expect(!selected.contains { $0.contains("testAlertHandling") || $0.contains("testPasswordComplexity") }, "\(selected)")
        }
        let reads = (tools.read("xcrun-calls") ?? "").split(separator: "\n").filter { $0.hasPrefix("xcresulttool get test-results") }
        #expect(reads.map { $0.split(separator: " ").last.map(String.init) ?? "" }
            == ["Build/UI.xcresult", "Build/UI.retry-1.xcresult", "Build/UI.retry-2.xcresult"].map { repo.path + "/" + $0 }, "\(reads)")
        #expect(result.combined.contains("prepush ↻ ui: running"), "\(result)")
        #expect(result.combined.contains("(retry 2 of 2, xcodebuild test-without-building -only-testing)"), "\(result)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/.prepush/reports/results.json"))) as? [String: Any])
        let tests = try #require(json["tests"] as? [[String: Any]])
        // Xcode ran each failing UI test twice per run (the capture's repetitions): 2 + 2 + 2.
        #expect(tests.first { $0["name"] as? String == "testBasicNavigation()" }?["attempts"] as? Int == 6)
        #expect(tests.first { $0["name"] as? String == "testAlertHandling()" }?["attempts"] as? Int == 1)
    }
}
