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
        var failures: [TestFailure] = []
        var knownIssues = 0
        var skipReason: String?
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

    private static func scan(_ bytes: [UInt8], file: String) throws(EventStreamError)
        -> (run: TestRun, running: [(identifier: String, startedAt: Double)]) {
        var declared: [String: Declared] = [:]
        var progress: [String: Progress] = [:]
        var order: [String] = []
        var results: [UITestResult] = []
        var firstInstant: Double?, lastInstant: Double?
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
                guard payload["kind"]?.string == "function", let id = payload["id"]?.string, let name = payload["name"]?.string else { continue }
                declared[id] = Declared(suite: suite(ofID: id, name: name), name: name)
                continue
            }
            if kind == "event", let instant = payload["instant"]?["absolute"]?.number {
                // The run's wall time: from the first event to the last (runStarted, runEnded).
                firstInstant = min(firstInstant ?? instant, instant)
                lastInstant = max(lastInstant ?? instant, instant)
            }
            guard kind == "event", let eventKind = payload["kind"]?.string, let testID = payload["testID"]?.string,
                  declared[testID] != nil else { continue }
            let instant = payload["instant"]?["absolute"]?.number
            switch eventKind {
            case "testStarted":
                if progress[testID] == nil { order.append(testID) }
                progress[testID] = Progress(startedAt: instant, startedWall: payload["instant"]?["since1970"]?.number)
            case "issueRecorded":
                let issue = payload["issue"]
                if issue?["isKnown"]?.bool == true {
                    progress[testID, default: Progress()].knownIssues += 1
                } else if progress[testID, default: Progress()].failures.count < ConsoleTestParser.failureLimit {
                    progress[testID, default: Progress()].failures.append(failure(payload))
                }
            case "testSkipped":
                if progress[testID] == nil { order.append(testID) }
                progress[testID, default: Progress()].skipReason = skipReason(payload)
                let test = declared[testID]!
                results.append(UITestResult(suite: test.suite, name: test.name, status: .skipped, duration: 0,
                                            skipReason: progress[testID]?.skipReason))
                progress[testID] = nil
            case "testEnded":
                guard let state = progress.removeValue(forKey: testID) else { continue }
                let test = declared[testID]!
                let status: TestStatus = !state.failures.isEmpty ? .failed : state.knownIssues > 0 ? .expectedFailure : .passed
                let duration = (instant ?? 0) - (state.startedAt ?? instant ?? 0)
                results.append(UITestResult(suite: test.suite, name: test.name, status: status, duration: duration,
                                            failures: state.failures, phase: status == .failed ? .test : nil))
            default:
                continue
            }
        }
        var running: [(identifier: String, startedAt: Double)] = []
        for testID in order {
            guard let state = progress[testID], let test = declared[testID] else { continue }
            running.append((test.suite.isEmpty ? test.name : "\(test.suite).\(test.name)", state.startedWall ?? 0))
            let ended = TestFailure(message: "did not finish: the event stream ended while the test was running (a crash, a kill or a timeout)", location: nil)
            results.append(UITestResult(suite: test.suite, name: test.name, status: .unfinished, duration: 0,
                                        failures: state.failures + [ended], phase: .test))
        }
        // Instants from a broken or hostile stream must not turn into an infinite or absurd time.
        let wallTime = firstInstant.flatMap { first in lastInstant.map { $0 - first } }
            .flatMap { $0.isFinite && $0 >= 0 && $0 <= UITestResult.longestDuration ? $0 : nil }
        return (TestRun(results: results, wallTime: wallTime), running)
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
        if let place, let line = place["line"]?.number {
            let file = place["_filePath"]?.string ?? place["filePath"]?.string ?? place["fileID"]?.string ?? ""
            location = SourceLocation(file: file, line: Int(line), column: Int(place["column"]?.number ?? 0))
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
