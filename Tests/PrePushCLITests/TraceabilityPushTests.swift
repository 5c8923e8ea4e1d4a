import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The traceability gate through real pushes: a small Swift package whose tests run for real in the
/// unit stage, a scenario catalog, and the installed hook.
/// Own process: the gate refuses real `git push`es through the installed hook (the remote stays) and
/// lets one through (the remote moves), with the step summary named in the push's environment.
@Suite struct TraceabilityPushTests {
    static let package = """
    // swift-tools-version:5.9
    import PackageDescription

    let package = Package(
        name: "Shop",
        targets: [
            .target(name: "Shop"),
            .testTarget(name: "ShopTests", dependencies: ["Shop"]),
        ]
    )

    """
    static let source = "public func total(_ prices: [Int]) -> Int { prices.reduce(0, +) }\n"
    static let tests = """
    import Foundation
    import XCTest
    import Shop

    final class CheckoutTests: XCTestCase {
        func test_checkout_pays() {
            XCTAssertEqual(total([1, 2]), 3)
        }

        func test_checkout_refunds() {
            // Broken on purpose when the stage says so.
            let broken = ProcessInfo.processInfo.environment["REFUNDS_BROKEN"] != nil
            XCTAssertEqual(total([5, -5]), broken ? 1 : 0, "a full refund leaves nothing")
        }
    }

    """

    func catalog(receipt: String?) -> String {
        var text = """
        stories:
          US1: Check out
        scenarios:
          - story: US1
            priority: P1
            description: Pay for the basket
            test: test_checkout_pays
          - story: US1
            priority: P1
            description: Refund a payment in full
            test: test_checkout_refunds

        """
        if let receipt {
            text += "  - story: US1\n    priority: \(receipt)\n    description: Email a receipt\n    test: test_checkout_receipt\n"
        }
        return text
    }

    @Test func aFailingOrMissingP1ScenarioRefusesThePushAndP2OnlyReports() throws {
        let repo = try GitRepository(prefix: "prepush-gate")
        try repo.write(Self.package, to: "Package.swift")
        try repo.write(Self.source, to: "Sources/Shop/Shop.swift")
        try repo.write(Self.tests, to: "Tests/ShopTests/CheckoutTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("stages:\n  unit:\n    run: swift test\n    env:\n      REFUNDS_BROKEN: '1'\n", to: ".prepush.yml")
        try repo.write(catalog(receipt: nil), to: ".prepush/scenarios.yml")
        try repo.commitAll("shop")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)

        // 1. The P1 refund test fails: the stage fails, and the report says which scenario.
        let failing = try repo.push()
        #expect(failing.status != 0)
        #expect(failing.combined.contains("prepush: scenarios: 2, 2 implemented, 1 passed, 1 failed"), "\(failing.combined)")
        #expect(failing.combined.contains("error: P1 scenario test_checkout_refunds (US1: Refund a payment in full) failed: XCTAssertEqual failed"))
        let html = try #require(try? String(contentsOfFile: repo.path + "/.prepush/reports/traceability.html", encoding: .utf8))
        #expect(html.contains("data-status=\"failed\" data-priority=\"P1\""))
        #expect(try repo.remoteHead() == nil)

        // 2. The tests pass, but a P1 scenario has no test: the gate alone refuses.
        try repo.write("stages:\n  unit:\n    run: swift test\n", to: ".prepush.yml")
        try repo.write(catalog(receipt: "P1"), to: ".prepush/scenarios.yml")
        try repo.commitAll("receipts are P1")
        let missing = try repo.push()
        #expect(missing.status != 0)
        #expect(missing.combined.contains("error: P1 scenario test_checkout_receipt (US1: Email a receipt) has no test; catalog: .prepush/scenarios.yml:12:5"))
        #expect(missing.combined.contains("push refused: the traceability gate found 1 problem (blocking: P1)"))
        #expect(try repo.remoteHead() == nil)

        // 3. As P2 the same gap only reports.
        try repo.write(catalog(receipt: "P2"), to: ".prepush/scenarios.yml")
        try repo.commitAll("receipts are P2")
        let summary = repo.root.url("step-summary.md")
        try repo.root.write("", to: "step-summary.md")
        let reported = try repo.push(environment: ["GITHUB_STEP_SUMMARY": summary])
        #expect(reported.status == 0, "\(reported.combined)")
        let appended = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(appended.contains("## Traceability: 3 scenarios, 2 implemented, 2 passed, 0 failed"), "the step summary gets the matrix too")
        #expect(reported.combined.contains("prepush: scenarios: 3, 2 implemented, 2 passed, 0 failed"))
        let markdown = try #require(try? String(contentsOfFile: repo.path + "/.prepush/reports/traceability.md", encoding: .utf8))
        #expect(markdown.contains("| 🚫 no test | P2 | US1 | Email a receipt |"))
        #expect(try repo.remoteHead() == (try repo.head()))
    }

