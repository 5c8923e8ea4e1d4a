#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Why a Swift Testing event stream could not be read.
public enum EventStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line (1-based) that is not a JSON object of the event stream.
    case badLine(file: String, line: Int, reason: String)

    public var description: String {
        switch self {
        case .badLine(let file, let line, let reason):
            return "\(file):\(line): error: not a Swift Testing event-stream record: \(reason)"
        }
    }
}

/// Reads Swift Testing's JSON event stream (`swift test --event-stream-output-path FILE
/// --event-stream-version 0`): one JSON object per line, each test declared once with its full id
/// (`Module.Suite/function()/File.swift:3:20`), then its events (`testStarted`, `issueRecorded`,
/// `testSkipped`, `testEnded`). Unlike the console, it tells same-named tests of different suites
/// apart and places every issue.
public enum SwiftTestingEventStream {
    /// Whether `bytes` start like an event stream: a JSON object with `"kind"` and `"payload"` on the first line.
    public static func looksLikeEventStream(_ bytes: [UInt8]) -> Bool {
        let firstLine = bytes.prefix { $0 != 10 }
        guard firstLine.first(where: { $0 != 32 && $0 != 9 }) == UInt8(ascii: "{") else { return false }
        let text = String(decoding: firstLine.prefix(4096), as: UTF8.self)
        return text.contains("\"payload\"") && text.contains("\"kind\"")
    }

    private struct Declared {
        let suite: String
        let name: String
    }

    private struct Progress {
        var startedAt: Double?
        /// Seconds since 1970 at the start, to say how long a test still running has run.
        var startedWall: Double?
        /// A `testStarted` was seen: a test a hand-written stream only records issues of never started.
        var started = false
        var failures: [TestFailure] = []
        var warnings: [TestFailure] = []
        var knownIssues = 0
        var skipReason: String?
        /// `Test.cancel(…)` (6.3): the reason, once `testCancelled` came.
        var cancelled: String?
    }

    /// Parses a whole stream. A last line cut short (the runner was killed mid-write) is ignored;
    /// any other line that is not an event-stream record is an error with its line number.
    public static func parse(_ bytes: [UInt8], file: String) throws(EventStreamError) -> TestRun {
        try scan(bytes, file: file).run
    }

    /// The tests a stream shows started and not ended, oldest first, with the time each started
    /// (seconds since 1970): what was running when a stage was stopped. Unreadable lines are passed over.
    public static func running(_ bytes: [UInt8]) -> [(identifier: String, startedAt: Double)] {
        (try? scan(bytes, file: "").running) ?? []
    }

    /// What a stream has shown so far.
    private struct Scan {
        var declared: [String: Declared] = [:]
        /// Ids of suites: an issue recorded in one (its `init`, a trait) belongs to no test.
        var suites: Set<String> = []
        var progress: [String: Progress] = [:]
        var order: [String] = []
        var results: [UITestResult] = []
        var runFailures: [String] = []
        /// The closing `runEnded` said the run failed: `Test run with 2 tests … failed after … with 1 issue.`
        var closingLineFailed: String?
        var firstInstant: Double?, lastInstant: Double?
        /// Tests the stream never declared with a `test` record (as vscode-swift's own streams are
        /// written: `testCaseStarted`, `testCaseEnded`, `testSkipped` alone), known by their events;
        /// for them a test case's start and end are the test's.
        var undeclared: Set<String> = []
        /// `runStarted` events seen: a file holding a retry's stream after the first run's (as a
        /// push with `retry:` leaves it) is several runs, and a test's later run is its retry.
        var runs = 0
        /// A `runStarted` came and its `runEnded` has not: a stream cut here is an incomplete run.
        var runOpen = false
        /// Where each test's result is, and in which run it ended.
        var ended: [String: (index: Int, run: Int)] = [:]

        /// Adds the result of `testID`: merged as a retry into its result of an earlier run.
        mutating func add(_ result: UITestResult, of testID: String) {
            if let earlier = ended[testID], earlier.run < runs {
                results[earlier.index] = results[earlier.index].merged(withRetry: result, failureLimit: ConsoleTestParser.failureLimit)
                ended[testID] = (earlier.index, runs)
                return
            }
            ended[testID] = (results.count, runs)
            results.append(result)
        }
    }

