import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `retry:` and `flaky:` on a real package built here: an XCTest and a Swift Testing test that fail
/// on their first run and pass on the second (the count of runs is kept in files of a folder the
/// stage names), steady tests that count their runs too, and a test that fails every time when the
/// stage asks it to. Pushed through the installed hook.
/// Own process: each case is a real `git push` through the installed hook, as a developer meets a retry:
/// a refusal is git's (the push fails, the remote stays).
@Suite(.serialized) struct FlakyTestsTests {
    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-flaky")
        try repo.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Shop",
            targets: [
                .target(name: "Shop"),
                .testTarget(name: "ShopTests", dependencies: ["Shop"]),
            ]
        )

        """, to: "Package.swift")
        try repo.write("public let answer = 42\n", to: "Sources/Shop/Shop.swift")
        try repo.write("""
        import Foundation

        /// Counts a test's runs in a file of the folder `FLAKY_STATE` names: the n-th run returns n.
        func countRun(_ name: String) -> Int {
            let path = (ProcessInfo.processInfo.environment["FLAKY_STATE"] ?? NSTemporaryDirectory()) + "/" + name
            let count = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\\n").count + 1
            if let handle = FileHandle(forWritingAtPath: path) {
                handle.seekToEndOfFile()
                handle.write(Data("run\\n".utf8))
                handle.closeFile()
            } else {
                _ = FileManager.default.createFile(atPath: path, contents: Data("run\\n".utf8))
            }
            return count
        }

        func setting(_ name: String) -> String? { ProcessInfo.processInfo.environment[name] }

        """, to: "Tests/ShopTests/Runs.swift")
        try repo.write("""
        import Foundation
        import XCTest
        @testable import Shop

        final class CheckoutTests: XCTestCase {
            func testPaysOnTheSecondTry() {
                XCTAssertGreaterThan(countRun("xctest-flaky"), 1, "the payment service was not ready")
            }

            func testTotals() {
                _ = countRun("xctest-steady")
                XCTAssertEqual(answer, 42)
            }

            func testRefund() {
                _ = countRun("xctest-broken")
                if setting("FLAKY_BROKEN") == "1" { XCTFail("refunds are broken") }
            }

            func testFlipsEveryOtherRun() {
                guard setting("FLAKY_FLIP") == "1" else { return }
                XCTAssertEqual(countRun("xctest-flip") % 2, 0, "odd run")
            }

            func testSlowAndFailing() {
                guard let seconds = setting("FLAKY_SLEEP").flatMap(UInt32.init) else { return }
                _ = countRun("xctest-slow")
                sleep(seconds)
                XCTFail("slow and failing")
            }
        }

        """, to: "Tests/ShopTests/CheckoutTests.swift")
        try repo.write("""
        import Testing
        @testable import Shop

        @Suite struct BasketTests {
            @Test func addsOnTheSecondTry() {
                #expect(countRun("testing-flaky") > 1, "the basket was not loaded")
            }

            @Test func counts() {
                _ = countRun("testing-steady")
                #expect(answer == 42)
            }
        }

        """, to: "Tests/ShopTests/BasketTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("cache: false\n", to: ".prepush.yml")
        try repo.commitAll("a shop with flaky tests")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    /// Pushes with a unit stage that runs the tests with `settings` (YAML lines of the stage) and
    /// `env` (its variables, the state folder added); returns the push and the state folder.
    static func push(_ settings: String, env: [String: String] = [:], timeout: Int = 600, cache: Bool = false) throws -> (CommandResult, TemporaryDirectory, GitRepository) {
        let repo = try built.repository()
        let state = try TemporaryDirectory(prefix: "prepush-flaky-state")
        let variables = env.merging(["FLAKY_STATE": state.path]) { $1 }.sorted { $0.key < $1.key }
            .map { "      \($0.key): \"\($0.value)\"\n" }.joined()
        try repo.write("""
        cache: \(cache)
        stages:
          unit:
            run: swift test --skip-build
            timeout: \(timeout)
        \(settings.split(separator: "\n").map { "    " + $0 + "\n" }.joined())    env:
        \(variables)
        """, to: ".prepush.yml")
        try repo.commitAll("stage: \(settings.replacingOccurrences(of: "\n", with: ", "))")
        return (try repo.push(), state, repo)
    }

    /// How many times a test counted a run.
    static func runs(_ name: String, in state: TemporaryDirectory) -> Int {
        (state.read(name) ?? "").split(separator: "\n").count
    }

    @Test func aTestThatFailsThenPassesIsFlakyTheWarningNamesItAndOnlyFailedTestsRunAgain() throws {
        let (push, state, repo) = try Self.push("retry: 1")
        #expect(push.status == 0, "\(push)")
        #expect(push.standardOutput.contains("prepush: warning: unit: 2 flaky tests failed and then passed: ShopTests.CheckoutTests.testPaysOnTheSecondTry (passed on attempt 2), ShopTests.BasketTests.addsOnTheSecondTry() (passed on attempt 2)"), "\(push)")
        #expect(push.standardOutput.contains("prepush: tests: 7 passed, 0 failed, 2 flaky"))
        // The failed tests ran twice; those that passed, once.
        #expect(Self.runs("xctest-flaky", in: state) == 2 && Self.runs("testing-flaky", in: state) == 2)
        #expect(Self.runs("xctest-steady", in: state) == 1 && Self.runs("testing-steady", in: state) == 1 && Self.runs("xctest-broken", in: state) == 1)
        let junit = try #require(repo.root.read("work/.prepush/reports/junit.xml"))
        #expect(junit.contains(#"<flakyFailure message="XCTAssertGreaterThan failed: (&quot;1&quot;) is not greater than (&quot;1&quot;) - the payment service was not ready""#), "\(junit)")
        let results = try #require(repo.root.read("work/.prepush/reports/results.json"))
        #expect(results.contains(#""attempts": 2"#), "\(results)")
    }

    @Test func flakyRefuseRefusesThePush() throws {
        let (push, state, _) = try Self.push("retry: 1\nflaky: refuse")
        #expect(push.status != 0)
        #expect(push.standardOutput.contains("prepush: push refused: unit: 2 flaky tests failed and then passed on a retry (flaky: refuse)"), "\(push)")
        #expect(Self.runs("xctest-flaky", in: state) == 2)
    }

    /// A pass with a flaky test is never kept as the tree's verdict: refused under `refuse`, the
    /// same tree runs again at the next push instead of passing from the cache.
    @Test func aFlakyPassIsNotCached() throws {
        let (push, state, repo) = try Self.push("retry: 1\nflaky: refuse", cache: true)
        #expect(push.status != 0)
        let again = try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)
        #expect(Self.runs("xctest-steady", in: state) == 2)
        #expect(!again.standardOutput.contains("already passed"), "\(again)")
        #expect(again.standardOutput.contains("prepush: tests: 7 passed, 0 failed"), "\(again)")
    }

    @Test func aTestThatAlwaysFailsRunsOncePlusItsRetriesAndRefuses() throws {
        let (push, state, repo) = try Self.push("retry: 2", env: ["FLAKY_BROKEN": "1"])
        #expect(push.status != 0, "\(push)")
        #expect(push.standardOutput.contains("prepush: push refused: unit: failed (exit 1)"), "\(push)")
        #expect(Self.runs("xctest-broken", in: state) == 3)
        #expect(Self.runs("xctest-steady", in: state) == 1)
        let junit = try #require(repo.root.read("work/.prepush/reports/junit.xml"))
        #expect(junit.components(separatedBy: "<rerunFailure message=\"failed - refunds are broken\"").count - 1 == 2, "\(junit)")
    }

    @Test func theStageTimeoutBoundsEveryAttempt() throws {
        // The slow test takes 4 of the stage's 5 seconds: no time is left for the 5 retries asked.
        let (push, state, _) = try Self.push("retry: 5", env: ["FLAKY_SLEEP": "4"], timeout: 5)
        #expect(push.status != 0, "\(push)")
        #expect(Self.runs("xctest-slow", in: state) == 1, "\(push)")
        // On a loaded machine the first attempt itself can outlast the 5 s (the runner's start and
        // the 4 s test): then the stage timed out and nothing was retried either. Otherwise the
        // run says why no retry ran.
        if !push.standardOutput.contains("prepush ✘ unit: timed out after 5 s") {
            #expect(push.standardOutput.contains("prepush: note: unit: no time is left of the stage's 5 s timeout for a retry"), "\(push)")
        }
    }

    /// 20 runs of a test that fails every other time: `prepush flaky` names it with its rate (and
    /// the test that failed once and then passed on the same tree), not the steady ones.
    @Test func theHistoryOfTwentyRunsNamesTheTestThatFlips() throws {
        let (first, state, repo) = try Self.push("flaky: warn", env: ["FLAKY_FLIP": "1"])
        #expect(first.status != 0)
        for _ in 0..<19 {
            _ = try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)
        }
        #expect(Self.runs("xctest-flip", in: state) == 20)
        let flaky = try InProcessCLI.run(["flaky", "--runs", "20"], in: repo.path, environment: repo.environment)
        #expect(flaky.status == 0, "\(flaky)")
        #expect(flaky.standardOutput.contains("  ShopTests.CheckoutTests.testFlipsEveryOtherRun: 50% of 20 runs on 1 tree did not pass at once (10 failed on a tree it also passed on, 0 passed on a retry); passed and failed on the same tree (1 tree); flipped 19 times"), "\(flaky)")
        #expect(flaky.standardOutput.contains("  ShopTests.CheckoutTests.testPaysOnTheSecondTry: 5% of 20 runs"), "\(flaky)")
        #expect(!flaky.standardOutput.contains("testTotals"))
        let suggest = try InProcessCLI.run(["flaky", "--runs", "20", "--suggest"], in: repo.path, environment: repo.environment)
        #expect(suggest.standardOutput.hasPrefix("quarantine:\n  - test: \"ShopTests.CheckoutTests.testFlipsEveryOtherRun\"\n    reason: \"flaky: 50% of 20 runs;"), "\(suggest)")
        let history = try InProcessCLI.run(["history", "testFlipsEveryOtherRun", "--limit", "3"], in: repo.path, environment: repo.environment)
        #expect(history.standardOutput.split(separator: "\n").count == 3, "\(history)")
        #expect(history.standardOutput.contains("  unit  "), "\(history)")

        // The suggested lines, added as they are, quarantine it: the run passes and says why.
        try repo.write(try #require(repo.root.read("work/.prepush.yml")) + suggest.standardOutput, to: ".prepush.yml")
        try repo.commitAll("quarantine the flipping test")
        var quarantined = try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)
        if Self.runs("xctest-flip", in: state) % 2 == 0 {
            // That run passed; the next one fails the test, which is what the quarantine is for.
            quarantined = try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)
        }
        #expect(quarantined.status == 0, "\(quarantined)")
        #expect(quarantined.standardOutput.contains("prepush: note: unit: 1 quarantined test failed: ShopTests.CheckoutTests.testFlipsEveryOtherRun (flaky: 50% of 20 runs"), "\(quarantined)")
        // Every report says the run passed with a quarantined failure, none that it failed.
        #expect(quarantined.standardOutput.contains(", 1 quarantined failure\n"), "\(quarantined)")
        let summary = try #require(repo.root.read("work/.prepush/reports/results.md"))
        #expect(summary.hasPrefix("## ✅ Tests passed, 1 quarantined failure\n"), "\(summary)")
        let junit = try #require(repo.root.read("work/.prepush/reports/junit.xml"))
        #expect(junit.contains("<skipped message=\"quarantined: flaky: 50% of 20 runs") && !junit.contains("<failure"), "\(junit)")
    }

    @Test func withoutRetryAFlakyTestFailsThePushAsBefore() throws {
        let (push, state, _) = try Self.push("flaky: refuse")
        #expect(push.status != 0)
        #expect(Self.runs("xctest-flaky", in: state) == 1)
        #expect(!push.standardOutput.contains("↻"))
    }
}