    @Test func aTeamsOwnTestNamesMapWithTestNamePattern() throws {
        let repo = try GitRepository(prefix: "prepush-names")
        try repo.write(Self.package, to: "Package.swift")
        try repo.write(Self.source, to: "Sources/Shop/Shop.swift")
        try repo.write("""
        import XCTest
        import Shop

        final class CheckoutTests: XCTestCase {
            func testCheckoutPays() { XCTAssertEqual(total([1, 2]), 3) }
        }

        """, to: "Tests/ShopTests/CheckoutTests.swift")
        try repo.write("""
        import Testing
        import Shop

        @Suite struct RefundTests {
            @Test("Refund in full") func refundInFull() { #expect(total([5, -5]) == 0) }
        }

        """, to: "Tests/ShopTests/RefundTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        let catalog = """
        scenarios:
          - userStory: US1
            priority: P1
            description: Pay for the basket
            testMethodName: CheckoutTests/testCheckoutPays()
          - userStory: US1
            priority: P1
            description: Refund a payment in full
            testMethodName: Refund in full

        """
        try repo.write(catalog, to: ".prepush/scenarios.yml")
        // Without a pattern, rule 5 refuses both names, and says how to use another naming.
        try repo.write("stages:\n  unit:\n    run: swift test --event-stream-output-path .build/events.jsonl --event-stream-version 0\n", to: ".prepush.yml")
        try repo.commitAll("shop")
        let strict = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(strict.status == 1, "\(strict)")
        #expect(strict.standardError.contains(".prepush/scenarios.yml:5:21: error: test method \"CheckoutTests/testCheckoutPays()\" does not match test_<feature>_<scenario>"), "\(strict.standardError)")
        #expect(strict.standardError.contains("set traceability.testNamePattern for another naming"))

        try repo.write("""
        stages:
          unit:
            run: swift test --event-stream-output-path .build/events.jsonl --event-stream-version 0
        traceability:
          testNamePattern: '^(test[A-Z][A-Za-z0-9]*|[A-Z][A-Za-z ]+)$'

        """, to: ".prepush.yml")
        try repo.commitAll("our naming")
        let lint = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 0, "\(lint)")
        let run = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("prepush: scenarios: 2, 2 implemented, 2 passed, 0 failed"), "\(run.standardOutput)")

        // A pattern that is not a regular expression is an error with its place.
        try repo.write("traceability:\n  testNamePattern: '(unclosed'\n", to: ".prepush.yml")
        let bad = try InProcessCLI.run(["config"], in: repo.path, environment: repo.environment)
        #expect(bad.status == 2)
        #expect(bad.standardError.contains(".prepush.yml:2:20: error: traceability.testNamePattern: \"(unclosed\" is not a regular expression"), "\(bad.standardError)")
    }

    @Test func withoutStagesTheGateStillSeesAP1ScenarioWithoutATest() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    skip: true\n", to: ".prepush.yml")
        try repo.write("scenarios:\n  - story: US1\n    priority: P1\n    description: d\n    test: test_a_b\n", to: ".prepush/scenarios.yml")
        try repo.commitAll("catalog only")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let push = try repo.push()
        #expect(push.status != 0)
        #expect(push.combined.contains("error: P1 scenario test_a_b (US1: d) has no test"))
        #expect(repo.exists(".prepush/reports/traceability.html"))

        // With a manual scenario only, the gate passes: every line once, the verdict last (issue 38:
        // "nothing to run" was written twice).
        try repo.write("scenarios:\n  - story: US1\n    priority: P1\n    description: d\n    test: test_a_b\n    manual: true\n", to: ".prepush/scenarios.yml")
        try repo.commitAll("a manual scenario")
        let passing = try repo.push()
        #expect(passing.status == 0, "\(passing.combined)")
        let lines = passing.standardOutput.split(separator: "\n").filter { $0.hasPrefix("prepush") }
        #expect(lines.filter { $0.contains("nothing to run") }.count == 1, "\(passing.standardOutput)")
        #expect(Set(lines).count == lines.count, "no line twice: \(lines)")
        #expect(lines.last == "prepush: nothing to run: every configured stage is skipped", "\(lines)")
    }

    @Test func aBrokenCatalogStopsThePushBeforeAnyStage() throws {
        let repo = try GitRepository()
        try repo.write("stages:\n  unit:\n    run: touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.write("scenarios:\n  - story: US1\n    priority: P9\n    description: d\n    test: test_a_b\n", to: ".prepush/scenarios.yml")
        try repo.commitAll("bad catalog")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let push = try InProcessCLI.hook(repo)
        #expect(push.status != 0)
        #expect(push.standardError.contains(".prepush/scenarios.yml:3:15: error: unknown priority \"P9\"; expected P1, P2 or P3"))
        #expect(push.standardError.contains("prepush scenarios lint"))
        #expect(!repo.root.exists("stage-ran"))
    }
}

@Suite struct TraceabilityCommandTests {
    static let fixture = Fixtures.own + "/traceability"

    @Test func lintSaysWhatIsWrongOrThatAllIsWell() throws {
        let folder = try TemporaryDirectory()
        let good = try InProcessCLI.run(["scenarios", "lint", Self.fixture + "/scenarios.yml"], in: folder.path, environment: [:])
        #expect(good.status == 0, "\(good)")
        #expect(good.standardOutput.hasSuffix("scenarios.yml: 7 scenarios in 2 stories (1 manual): no problems\n"))
        try folder.write("scenarios:\n  - story: US1\n    priority: P1\n    description: d\n    test: testA\n    launchArguments: [x]\n", to: "bad.yml")
        let bad = try InProcessCLI.run(["scenarios", "lint", "bad.yml"], in: folder.path, environment: [:])
        #expect(bad.status == 1)
        #expect(bad.standardError == """
        bad.yml:5:11: error: test method "testA" does not match test_<feature>_<scenario> (for example test_login_validCredentials); set traceability.testNamePattern for another naming
            test: testA
                  ^
        bad.yml:6:23: error: launch argument "x" must start with "--"
            launchArguments: [x]
                              ^
        2 problems

        """)
        let missing = try InProcessCLI.run(["scenarios", "lint", "nope.yml"], in: folder.path, environment: [:])
        #expect(missing.status == 1)
        #expect(missing.standardError.hasPrefix("nope.yml:1:1: error: the scenario catalog does not exist"))
    }

    @Test func reportWritesEachFormatFromSavedResults() throws {
        let repo = try GitRepository()
        for item in ["AgenticTodoUITests", "Tests", "App", "scenarios.yml", "junit.xml"] {
            try FileManager.default.copyItem(atPath: Self.fixture + "/" + item, toPath: repo.path + "/" + item)
        }
        for format in ["html", "markdown", "json"] {
            let result = try InProcessCLI.run(["report", "--scenarios", "scenarios.yml", "--results", "junit.xml", "--format", format,
                                                "--output", "out/report.\(format)"], in: repo.path, environment: repo.environment)
            #expect(result.status == 1, "the failing P1 scenario refuses: \(result)")
            #expect(result.standardError.contains("error: P1 scenario test_login_validCredentials"))
            #expect(repo.exists("out/report.\(format)"))
        }
        let missing = try InProcessCLI.run(["report", "--scenarios", "scenarios.yml", "--results", "nope.xml"], in: repo.path, environment: repo.environment)
        #expect(missing.status == 2)
        #expect(missing.standardError == "error: nope.xml: no such file\n")
        #if os(Linux)
        // /proc takes no new folders: the system's words, not Foundation's error dump.
        let unwritable = try InProcessCLI.run(["report", "--scenarios", "scenarios.yml", "--output", "/proc/none/report.html"],
                                               in: repo.path, environment: repo.environment)
        #expect(unwritable.status == 2)
        #expect(unwritable.standardError.hasPrefix("error: cannot write /proc/none/report.html: No such file or directory"))
        #endif
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/out/report.json"))) as? [String: Any])
        #expect(json["version"] as? Int == 2)
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["status"] as? String } == ["failed", "passed", "not run", "not run", "passed", "no test", "manual"])
        #expect((json["gate"] as? [String: Any])?["passed"] as? Bool == false)
        #expect((json["unmappedTests"] as? [Any])?.count == 5)
        // In the HTML report the tests no scenario names are a count with a collapsed list.
        let html = try String(contentsOfFile: repo.path + "/out/report.html", encoding: .utf8)
        #expect(html.contains("<h2>Tests in no scenario (5)</h2>\n<details><summary>show the 5 tests</summary>"))
    }
}

/// `prepush report` in a repository with no scenario catalog: the merge job of docs/ci.md still works.
@Suite struct ReportWithoutCatalogTests {
    @Test func theResultsAreMergedAndTheirFailuresRefuse() throws {
        let repo = try GitRepository()
        try repo.write("# no catalog here\n", to: "README.md")
        try repo.commitAll("no catalog")
        let failing = Fixtures.shared + "/junit/fastlane__trainer_fixtures__Valid1.junit.xml"
        let report = try InProcessCLI.run(["report", "--results", failing, "--format", "markdown"], in: repo.path, environment: repo.environment)
        #expect(report.status == 1, "\(report)")
        #expect(report.standardError.contains("prepush: note: no scenario catalog; the report is the tests' own (results.md), and any failure refuses"), "\(report)")
        // Each failure on standard error with its place and suite; the report is the tests' own, with no scenario line.
        #expect(report.standardError.contains(" failed: "), "\(report)")
        #expect(report.standardOutput.hasPrefix("## ❌ "), "\(report.standardOutput)")
        #expect(!report.standardOutput.contains("scenario"), "\(report.standardOutput)")
        let table = report.standardOutput.split(separator: "\n").filter { $0.hasPrefix("|") }.prefix(3)
        #expect(Set(table.map { $0.filter { $0 == "|" }.count }).count == 1, "a well-formed table: \(table)")

        // Passing results pass: the own captured run of a package with no failure, as results.json.
        let passing = try InProcessCLI.run(["results", failing, "--format", "json"], in: repo.path, environment: repo.environment)
        var json = try #require(try JSONSerialization.jsonObject(with: Data(passing.standardOutput.utf8)) as? [String: Any])
        json["tests"] = (json["tests"] as? [[String: Any]] ?? []).filter { $0["status"] as? String == "passed" }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: repo.root.url("passed.json")))
        let green = try InProcessCLI.run(["report", "--results", repo.root.url("passed.json"), "--format", "json"], in: repo.path, environment: repo.environment)
        #expect(green.status == 0, "\(green)")
    }
}