    private static func scan(_ bytes: [UInt8], file: String) throws(EventStreamError)
        -> (run: TestRun, running: [(identifier: String, startedAt: Double)]) {
        var state = Scan()
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: false)
        for (offset, line) in lines.enumerated() where line.contains(where: { $0 != 32 && $0 != 13 }) {
            let record: JSONValue
            do {
                record = try JSONDecoder().decode(JSONValue.self, from: Data(line))
            } catch {
                if offset == lines.count - 1 { break }
                throw .badLine(file: file, line: offset + 1, reason: "not JSON")
            }
            guard let kind = record["kind"]?.string, let payload = record["payload"] else {
                throw .badLine(file: file, line: offset + 1, reason: "expected an object with \"kind\" and \"payload\"")
            }
            if kind == "test" {
                guard let id = payload["id"]?.string, let name = payload["name"]?.string else { continue }
                if payload["kind"]?.string == "function" {
                    state.declared[id] = Declared(suite: suite(ofID: id, name: name), name: name)
                } else {
                    state.suites.insert(id)
                }
                continue
            }
            guard kind == "event" else { continue }
            event(payload, into: &state)
        }
        return finish(&state)
    }

    /// One `event` record.
    private static func event(_ payload: JSONValue, into state: inout Scan) {
        let instant = payload["instant"]?["absolute"]?.number
        if let instant {
            // The run's wall time: from the first event to the last (runStarted, runEnded).
            state.firstInstant = min(state.firstInstant ?? instant, instant)
            state.lastInstant = max(state.lastInstant ?? instant, instant)
        }
        guard let eventKind = payload["kind"]?.string else { return }
        if eventKind == "runStarted" { state.runs += 1; state.runOpen = true }
        if eventKind == "runEnded" {
            state.runOpen = false
            // The last run's closing line is the verdict: a retry that passed ends a stream whose first run failed.
            let text = payload["messages"]?.array?.first?["text"]?.string ?? ""
            state.closingLineFailed = text.contains(" failed after ") ? text : nil
            return
        }
        if let testID = payload["testID"]?.string, !testID.isEmpty, state.declared[testID] == nil, !state.suites.contains(testID),
           ["testStarted", "testCaseStarted", "testSkipped", "testEnded", "testCaseEnded"].contains(eventKind) {
            let name = testID.split(separator: "/").last { !$0.contains(".swift:") }.map(String.init) ?? testID
            state.declared[testID] = Declared(suite: suite(ofID: testID, name: name), name: name)
            state.undeclared.insert(testID)
        }
        guard let testID = payload["testID"]?.string, state.declared[testID] != nil else {
            // An issue of no test (a task that outlived its test), or of a suite: the run failed.
            if eventKind == "issueRecorded", isFailure(payload) {
                let issue = failure(payload)
                let place = issue.location.map { " at \($0.file):\($0.line):\($0.column)" } ?? ""
                if let testID = payload["testID"]?.string, !state.suites.contains(testID), !testID.isEmpty {
                    // A stream that records issues of tests it never declared (a hand-written one): the test failed.
                    let name = testID.split(separator: "/").last { !$0.contains(".swift:") }.map(String.init) ?? testID
                    state.declared[testID] = Declared(suite: suite(ofID: testID, name: name), name: name)
                    return event(payload, into: &state)
                }
                let whose = payload["testID"]?.string.map { "in suite \($0)" } ?? "outside any test"
                state.runFailures.append("an issue was recorded \(whose)\(place): \(issue.message)")
            }
            return
        }
        var step = eventKind
        if state.undeclared.contains(testID) {
            // A test known only by its events: its (only) case starting and ending is the test's.
            if step == "testCaseStarted", state.progress[testID] == nil { step = "testStarted" }
            if step == "testCaseEnded" { step = "testEnded" }
        }
        switch step {
        case "testStarted":
            if state.progress[testID] == nil { state.order.append(testID) }
            state.progress[testID] = Progress(startedAt: instant, startedWall: payload["instant"]?["since1970"]?.number, started: true)
        case "issueRecorded":
            if state.progress[testID] == nil { state.order.append(testID) }
            var test = state.progress[testID, default: Progress()]
            if payload["issue"]?["isKnown"]?.bool == true {
                test.knownIssues += 1
            } else if !isFailure(payload) {
                if test.warnings.count < ConsoleTestParser.failureLimit { test.warnings.append(failure(payload)) }
            } else if test.failures.count < ConsoleTestParser.failureLimit {
                test.failures.append(failure(payload))
            }
            state.progress[testID] = test
        case "testCancelled":
            state.progress[testID, default: Progress()].cancelled = payload["_comments"]?.array?.first?.string ?? ""
        case "testSkipped":
            if state.progress[testID] == nil { state.order.append(testID) }
            let test = state.declared[testID]!
            state.add(UITestResult(suite: test.suite, name: test.name, status: .skipped, duration: 0,
                                   skipReason: skipReason(payload)), of: testID)
            state.progress[testID] = nil
        case "testEnded":
            guard let progress = state.progress.removeValue(forKey: testID) else { return }
            state.add(ended(state.declared[testID]!, progress, payload: payload, at: instant), of: testID)
        default:
            return
        }
    }

    /// A test's result at its `testEnded`.
    private static func ended(_ test: Declared, _ state: Progress, payload: JSONValue, at instant: Double?) -> UITestResult {
        let duration = (instant ?? 0) - (state.startedAt ?? instant ?? 0)
        let reasons = [state.cancelled, cancelReason(payload)].compactMap { $0 }
        if state.failures.isEmpty, let comment = reasons.first(where: { !$0.isEmpty }) ?? reasons.first {
            // `Test.cancel("reason")`: neither passed nor failed, a skip with its reason.
            return UITestResult(suite: test.suite, name: test.name, status: .skipped, duration: duration,
                                skipReason: comment.isEmpty ? "cancelled" : "cancelled: \(comment)", warnings: state.warnings)
        }
        let status: TestStatus = !state.failures.isEmpty ? .failed : state.knownIssues > 0 ? .expectedFailure : .passed
        return UITestResult(suite: test.suite, name: test.name, status: status, duration: duration,
                            failures: state.failures, phase: status == .failed ? .test : nil, warnings: state.warnings)
    }

    /// The end of the stream: tests still running, tests that only recorded issues, the closing line's verdict.
    private static func finish(_ state: inout Scan) -> (run: TestRun, running: [(identifier: String, startedAt: Double)]) {
        var running: [(identifier: String, startedAt: Double)] = []
        var seen: Set<String> = []
        for testID in state.order where seen.insert(testID).inserted {
            guard let progress = state.progress[testID], let test = state.declared[testID] else { continue }
            if !progress.started {
                // Issues of a test the stream never started (a hand-written stream): they count.
                state.add(ended(test, progress, payload: .null, at: nil), of: testID)
                continue
            }
            running.append((test.suite.isEmpty ? test.name : "\(test.suite).\(test.name)", progress.startedWall ?? 0))
            let cut = TestFailure(message: "did not finish: the event stream ended while the test was running (a crash, a kill or a timeout)", location: nil)
            state.add(UITestResult(suite: test.suite, name: test.name, status: .unfinished, duration: 0,
                                   failures: progress.failures + [cut], phase: .test, warnings: progress.warnings), of: testID)
        }
        var run = TestRun(results: state.results, runFailures: state.runFailures)
        if state.runOpen {
            run.incomplete = "the event stream ends before the run does: it shows runStarted, and not runEnded: "
                + "a stream cut short, or a runner that stopped"
        }
        // The runner's closing line is its verdict: a run it calls failed is failed, even when no test shows why.
        if let closing = state.closingLineFailed, run.runFailures.isEmpty, !run.results.contains(where: { !$0.passed }) {
            run.runFailures.append("Swift Testing's summary says the run failed (\(closing)), but no test failure was shown")
        }
        // Instants from a broken or hostile stream must not turn into an infinite or absurd time.
        run.wallTime = state.firstInstant.flatMap { first in state.lastInstant.map { $0 - first } }
            .flatMap { $0.isFinite && $0 >= 0 && $0 <= UITestResult.longestDuration ? $0 : nil }
        return (run, running)
    }

    /// Whether an `issueRecorded` fails its test: not a warning (`isFailure: false`, `severity: warning`, 6.3).
    private static func isFailure(_ payload: JSONValue) -> Bool {
        let issue = payload["issue"]
        if issue?["isFailure"]?.bool == false { return false }
        if let severity = issue?["severity"]?.string, severity != "error" { return false }
        return true
    }

    /// `Test x() was cancelled after 0.001 seconds: "reason"` → `reason`; nil when the test was not cancelled.
    private static func cancelReason(_ payload: JSONValue) -> String? {
        guard let text = payload["messages"]?.array?.first?["text"]?.string, text.contains(" was cancelled after ") else { return nil }
        guard let colon = text.firstRange(of: ": \""), text.hasSuffix("\"") else { return "" }
        return String(text[colon.upperBound..<text.index(before: text.endIndex)])
    }

    /// `Module.Suite/function()/File.swift:3:20` → `Module.Suite`; a free function's suite is its module.
    static func suite(ofID id: String, name: String) -> String {
        var parts = id.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if let last = parts.last, last.contains(".swift:") { parts.removeLast() }
        if parts.last == name { parts.removeLast() }
        if parts.count == 1, let only = parts.first, only.hasSuffix("." + name) { return String(only.dropLast(name.count + 1)) }
        return parts.joined(separator: "/")
    }

    private static func failure(_ payload: JSONValue) -> TestFailure {
        let messages = payload["messages"]?.array ?? []
        let texts = messages.compactMap { $0["text"]?.string }
        let message = texts.isEmpty ? "recorded an issue" : texts.joined(separator: "\n")
        let place = payload["issue"]?["sourceLocation"] ?? payload["_sourceLocation"]
        var location: SourceLocation?
        if let place, let line = place["line"]?.integer {
            let file = place["_filePath"]?.string ?? place["filePath"]?.string ?? place["fileID"]?.string ?? ""
            location = SourceLocation(file: file, line: line, column: place["column"]?.integer ?? 0)
        }
        return TestFailure(message: message, location: location)
    }

    /// `Test x() skipped: "reason"` → `reason`; the comment when the record carries one.
    private static func skipReason(_ payload: JSONValue) -> String {
        if let comment = payload["_comments"]?.array?.first?.string { return comment }
        let text = payload["messages"]?.array?.first?["text"]?.string ?? ""
        let marker = Array("skipped: ".utf8)
        let bytes = Array(text.utf8)
        guard let at = (0...max(0, bytes.count - marker.count)).first(where: { bytes[$0..<min(bytes.count, $0 + marker.count)].elementsEqual(marker) }),
              at + marker.count <= bytes.count else { return "" }
        var reason = Substring(String(decoding: bytes[(at + marker.count)...], as: UTF8.self))
        if reason.hasSuffix(".") { reason = reason.dropLast() }
        if reason.hasPrefix("\""), reason.hasSuffix("\""), reason.count >= 2 { reason = reason.dropFirst().dropLast() }
        return String(reason)
    }
}

