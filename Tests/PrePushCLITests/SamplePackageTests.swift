import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Runs the sample package's real `swift test` (XCTest and Swift Testing tests that pass, fail and
/// skip on purpose) through `prepush run`, and holds prepush's reading of the console output against
/// the xunit files `swift test --xunit-output` writes for the same run.
@Suite struct SamplePackageTests {
    struct Outcome: Hashable { let name: String; let status: String }

    func outcomes(ofJSON text: String) throws -> [String: String] {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let tests = try #require(json["tests"] as? [[String: Any]])
        return Dictionary(tests.map { ("\($0["name"]!)", "\($0["status"]!)") }, uniquingKeysWith: { $1 })
    }

    @Test func realSwiftTestOutputIsParsedAndAgreesWithItsXunitFiles() throws {
        let repo = try GitRepository(prefix: "prepush-sample")
        let source = Fixtures.own + "/SamplePackage"
        for item in ["Package.swift", "Sources", "Tests"] {
            try FileManager.default.copyItem(atPath: source + "/" + item, toPath: repo.path + "/" + item)
        }
        try repo.write("""
        stages:
          unit:
            run: >-
              swift build --build-tests -q && { swift test --skip-build; status=$?;
              swift test --skip-build --parallel --xunit-output .prepush/xunit.xml >/dev/null 2>&1; exit $status; }

        """, to: ".prepush.yml")
        let run = try InProcessCLI.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 1, "the sample fails on purpose: \(run)")
        #expect(run.standardOutput.contains("prepush: tests: 2 passed, 3 failed, 2 skipped, 1 expected failure"), "\(run.standardOutput)")
        // Places from the repository root; Swift Testing's bare file name found in the repository.
        #expect(run.standardOutput.contains("   Tests/SampleXCTests/ArithmeticTests.swift:10: error: SampleXCTests.ArithmeticTests.test_add_fails: XCTAssertEqual failed: (\"4\") is not equal to (\"5\") - two and two"))
        #expect(run.standardOutput.contains("   Tests/SampleSwiftTests/SwiftTestingSamples.swift:11:9: error: SampleSwiftTests.SwiftTestingSamples.failsWithDisplayName(): Expectation failed: (add(1, 1) → 2) == 3"))

        // The stage's command names SwiftPM's xunit files; the console is unambiguous here (no name in two
        // suites), so its known issues and places are kept, and each test gets its identity from the
        // sources (a display name is its function's, as the event stream and xunit name it). The saved
        // log read again by `prepush report`, which reads the same sources, says the same.
        let fromStage = try outcomes(ofJSON: try #require(try? String(contentsOfFile: repo.path + "/.prepush/reports/results.json", encoding: .utf8)))
        let console = try InProcessCLI.run(["report", "--results", ".prepush/reports/unit.log", "--format", "json"], in: repo.path, environment: repo.environment)
        let fromConsole = try outcomes(ofJSON: console.standardOutput)
        #expect(fromStage == fromConsole)
        #expect(fromConsole == [
            "test_add_passes": "passed", "test_add_fails": "failed", "test_add_isSkipped": "skipped",
            "passes()": "passed", "failsWithDisplayName()": "failed", "skipped()": "skipped",
            "parameterized(value:)": "failed", "knownIssue()": "expectedFailure",
        ])

        // swift test's own xunit files (from the --parallel run) agree wherever they can tell.
        let xunit = try InProcessCLI.run(["results", ".prepush/xunit.xml", ".prepush/xunit-swift-testing.xml", "--format", "json"],
                                          in: repo.path, environment: repo.environment)
        #expect(xunit.status == 1, "\(xunit)")
        let fromXunit = try outcomes(ofJSON: xunit.standardOutput)
        #expect(fromXunit["test_add_fails"] == "failed")
        #expect(fromXunit["test_add_passes"] == "passed")
        // SwiftPM's XCTest xunit records an XCTSkip as a pass; the console says skipped.
        #expect(fromXunit["test_add_isSkipped"] == "passed")
        #expect(fromXunit["parameterized(value:)"] == "failed")
        #expect(fromXunit["skipped()"] == "skipped")
        #expect(fromXunit["passes()"] == "passed")
        // Swift Testing's xunit names the function, the console the display name; it has no "known issue".
        #expect(fromXunit["failsWithDisplayName()"] == "failed")
        #expect(fromXunit["knownIssue()"] == "passed")
    }
}
