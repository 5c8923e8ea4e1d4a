#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushResults
import PrePushTraceability

/// A stage's attempts after the first: only the tests that failed, run again up to `retry:` times
/// through the same filters sharding uses (`swift test --filter`, `$PREPUSH_TEST_FILTER`,
/// `$PREPUSH_TEST_LIST`), and a run the test infrastructure stopped before any test began run again
/// whole once (`retryOn: infrastructure`). Every attempt shares the stage's timeout. The attempts
/// merge into one result per test, which `FlakyJudgement` judges (and only it): failed and then
/// passed is flaky, failed on every attempt is broken, and a test a retry did not run keeps its failure.
struct Retries {
    /// Messages of a test infrastructure that failed before any test ran (xcodebuild, the simulator,
    /// XCTest's runner): a run that shows one and no test result is run again whole, once.
    static let infrastructureMessages = [
        "Test runner never began executing tests after launching",
        "The test runner failed to initialize for UI testing",
        "Timed out while loading Accessibility",
        "Failed to establish communication with the test runner",
        "Lost connection to test manager service",
        "Early unexpected exit, operation never finished bootstrapping",
        "The test runner exited with code",
        "Unable to boot the Simulator",
        "Failed to install or launch the test runner",
    ]

    let stage: StageSettings
    let reportsDirectory: String
    /// Quarantined tests are not run again: their failures never refuse.
    var quarantine = Quarantine()
    let diagnostics: Diagnostics
    /// Runs one attempt: the stage (its command, variables and remaining timeout), the log's name,
    /// and the tests it is asked to run (by identifier; nil for the whole stage).
    let attempt: (StageSettings, String, Set<String>?) -> StageResult

    /// The result after the retries the first attempt calls for: every attempt merged, each test's
    /// `judgement` telling passed, flaky and broken.
    func run(after first: StageResult) -> StageResult {
        var result = first
        let name = stage.kind.rawValue
        let messages = Self.infrastructureMessages + stage.infrastructureMessages
        if stage.retriesInfrastructure, let message = Self.infrastructureMessage(in: first, among: messages), let left = remaining(after: result) {
            diagnostics.note("\(name): the test infrastructure failed before any test began (\(message)); running the stage again, once")
            var whole = stage
            if let command = XcodebuildRetry.command(stage.command, attempt: "attempt-2", narrowing: false) {
                whole = stage.running(command, adding: [])
                removeBundle(of: whole)
            }
            let again = attempt(whole.limited(to: left), "\(name).attempt-2", nil)
            result = Self.combined(again, after: result, tests: again.tests, totalTimeout: stage.timeout)
        }
        var round = 0
        retrying: while round < stage.retry, Self.failedForTests(result) {
            let failing = result.tests.results.filter { !$0.passed && quarantine.reason(for: $0.testIdentifier) == nil }
            if failing.isEmpty { break }
            let settings: StageSettings, how: String
            switch retrying(failing, round: round + 1) {
            case .success(let rerun): (settings, how) = rerun
            case .failure(let why):
                diagnostics.note("\(name): \(TextFormatting.count(failing.count, "failed test")) not run again: \(why) (docs/flaky-tests.md)")
                break retrying
            }
            guard let left = remaining(after: result) else {
                diagnostics.note("\(name): no time is left of the stage's \(stage.timeout) s timeout for a retry; \(TextFormatting.count(failing.count, "failed test")) not run again")
                break
            }
            round += 1
            diagnostics.console.line("prepush ↻ \(name): running \(TextFormatting.count(failing.count, "failed test")) again (retry \(round) of \(stage.retry), \(how))", tone: .quiet)
            let again = keepingEventStream {
                attempt(settings.limited(to: left), "\(name).retry-\(round)", Set(failing.map(\.testIdentifier)))
            }
            let ran = Set(again.tests.results.map(\.testIdentifier))
            let missing = failing.filter { !ran.contains($0.testIdentifier) }
            var finished = again.status == .passed
            if case .failed = again.status { finished = true }
            if !missing.isEmpty, finished {
                let named = missing.prefix(5).map(\.testIdentifier).joined(separator: ", ") + (missing.count > 5 ? ", …" : "")
                if missing.count == failing.count {
                    // Its filter selected nothing: running it again would select nothing again.
                    diagnostics.note("\(name): retry \(round) ran none of the \(TextFormatting.count(failing.count, "failed test")) it was given (\(named)); that is no pass: they keep their failure, and no further retry is made")
                    let merged = Self.merge(result.tests, with: again.tests)
                    result = Self.combined(again, after: result, tests: merged, totalTimeout: stage.timeout)
                    break
                }
                diagnostics.note("\(name): retry \(round) did not run \(missing.count) of the failed tests (\(named)); they keep their failure")
            }
            let merged = Self.merge(result.tests, with: again.tests)
            result = Self.combined(again, after: result, tests: merged, totalTimeout: stage.timeout)
        }
        return result
    }

