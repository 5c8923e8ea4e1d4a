import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// One identity per test on a real package built here: four renderer suites that each declare a
/// `compileXib()` (one broken when `BROKEN` names it), a Swift Testing test that fails on its first
/// run and passes on the next, and an XCTest class. Pushed through the installed hook with the
/// stages a team writes: a plain `swift test`, whose console names a Swift Testing test by its
/// function alone, and the event-stream stage `prepush init` writes.
/// Own process: each push is a real `git push` through the installed hook, so the history it records
/// is the one a developer's pushes leave, tree by tree.
@Suite(.serialized) struct TestIdentityTests {
    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-identity")
        try repo.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Render",
            targets: [
                .target(name: "Render"),
                .testTarget(name: "RenderTests", dependencies: ["Render"]),
            ]
        )

        """, to: "Package.swift")
        try repo.write("public func render(_ kind: String) -> String { kind }\n", to: "Sources/Render/Render.swift")
        for kind in ["Xib", "Nib", "PDF", "HTML"] {
            try repo.write("""
            import Foundation
            import Testing
            @testable import Render

            @Suite struct \(kind)Renderer {
                @Test func compileXib() {
                    let broken = ProcessInfo.processInfo.environment["BROKEN"] == "\(kind)"
                    #expect(render("\(kind)") == "\(kind)" && !broken, "\(kind) rendering is broken")
                }
            }

            """, to: "Tests/RenderTests/\(kind)RendererTests.swift")
        }
        try repo.write("""
        import Foundation
        import Testing

        /// Fails on the first run of each state folder (`STATE`), passes after.
        @Suite struct BasketTests {
            @Test func addsOnTheSecondTry() {
                let path = (ProcessInfo.processInfo.environment["STATE"] ?? NSTemporaryDirectory()) + "/basket"
                let runs = ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").count
                try? String(repeating: "x", count: runs + 1).write(toFile: path, atomically: true, encoding: .utf8)
                #expect(runs > 0, "the basket was not loaded")
            }
        }

        """, to: "Tests/RenderTests/BasketTests.swift")
        try repo.write("""
        import XCTest

        final class CheckoutTests: XCTestCase {
            func testTotals() { XCTAssertEqual(1 + 1, 2) }
        }

        """, to: "Tests/RenderTests/CheckoutTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("cache: false\n", to: ".prepush.yml")
        try repo.commitAll("renderers")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    /// Pushes with `configuration` as .prepush.yml; returns the push and the repository.
    static func push(_ configuration: String) throws -> (CommandResult, GitRepository) {
        let repo = try built.repository()
        try repo.write(configuration, to: ".prepush.yml")
        try repo.commitAll("configuration")
        return (try repo.push(), repo)
    }

    /// A report of the push, read as JSON.
    static func results(_ repo: GitRepository) throws -> [String: Any] {
        let text = try #require(repo.root.read("work/.prepush/reports/results.json"))
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The broken one of four same-named tests, on a plain `swift test` stage with `retry: 2`: each
    /// retry runs that one test (the runner counts 1), and it is failed everywhere, never flaky.
    @Test func aBrokenTestOfFourSameNamedOnesIsRetriedAloneAndFailsEverywhere() throws {
        // BasketTests passes from its second run in a state folder: one already run, so only PDF fails
        // (without it, the basket was the temporary folder's, and the test passed only where an
        // earlier run had left one there).
        let state = try TemporaryDirectory(prefix: "basket")
        try state.write("x", to: "basket")
        let (push, repo) = try Self.push("""
        cache: false
        stages:
          unit:
            run: swift test --skip-build
            retry: 2
            env:
              BROKEN: PDF
              STATE: "\(state.path)"

        """)
        #expect(push.status == 1, "\(push)")
        #expect(push.standardOutput.contains("error: RenderTests.PDFRenderer.compileXib(): Expectation failed"), "\(push)")
        #expect(push.standardOutput.contains("prepush: tests: 5 passed, 1 failed\n"), "\(push)")
        #expect(!push.standardOutput.contains("flaky"), "\(push)")
        for retry in 1...2 {
            let log = try #require(repo.root.read("work/.prepush/reports/unit.retry-\(retry).log"))
            #expect(log.contains("Test run with 1 test in 1 suite failed"), "\(log)")
        }
        let tests = try #require(try Self.results(repo)["tests"] as? [[String: Any]])
        let broken = try #require(tests.first { $0["testIdentifier"] as? String == "RenderTests.PDFRenderer.compileXib()" }, "\(tests)")
        #expect(broken["status"] as? String == "failed" && broken["attempts"] as? Int == 3 && broken["flaky"] as? Bool == false, "\(broken)")
        #expect(Set(tests.compactMap { $0["suite"] as? String }) == ["RenderTests.XibRenderer", "RenderTests.NibRenderer", "RenderTests.PDFRenderer",
                                                                   "RenderTests.HTMLRenderer", "RenderTests.BasketTests", "RenderTests.CheckoutTests"])
        #expect(try Self.results(repo)["conclusion"] as? String == "failure")
        let markdown = try #require(repo.root.read("work/.prepush/reports/results.md"))
        #expect(markdown.hasPrefix("## ❌ 1 of 6 tests failed") && !markdown.contains("✅"), "\(markdown)")
        let junit = try #require(repo.root.read("work/.prepush/reports/junit.xml"))
        #expect(junit.contains("<testcase classname=\"RenderTests.PDFRenderer\" name=\"compileXib()\""), "\(junit)")
        #expect(junit.contains("<failure ") && junit.components(separatedBy: "<rerunFailure").count - 1 == 2 && !junit.contains("flakyFailure"), "\(junit)")
        let history = try InProcessCLI.run(["history", "PDFRenderer/compileXib"], in: repo.path, environment: repo.environment)
        #expect(history.status == 0 && history.standardOutput.contains("  failed  "), "\(history)")
        #expect(history.standardOutput.contains("RenderTests.PDFRenderer.compileXib()"), "\(history)")
        let flaky = try InProcessCLI.run(["flaky", "--suggest"], in: repo.path, environment: repo.environment)
        #expect(!flaky.standardOutput.contains("compileXib"), "\(flaky)")
    }

    /// The stage `prepush init` writes reads Swift Testing's event stream: a failed test runs
    /// again alone and is flaky, the stream on disk keeps both attempts, and a report made later
    /// from that file says what the push said.
    @Test func onTheStageInitWritesAFlakyTestRunsAgainAloneAndTheStreamKeepsEveryAttempt() throws {
        let repo = try Self.built.repository()
        let state = try TemporaryDirectory(prefix: "prepush-identity-state")
        try? FileManager.default.removeItem(atPath: repo.path + "/.prepush.yml")
        _ = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment).checked()
        let written = try #require(repo.root.read("work/.prepush.yml"))
        let run = try #require(written.split(separator: "\n").first { $0.contains("run: swift test") && $0.contains("--event-stream-output-path") })
        let indent = run.prefix { $0 == " " }
        let configuration = written.replacingOccurrences(of: run + "\n", with: run + "\n" + indent + "retry: 1\n" + indent + "env:\n" + indent + "  STATE: \"\(state.path)\"\n")
        let (push, _) = try Self.push(configuration)
        #expect(push.status == 0, "\(push)")
        #expect(push.standardOutput.contains("prepush: warning: unit: 1 flaky test failed and then passed: RenderTests.BasketTests.addsOnTheSecondTry() (passed on attempt 2)"), "\(push)")
        let retry = try #require(repo.root.read("work/.prepush/reports/unit.retry-1.log"))
        #expect(retry.contains("Test run with 1 test in 1 suite passed"), "\(retry)")
        let stream = try #require(repo.root.read("work/.build/prepush-events.jsonl"))
        #expect(stream.components(separatedBy: "\"kind\":\"runStarted\"").count - 1 == 2, "the stream keeps both attempts")
        let report = try InProcessCLI.run(["report", "--results", ".build/prepush-events.jsonl", "--format", "markdown"], in: repo.path, environment: repo.environment)
        #expect(report.status == 0, "\(report)")
        #expect(report.standardOutput.hasPrefix("## ✅ Tests passed\n"), "\(report)")
        #expect(report.standardOutput.contains("| 5 | 5 | 0 | 0 | 0 | 0 | 0 | 1 |"), "\(report)")
        #expect(report.standardOutput.contains("- **RenderTests.BasketTests.addsOnTheSecondTry()**: 2 attempts"), "\(report)")
        #expect(!report.standardOutput.contains("scenario"), "\(report)")
    }

    /// A break on one tree and its fix on the next are a change, not flakiness; a failure and a pass
    /// on the same tree (here the environment broke it) are.
    @Test func aBreakAndItsFixOnTwoTreesAreNotFlakyAFlipOnOneTreeIs() throws {
        let stage = "cache: false\nstages:\n  unit:\n    run: swift test --skip-build\n"
        let (broken, repo) = try Self.push(stage + "    env:\n      BROKEN: HTML\n")
        #expect(broken.status == 1, "\(broken)")
        let (fixed, _) = try Self.push(stage)
        #expect(fixed.status == 0, "\(fixed)")
        let flaky = try InProcessCLI.run(["flaky", "--suggest"], in: repo.path, environment: repo.environment)
        #expect(!flaky.standardOutput.contains("HTMLRenderer"), "\(flaky)")
        // The same tree, failed by the environment and then passed: flaky, by its one identity.
        var environment = repo.environment
        environment["BROKEN"] = "HTML"
        #expect(try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: environment).status == 1)
        #expect(try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment).status == 0)
        let flipped = try InProcessCLI.run(["flaky", "--suggest"], in: repo.path, environment: repo.environment)
        #expect(flipped.standardOutput.contains("  - test: \"RenderTests.HTMLRenderer.compileXib()\""), "\(flipped)")
        #expect(!flipped.standardOutput.contains("NibRenderer"), "\(flipped)")
    }

    /// The same test from a console stage and from an event-stream stage is one test in the history.
    @Test func aTestIsOneTestInTheHistoryWhicheverOutputItCameFrom() throws {
        let state = try TemporaryDirectory(prefix: "prepush-identity-state")
        _ = try Self.push("cache: false\nstages:\n  unit:\n    run: swift test --skip-build\n    env:\n      STATE: \"\(state.path)\"\n")
        let (second, repo) = try Self.push("""
        cache: false
        stages:
          unit:
            run: swift test --skip-build --event-stream-output-path .build/events.jsonl
            env:
              STATE: "\(state.path)"

        """)
        #expect(second.status == 0, "\(second)")
        let history = try InProcessCLI.run(["history", "XibRenderer/compileXib", "--limit", "2"], in: repo.path, environment: repo.environment)
        #expect(history.status == 0, "\(history)")
        let lines = history.standardOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasSuffix("  RenderTests.XibRenderer.compileXib()") }, "\(history)")
        // The flaky test failed under the console and passed under the stream: one test, two runs.
        let basket = try InProcessCLI.run(["history", "addsOnTheSecondTry", "--limit", "2"], in: repo.path, environment: repo.environment)
        #expect(basket.standardOutput.contains("  passed  ") && basket.standardOutput.contains("  failed  "), "\(basket)")
        let short = try InProcessCLI.run(["history", "compileXib"], in: repo.path, environment: repo.environment)
        #expect(short.standardOutput.hasPrefix("prepush: compileXib names 4 tests; give one of them:\n"), "\(short)")
    }
}