/// The result files a stage's command asks its test tool to write, which prepush reads after the
/// stage instead of relying on the console alone.
public struct StageResultFiles: Sendable, Equatable {
    /// `--event-stream-output-path FILE` of `swift test`: Swift Testing's event stream.
    public var eventStream: String?
    /// `--xunit-output FILE` of `swift test`: XCTest's xunit (SwiftPM writes it with `--parallel`).
    public var xunit: String?
    /// The Swift Testing xunit SwiftPM writes beside it: `FILE` with `-swift-testing` before the extension.
    public var swiftTestingXunit: String?

    /// The files named in `command` (a shell command line), resolved against `workingDirectory`.
    public static func named(inCommand command: String, workingDirectory: String) -> StageResultFiles {
        let words = ShellWords.split(command)
        func value(_ flag: String) -> String? {
            for (index, word) in words.enumerated() {
                if word == flag, index + 1 < words.count { return FilePath.absolute(words[index + 1], base: workingDirectory) }
                if word.hasPrefix(flag + "=") { return FilePath.absolute(String(word.dropFirst(flag.count + 1)), base: workingDirectory) }
            }
            return nil
        }
        var files = StageResultFiles()
        files.eventStream = value("--event-stream-output-path")
        if let xunit = value("--xunit-output") {
            files.xunit = xunit
            let dot = xunit.lastIndex(of: ".").flatMap { $0 > (xunit.lastIndex(of: "/") ?? xunit.startIndex) ? $0 : nil }
            files.swiftTestingXunit = dot.map { xunit[..<$0] + "-swift-testing" + xunit[$0...] } ?? xunit + "-swift-testing"
        }
        return files
    }

    /// Whether the command names any file.
    public var isEmpty: Bool { eventStream == nil && xunit == nil }
}