    /// Runs `retry` with the stage's Swift Testing event stream kept whole: the runner writes the
    /// file anew on each run, so a retry's stream would replace the first attempt's, and a later
    /// `prepush report` on it would see only the retried tests (the others not run). The earlier
    /// streams are moved aside while the retry runs (it reads its own), then the file holds every
    /// attempt's stream one after another, which reads as the attempts merged, as the push did.
    private func keepingEventStream(_ retry: () -> StageResult) -> StageResult {
        guard let path = StageResultFiles.named(inCommand: stage.command, workingDirectory: stage.workingDirectory).eventStream,
              !FileSystem.isDirectory(path), case .success(let earlier) = FileReading.read(path, limit: Self.eventStreamLimit) else {
            return retry()
        }
        let aside = path + ".prepush-earlier"
        guard rename(path, aside) == 0 else { return retry() }
        defer { unlink(aside) }
        let result = retry()
        let later = (try? FileReading.read(path, limit: Self.eventStreamLimit).get()) ?? []
        try? AtomicFile.write(earlier + later, to: path)
        return result
    }

    /// The largest event stream kept across retries (a million-test run's is about 1 GB).
    static let eventStreamLimit = 512 * 1024 * 1024

    /// Seconds left of the stage's timeout after `result`'s attempts, or nil when none are.
    private func remaining(after result: StageResult) -> Int? {
        let left = Double(stage.timeout) - result.duration
        return left >= 1 ? Int(left) : nil
    }

    /// Whether the stage failed with failing tests to run again (not a timeout, a signal or a build
    /// that never ran a test).
    static func failedForTests(_ result: StageResult) -> Bool {
        guard case .failed = result.status else { return false }
        return result.tests.results.contains { !$0.passed }
    }

    /// The first of `messages` in the log of a run that failed before any test began, or nil.
    static func infrastructureMessage(in result: StageResult, among messages: [String]) -> String? {
        guard case .failed = result.status, result.tests.results.isEmpty,
              case .success(let bytes) = FileReading.read(result.logPath, limit: 64_000_000) else { return nil }
        return messages.first { ByteSearch.contains(bytes, Array($0.utf8)) }
    }

    /// Why failed tests could not be run again.
    struct NotRerun: Error, CustomStringConvertible {
        let description: String
    }

