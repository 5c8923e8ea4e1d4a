#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PrePushConfig
import PrePushCore
@testable import PrePushPipeline
import PrePushRunner
import PrePushTestSupport
import Testing

/// The retry loop run in-process: `Retries.run` with its `attempt` closure played back, so what a
/// retry decides (passed, flaky, broken) is checked without starting a process.
@Suite struct RetryLoopTests {
    /// One attempt played back: how it ends, how long it took, and the tests it shows.
    struct Attempt {
        var status: StageStatus
        var duration: Double = 1
        var tests: [UITestResult]
    }

    /// What the loop asked of the `attempt` closure: the timeout each retry was given and the tests
    /// it was asked to run.
    final class Calls: @unchecked Sendable {
        var timeouts: [Int] = []
        var selected: [Set<String>?] = []
    }

    static func failed(_ name: String, _ message: String = "boom") -> UITestResult {
        UITestResult(suite: "ShopTests", name: name, status: .failed, duration: 0.1, failures: [TestFailure(message: message, location: nil)])
    }

    static func passed(_ name: String) -> UITestResult {
        UITestResult(suite: "ShopTests", name: name, status: .passed, duration: 0.1)
    }

    /// Runs the loop for a `swift test` stage with `retry` retries and `timeout` seconds: the first
    /// attempt, then each retry played back in order.
    static func run(retry: Int, timeout: Int = 100, first: Attempt, retries: [Attempt]) throws -> (StageResult, Calls) {
        let folder = try TemporaryDirectory(prefix: "prepush-retryloop")
        let sink = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(sink) }
        let diagnostics = Diagnostics(console: Console(output: sink, errors: sink, isTerminal: false, usesColour: false))
        var stage = StageSettings(kind: .unit, command: "swift test", timeout: timeout, environment: [], workingDirectory: folder.path)
        stage.retry = retry
        let calls = Calls()
        var left = retries[...]
        let loop = Retries(stage: stage, reportsDirectory: folder.path, diagnostics: diagnostics) { settings, _, tests in
            calls.timeouts.append(settings.timeout)
            calls.selected.append(tests)
            let next = left.popFirst() ?? Attempt(status: .passed, tests: [])
            return StageResult(kind: .unit, status: next.status, duration: next.duration, logPath: folder.url("retry.log"), tests: TestRun(results: next.tests))
        }
        let start = StageResult(kind: .unit, status: first.status, duration: first.duration, logPath: folder.url("unit.log"), tests: TestRun(results: first.tests))
        return (loop.run(after: start), calls)
    }

    static let exit1 = StageStatus.failed(.exited(1))

    @Test func aTestThatFailsThenPassesIsFlakyAndTheStagePasses() throws {
        let (result, calls) = try Self.run(retry: 2, first: Attempt(status: Self.exit1, tests: [Self.failed("pays()"), Self.passed("adds()")]),
                                          retries: [Attempt(status: .passed, tests: [Self.passed("pays()")])])
        #expect(result.status == .passed)
        let judged = Dictionary(uniqueKeysWithValues: result.tests.results.map { ($0.name, $0.judgement) })
        #expect(judged == ["pays()": .flaky, "adds()": .passed])
        #expect(result.tests.results.first { $0.name == "pays()" }?.attempts == 2)
        // Only the failed test was asked for, once: a pass ends the retries.
        #expect(calls.selected == [["ShopTests.pays()"]])
        #expect(result.tests.tally.flaky == 1)
    }

    @Test func aTestThatFailsEveryAttemptIsBroken() throws {
        let (result, calls) = try Self.run(retry: 2, first: Attempt(status: Self.exit1, tests: [Self.failed("pays()", "one")]),
                                          retries: [Attempt(status: Self.exit1, tests: [Self.failed("pays()", "two")]),
                                                    Attempt(status: Self.exit1, tests: [Self.failed("pays()", "three")])])
        #expect(result.status == Self.exit1)
        let test = try #require(result.tests.results.first)
        #expect(test.judgement == .broken)
        #expect(test.attempts == 3)
        #expect(test.failures.map(\.message) == ["one", "two", "three"])
        #expect(calls.selected.count == 2)
    }

    @Test func aRetryThatDoesNotRunAFailedTestLeavesItsFailure() throws {
        // The retry reports only one of the two failed tests: the other is not passed by silence.
        let (result, _) = try Self.run(retry: 1, first: Attempt(status: Self.exit1, tests: [Self.failed("pays()"), Self.failed("ships()")]),
                                       retries: [Attempt(status: .passed, tests: [Self.passed("pays()")])])
        let judged = Dictionary(uniqueKeysWithValues: result.tests.results.map { ($0.name, $0.judgement) })
        #expect(judged == ["pays()": .flaky, "ships()": .broken])
        #expect(result.status == Self.exit1)
        #expect(result.tests.results.first { $0.name == "ships()" }?.attempts == 1)
    }

    @Test func aRetryThatRunsNoneOfItsTestsEndsTheRetries() throws {
        let (result, calls) = try Self.run(retry: 3, first: Attempt(status: Self.exit1, tests: [Self.failed("pays()")]),
                                          retries: [Attempt(status: .passed, tests: [])])
        #expect(calls.selected.count == 1)
        #expect(result.tests.results.map(\.judgement) == [.broken])
        #expect(result.status == Self.exit1)
    }

    @Test func aRetryThatTimesOutEndsTheStageAsTimedOutWithinItsWholeTimeout() throws {
        let (result, calls) = try Self.run(retry: 3, timeout: 10, first: Attempt(status: Self.exit1, duration: 4, tests: [Self.failed("pays()")]),
                                          retries: [Attempt(status: .timedOut(seconds: 6), duration: 6, tests: [])])
        // The retry was given what was left of the stage's 10 s, and no further retry was made.
        #expect(calls.timeouts == [6])
        #expect(result.status == .timedOut(seconds: 10))
        #expect(result.duration == 10)
        #expect(result.tests.results.map(\.judgement) == [.broken])
    }

    @Test func noRetryIsMadeWhenNoTimeIsLeft() throws {
        let (result, calls) = try Self.run(retry: 2, timeout: 10, first: Attempt(status: Self.exit1, duration: 9.5, tests: [Self.failed("pays()")]),
                                          retries: [Attempt(status: .passed, tests: [Self.passed("pays()")])])
        #expect(calls.timeouts.isEmpty)
        #expect(result.tests.results.map(\.judgement) == [.broken])
    }
}

/// The one rule, fed attempts directly and the history's runs of one tree.
@Suite struct FlakyJudgementTests {
    @Test func attemptsOfOneRun() {
        #expect(FlakyJudgement(attempts: [.passed]) == .passed)
        #expect(FlakyJudgement(attempts: [.failed, .passed]) == .flaky)
        #expect(FlakyJudgement(attempts: [.unfinished, .failed, .passed]) == .flaky)
        #expect(FlakyJudgement(attempts: [.failed, .failed]) == .broken)
        #expect(FlakyJudgement(attempts: [.skipped]) == .notJudged)
        // Passed on every one of Xcode's iterations: not flaky.
        #expect(FlakyJudgement(status: .passed, attempts: 3, failureCount: 0) == .passed)
        #expect(FlakyJudgement(status: .passed, attempts: 2, failureCount: 1) == .flaky)
    }

    @Test func runsOfOneTreeAndWhatTheHistoryStored() {
        #expect(FlakyJudgement(recorded: "flaky") == .flaky && FlakyJudgement(recorded: "unfinished") == .broken)
        #expect(FlakyJudgement.mixed([.passed, .flaky]) && !FlakyJudgement.mixed([.flaky, .flaky]) && !FlakyJudgement.mixed([.passed, .notJudged]))
        // What the push records is what the history reads back.
        let flaky = UITestResult(suite: "A", name: "t()", status: .passed, duration: 0, failures: [TestFailure(message: "x", location: nil)], attempts: 2)
        #expect(FlakyJudgement(recorded: flaky.recordedStatus) == flaky.judgement)
    }
}