    /// The stage narrowed to `failing` for retry `round`, and how: `test-without-building
    /// -only-testing:` for an `xcodebuild test` (its own result bundle), `--filter` added to a
    /// final `swift test`, or the variables a team's own command reads.
    func retrying(_ failing: [UITestResult], round: Int) -> Result<(StageSettings, String), NotRerun> {
        let filter = failing.map(Self.filterPattern).joined(separator: "|")
        let list = FilePath.join(reportsDirectory, "\(stage.kind.rawValue).retry-tests.txt")
        do { try AtomicFile.write(failing.map { $0.testIdentifier + "\n" }.joined(), to: list) } catch {
            return .failure(NotRerun(description: "the list of tests cannot be written (\(error))"))
        }
        let onlyTesting = XcodebuildRetry.onlyTesting(failing)
        let onlyTestingText = onlyTesting?.joined(separator: " ")
        // Linux refuses to start a command with one variable over 128 KiB: so many failures are not flakiness.
        if max(filter.utf8.count, 2 * (onlyTestingText?.utf8.count ?? 0)) > ShardStep.variableLimit {
            return .failure(NotRerun(description: "naming \(failing.count) tests takes more than the \(ShardStep.variableLimit / 1000) kB a variable of a command line can hold"))
        }
        var variables = [EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: filter), EnvironmentEntry(name: "PREPUSH_TEST_LIST", value: list)]
        if let onlyTestingText { variables.append(EnvironmentEntry(name: "PREPUSH_ONLY_TESTING", value: onlyTestingText)) }
        if let command = XcodebuildRetry.command(stage.command, attempt: "retry-\(round)", narrowing: true, onlyTesting: onlyTesting ?? []) {
            guard let onlyTesting else {
                return .failure(NotRerun(description: "xcodebuild selects a test by its test bundle, which the stage's console does not name (write a result bundle: -resultBundlePath)"))
            }
            if stage.command.contains("PREPUSH_ONLY_TESTING"), let unsafe = onlyTesting.first(where: XcodebuildRetry.breaksUnquoted) {
                return .failure(NotRerun(description: "\(TextFormatting.shortened(WorkflowCommand.singleLine(unsafe), to: 120)) holds a blank, a glob character or a control character, which the command's unquoted $PREPUSH_ONLY_TESTING would split or expand"))
            }
            let settings = stage.running(command, adding: variables)
            removeBundle(of: settings)
            return .success((settings, "xcodebuild test-without-building -only-testing"))
        }
        if stage.command.contains("PREPUSH_TEST_FILTER") || stage.command.contains("PREPUSH_TEST_LIST") || stage.command.contains("PREPUSH_ONLY_TESTING") {
            return .success((stage.running(stage.command, adding: variables), "through $PREPUSH_TEST_FILTER"))
        }
        if let filtered = SelectiveTests.command(stage.command, filterArgument: "\"$PREPUSH_TEST_FILTER\"") {
            return .success((stage.running(filtered, adding: variables), "swift test --filter"))
        }
        return .failure(NotRerun(description: "the command neither runs xcodebuild test nor ends in swift test, and reads none of $PREPUSH_TEST_FILTER, $PREPUSH_ONLY_TESTING and $PREPUSH_TEST_LIST"))
    }

    /// Removes the result bundle an attempt is about to write, left by an earlier push: xcodebuild
    /// refuses to write over one, and a run that fails before writing its own must not be read
    /// from the old one. The path is prepush's (`….retry-1.xcresult`), never the team's own.
    private func removeBundle(of settings: StageSettings) {
        guard let bundle = ResultBundleLocator.bundlePath(inCommand: settings.command, workingDirectory: settings.workingDirectory),
              bundle != ResultBundleLocator.bundlePath(inCommand: stage.command, workingDirectory: stage.workingDirectory) else { return }
        try? FileManager.default.removeItem(atPath: bundle)
    }

    /// A `swift test --filter` pattern for one test: XCTest's `Target.Class/method` ids end in
    /// `Class/method`; Swift Testing's (`Target.Suite/Inner/name()/File.swift:3:5`) hold
    /// `Suite/Inner/name(`. A Swift Testing suite comes as the console names it (`Outer.Inner`) or
    /// as the event stream does, module first (`Target.Outer/Inner`): each separator of the suite
    /// matches `.` or `/`, so both select the test, and only it.
    static func filterPattern(_ test: UITestResult) -> String {
        if let open = test.name.firstIndex(of: "(") {
            var suite = ""
            if !test.suite.isEmpty, test.suite != "SwiftTesting" {
                let parts = test.suite.split(whereSeparator: { $0 == "." || $0 == "/" }).map { TestSharding.regexEscaped(String($0)) }
                suite = parts.joined(separator: "[./]") + "/"
            }
            return "(^|[./])\(suite)\(TestSharding.regexEscaped(String(test.name[..<open])))\\("
        }
        return "(^|\\.)\(TestSharding.regexEscaped(test.suite))/\(TestSharding.regexEscaped(test.name))$"
    }

    /// The earlier attempts' results with each test that failed merged with its latest attempt as
    /// every reader merges a retry (`merged(withRetry:)`): the latest status, the failures of every
    /// attempt (a pass after failures is flaky), the attempts and times added up. Tests the rerun
    /// did not run keep their result. A name the rerun shows more than once (Swift Testing's console
    /// names a test without its suite, and four suites can each have a `compileXib()`) stands for
    /// the one that failed, if any did: a pass of a same-named test in another suite never makes a
    /// broken test look flaky.
    static func merge(_ earlier: TestRun, with rerun: TestRun) -> TestRun {
        var latest: [String: UITestResult] = [:]
        for test in rerun.results where latest[test.testIdentifier].map({ $0.passed || !test.passed }) ?? true {
            latest[test.testIdentifier] = test
        }
        var merged = earlier
        merged.results = earlier.results.map { test in
            guard !test.passed, let again = latest[test.testIdentifier] else { return test }
            return test.merged(withRetry: again)
        }
        // What the whole run reported (a crash, a closing line's counts) is the last attempt's.
        merged.runFailures = rerun.runFailures
        merged.counted = nil
        merged.wallTime = (earlier.wallTime ?? 0) + (rerun.wallTime ?? rerun.totalDuration)
        return merged
    }

    /// The stage's result after one more attempt: its status (a timeout counts against the stage's
    /// whole timeout), the time of every attempt, the first attempt's log.
    static func combined(_ again: StageResult, after earlier: StageResult, tests: TestRun, totalTimeout: Int) -> StageResult {
        var status = again.status
        if case .timedOut = status { status = .timedOut(seconds: totalTimeout) }
        if status == .passed, tests.hasFailures { status = earlier.status }
        var result = StageResult(kind: again.kind, status: status, duration: earlier.duration + again.duration, logPath: earlier.logPath, tests: tests)
        result.runningWhenStopped = again.runningWhenStopped
        result.evidence = again.evidence
        return result
    }
}
