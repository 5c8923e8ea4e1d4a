#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// A report format: a value that turns a run into text.
public protocol TestReporter {
    /// The whole report.
    func render(_ run: TestRun) -> String
    /// The report, handed to `sink` a piece at a time: a large run's report is never whole in memory.
    func write(_ run: TestRun, to sink: ReportSink)
}

extension TestReporter {
    public func write(_ run: TestRun, to sink: ReportSink) {
        var text = render(run)
        text.withUTF8 { sink.append(UnsafeRawBufferPointer($0)) }
    }
}

/// Where a report goes as it is written, in pieces of about 64 KiB: a file, standard output, or
/// (for `render`) a buffer that keeps everything.
public final class ReportSink {
    private var pending: [UInt8] = []
    private let threshold: Int
    private let drain: ((UnsafeRawBufferPointer) -> Bool)?
    /// Set when a piece could not be written (the disk is full, the reader went away).
    public private(set) var failed = false

    /// A sink that hands its bytes to `drain` every `threshold` bytes and at `finish()`.
    public init(threshold: Int = 64 * 1024, drain: @escaping (UnsafeRawBufferPointer) -> Bool) {
        self.threshold = threshold
        self.drain = drain
    }

    /// A sink that keeps everything, for `text`.
    public init() {
        threshold = .max
        drain = nil
    }

    /// Everything appended, for a sink that keeps it.
    public var text: String { String(decoding: pending, as: UTF8.self) }

    public func append(_ bytes: UnsafeRawBufferPointer) {
        pending.append(contentsOf: bytes)
        if pending.count >= threshold { flush() }
    }

    public func append(_ text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    public func append(bytes: [UInt8]) {
        bytes.withUnsafeBytes { append($0) }
    }

    /// Hands over what is pending.
    public func flush() {
        guard let drain, !pending.isEmpty else { return }
        if !failed, !pending.withUnsafeBytes(drain) { failed = true }
        pending.removeAll(keepingCapacity: true)
    }
}

/// The formats `prepush results --format` accepts.
///
/// The one registry of the tests' report formats (as xcbeautify's renderer enum): the push's
/// reports folder, `prepush results`, `prepush report` without a catalog, the help text and the
/// golden files all iterate it. To add a format: a case here, its `reporter`, `fileName`,
/// `helpName` and whether `writtenByPush`, and its golden file (docs/architecture.md).
public enum ReportFormat: String, Sendable, CaseIterable {
    case junit
    case json
    case markdown
    case github

    /// Whether a push (and `prepush results --output-dir` by default) writes it into the reports
    /// folder; `github` goes to standard output as workflow commands instead.
    public var writtenByPush: Bool { self != .github }

    /// The formats a push writes into its reports folder, in this order (and removes when stale).
    public static var pushFormats: [ReportFormat] { allCases.filter(\.writtenByPush) }

    /// The format as `--help` names it.
    public var helpName: String { self == .github ? "github (annotations)" : rawValue }

    /// Every format as `--help` and a usage error name them: `junit, json, markdown or github (annotations)`.
    public static var helpList: String { TextFormatting.list(allCases.map(\.helpName)).replacing(" and ", with: " or ") }

    /// The writer for the format.
    public var reporter: any TestReporter {
        switch self {
        case .junit: return JUnitReporter()
        case .json: return JSONReporter()
        case .markdown: return MarkdownReporter()
        case .github: return GitHubAnnotationsReporter()
        }
    }

    /// The usual file name in a reports folder.
    public var fileName: String {
        switch self {
        case .junit: return "junit.xml"
        case .json: return "results.json"
        case .markdown: return "results.md"
        case .github: return "annotations.txt"
        }
    }
}

/// Seconds with exactly three decimals ("0.002"), the form JUnit's `SUREFIRE_TIME` allows.
func threeDecimals(_ seconds: Double) -> String {
    TextFormatting.threeDecimals(seconds)
}

/// `file:line` (or `file:line:column`) of a failure, for messages.
func describe(_ location: SourceLocation?) -> String? {
    guard let location else { return nil }
    return location.column > 0 ? location.description : "\(location.file):\(location.line)"
}

// MARK: - JUnit

/// JUnit XML that validates against Jenkins' junit-10.xsd: one `testsuite` per suite; failures as
/// `failure`, unfinished tests as `error`, earlier failures of a flaky test as `flakyFailure`.
public struct JUnitReporter: TestReporter {
    /// The suite that holds the failures of the run as a whole.
    public static let runSuite = "prepush.run"

    /// Creates the reporter.
    public init() {}

    public func render(_ run: TestRun) -> String {
        let sink = ReportSink()
        write(run, to: sink)
        return sink.text
    }

    public func write(_ run: TestRun, to sink: ReportSink) {
        sink.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
        // A failure of the run itself (a missing shard, a runner that failed before its tests) is an
        // `error` test case of a suite of its own: every JUnit reader shows it, never a green run.
        // A refusal the tests do not show is an error of the run too: no JUnit reader shows it green.
        let runErrors = run.runFailures.enumerated().map { ("run failure \($0.offset + 1)", "run", $0.element) }
            + (run.buildErrors ?? []).enumerated().map { index, error in
                ("build error \(index + 1)", "build", (describe(error.location).map { "\($0): " } ?? "") + error.message)
            }
            + (run.refusal.map { [("refused", "refusal", $0)] } ?? [])
            + (run.refusedAsIncomplete ? [("incomplete", "incomplete", run.incomplete ?? "")] : [])
        // An incomplete run that was allowed: a skipped case of the run's suite, seen and never red.
        let allowedIncomplete = run.refusedAsIncomplete ? nil : run.incomplete
        let runCases = runErrors.count + (allowedIncomplete == nil ? 0 : 1)
        // A quarantined failure is reported as skipped, with its failure in the test's output: it never fails the run.
        let refusing = run.refusing
        let failures = refusing.filter { $0.status == .failed }.count
        let errors = refusing.count - failures + runErrors.count
        let tests = run.results.count + runCases
        sink.append("<testsuites name=\"prepush\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(threeDecimals(run.elapsed))\">\n")
        if runCases > 0 {
            sink.append("  <testsuite name=\"\(Self.runSuite)\" tests=\"\(runCases)\" failures=\"0\" errors=\"\(runErrors.count)\" skipped=\"\(runCases - runErrors.count)\" time=\"0.000\">\n")
            if let allowedIncomplete {
                sink.append("    <testcase classname=\"\(Self.runSuite)\" name=\"incomplete\" time=\"0.000\">\n"
                            + "      <skipped message=\"\(escape("allowed: " + allowedIncomplete))\"/>\n    </testcase>\n")
            }
            for (name, type, failure) in runErrors {
                let message = failure.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? failure
                sink.append("    <testcase classname=\"\(Self.runSuite)\" name=\"\(name)\" time=\"0.000\">\n"
                            + "      <error message=\"\(escape(message))\" type=\"\(type)\">\(escape(failure, attribute: false))</error>\n    </testcase>\n")
            }
            sink.append("  </testsuite>\n")
        }
        // Suites by the indices of their tests: grouping copies of the results would double the memory.
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, result) in run.results.enumerated() {
            if members[result.suite] == nil { order.append(result.suite) }
            members[result.suite, default: []].append(index)
        }
        for suite in order {
            let indices = members[suite]!
            var failed = 0, unfinished = 0, skipped = 0, time = 0.0
            for index in indices {
                let test = run.results[index]
                switch test.status {
                case _ where !test.passed && run.quarantined?[test.testIdentifier] != nil: skipped += 1
                case .failed: failed += 1
                case .unfinished: unfinished += 1
                case .skipped: skipped += 1
                default: break
                }
                time += test.duration
            }
            sink.append("  <testsuite name=\"\(escape(suite))\" tests=\"\(indices.count)\" failures=\"\(failed)\""
                        + " errors=\"\(unfinished)\" skipped=\"\(skipped)\" time=\"\(threeDecimals(time))\">\n")
            for index in indices {
                let test = run.results[index]
                sink.append(testCase(test, quarantined: test.passed ? nil : run.quarantined?[test.testIdentifier]))
            }
            sink.append("  </testsuite>\n")
        }
        sink.append("</testsuites>\n")
        sink.flush()
    }

    private func testCase(_ test: UITestResult, quarantined reason: String? = nil) -> String {
        let open = "    <testcase classname=\"\(escape(test.suite))\" name=\"\(escape(test.name))\" time=\"\(threeDecimals(test.duration))\""
        var children: [String] = []
        var output: [String] = []
        switch test.status {
        case _ where reason != nil:
            children.append("<skipped message=\"\(escape("quarantined: \(reason ?? "")"))\"/>")
            output += test.failures.map { "\(test.status == .unfinished ? "did not finish" : "failed") (quarantined): " + (describe($0.location).map { "\($0): " } ?? "") + $0.message }
        case .failed where test.attempts > 1 && test.failures.count >= test.attempts:
            // Failed on every attempt (Maven Surefire's convention): the first run's failures, then
            // one `rerunFailure` per retry (a retry's failure is the last it recorded).
            let reruns = test.attempts - 1
            children.append(element("failure", type: "failure", Array(test.failures.dropLast(reruns))))
            for failure in test.failures.suffix(reruns) {
                children.append("<rerunFailure message=\"\(escape(failure.message))\" type=\"failure\"><stackTrace>\(escape(describe(failure.location) ?? ""))</stackTrace></rerunFailure>")
            }
        case .failed:
            children.append(element("failure", type: "failure", test.failures))
        case .unfinished:
            children.append(element("error", type: "unfinished", test.failures))
        case .skipped:
            children.append(test.skipReason.map { "<skipped message=\"\(escape($0))\"/>" } ?? "<skipped/>")
        case .passed where test.isFlaky:
            for failure in test.failures {
                children.append("<flakyFailure message=\"\(escape(failure.message))\" type=\"failure\"><stackTrace>\(escape(describe(failure.location) ?? ""))</stackTrace></flakyFailure>")
            }
        case .passed, .expectedFailure:
            break
        }
        // Warnings are not failures: JUnit has no element for them, so they go to the test's output.
        output += (test.warnings ?? []).map { "warning: " + (describe($0.location).map { "\($0): " } ?? "") + $0.message }
        if let screenshot = test.screenshotPath { output.append("[[ATTACHMENT|\(screenshot)]]") }
        if !output.isEmpty {
            children.append("<system-out>\(escape(output.joined(separator: "\n"), attribute: false))</system-out>")
        }
        guard !children.isEmpty else { return open + "/>\n" }
        return open + ">\n" + children.map { "      " + $0 + "\n" }.joined() + "    </testcase>\n"
    }

    private func element(_ name: String, type: String, _ failures: [TestFailure]) -> String {
        let message = failures.first?.message ?? ""
        let body = failures.map { failure in
            (describe(failure.location).map { "\($0): " } ?? "") + failure.message
        }.joined(separator: "\n")
        return "<\(name) message=\"\(escape(message))\" type=\"\(type)\">\(escape(body, attribute: false))</\(name)>"
    }

    func escape(_ text: String, attribute: Bool = true) -> String {
        MarkupText.escape(text, attribute: attribute)
    }
}

// MARK: - JSON

/// prepush's JSON report; its schema is documented in docs/reports.md and versioned by `version`.
public struct JSONReporter: TestReporter {
    /// The schema version written in every report.
    public static let schemaVersion = 1

    /// Creates the reporter.
    public init() {}

    public func render(_ run: TestRun) -> String {
        let sink = ReportSink()
        write(run, to: sink)
        return sink.text
    }

    public func write(_ run: TestRun, to sink: ReportSink) {
        // Written directly rather than through JSONEncoder: a fixed schema, keys in sorted order,
        // and about ten times faster on a 100,000-test run (docs/benchmarks.md).
        var out = JSONTextWriter()
        out.open("{")
        // The run's verdict as its exit status says it, and why when its tests do not show it.
        if let errors = run.buildErrors, !errors.isEmpty {
            out.key("buildErrors")
            Self.write(errors, to: &out)
        }
        if let logs = run.buildLogs, !logs.isEmpty {
            out.key("buildLogs"); out.open("[")
            for log in logs {
                out.open("{")
                out.field("stage", log.stage)
                out.key("tail"); out.open("[")
                for line in log.tail { out.stringElement(line) }
                out.close("]")
                out.close("}")
            }
            out.close("]")
        }
        out.field("conclusion", run.conclusion)
        if let incomplete = run.incomplete {
            out.key("incomplete"); out.open("{")
            out.field("allowed", run.incompleteAllowed == true)
            out.field("reason", incomplete)
            out.close("}")
        }
        if let refusal = run.refusal { out.field("refusal", refusal) }
        if !run.runFailures.isEmpty {
            out.key("runFailures"); out.open("[")
            for failure in run.runFailures { out.stringElement(failure) }
            out.close("]")
        }
        if let shard = run.shard {
            out.key("shard"); out.open("{")
            out.field("count", shard.count)
            out.field("index", shard.index)
            out.close("}")
        }
        if let counted = run.counted {
            out.key("counted"); out.open("{")
            out.field("failed", counted.failed)
            out.field("passed", counted.passed)
            out.field("skipped", counted.skipped)
            out.field("tests", counted.tests)
            out.close("}")
        }
        if let provenance = run.provenance {
            out.key("provenance"); out.open("{")
            if let attempt = provenance.attempt { out.field("attempt", attempt) }
            if let commit = provenance.commit { out.field("commit", commit) }
            if let job = provenance.job { out.field("job", job) }
            if let ciRun = provenance.run { out.field("run", ciRun) }
            out.close("}")
        }
        // Each test in one count: a quarantined failure in `quarantined`, never also in `failed`.
        let tally = run.tally
        out.key("summary"); out.open("{")
        out.field("duration", (run.elapsed * 1000).rounded() / 1000)
        out.field("expectedFailures", tally.expectedFailures)
        out.field("failed", tally.failed)
        out.field("flaky", tally.flaky)
        out.field("passed", tally.passed)
        out.field("quarantined", tally.quarantined)
        out.field("skipped", tally.skipped)
        out.field("tests", tally.tests)
        out.field("unfinished", tally.unfinished)
        out.close("}")
        out.key("tests"); out.open("[")
        for test in run.results {
            out.element(); out.open("{")
            if let audits = test.accessibilityAuditResults {
                out.key("accessibilityAuditResults"); out.open("[")
                for audit in audits {
                    out.element(); out.open("{")
                    if let auditType = audit.auditType { out.field("auditType", auditType) }
                    out.field("elementIdentifier", audit.elementIdentifier)
                    out.field("issueDescription", audit.issueDescription)
                    out.field("issueType", audit.issueType.rawValue)
                    out.close("}")
                }
                out.close("]")
            }
            out.field("attempts", test.attempts)
            out.field("duration", test.duration)
            if let message = test.failureMessage { out.field("failureMessage", message) }
            out.key("failures")
            Self.write(test.failures, to: &out)
            out.field("flaky", test.isFlaky)
            out.field("name", test.name)
            out.field("passed", test.passed)
            if let phase = test.phase { out.field("phase", phase.rawValue) }
            if let path = test.screenshotPath { out.field("screenshotPath", path) }
            if !test.passed, let reason = run.quarantined?[test.testIdentifier] { out.field("quarantined", reason) }
            if let reason = test.skipReason { out.field("skipReason", reason) }
            out.field("status", test.status.rawValue)
            out.field("suite", test.suite)
            out.field("testIdentifier", test.testIdentifier)
            if let warnings = test.warnings {
                out.key("warnings")
                Self.write(warnings, to: &out)
            }
            out.close("}")
            if out.byteCount >= 64 * 1024 { sink.append(bytes: out.takeBytes()) }
        }
        out.close("]")
        if let toolchain = run.toolchain { out.field("toolchain", toolchain) }
        out.field("version", Self.schemaVersion)
        out.close("}")
        out.endLine()
        sink.append(bytes: out.takeBytes())
        sink.flush()
    }
}

extension JSONReporter {
    /// Failures or warnings as an array of `{column, file, line, message}`; `column` only where the tool gave one.
    static func write(_ issues: [TestFailure], to out: inout JSONTextWriter) {
        out.open("[")
        for issue in issues {
            out.element(); out.open("{")
            if let location = issue.location, location.column > 0 { out.field("column", location.column) }
            if let location = issue.location { out.field("file", location.file) }
            if let location = issue.location { out.field("line", location.line) }
            out.field("message", issue.message)
            out.close("}")
        }
        out.close("]")
    }
}

/// Pretty-printed JSON, two spaces per level, written straight into a byte buffer.
struct JSONTextWriter {
    private var bytes: [UInt8] = []
    private var depth = 0
    private var needsComma = false

    init() { bytes.reserveCapacity(1 << 17) }

    /// The JSON written so far.
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// How many bytes are waiting to be taken.
    var byteCount: Int { bytes.count }

    /// The bytes written since the last call; the writer goes on where it was.
    mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }

    /// Ends the text with a line break.
    mutating func endLine() { bytes.append(10) }

    mutating func open(_ bracket: StaticString) {
        raw(bracket)
        depth += 1
        needsComma = false
    }

    mutating func close(_ bracket: StaticString) {
        depth -= 1
        if needsComma { newline() }
        raw(bracket)
        needsComma = true
    }

    /// Starts an array element.
    mutating func element() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        newline()
        needsComma = false
    }

    mutating func key(_ name: StaticString) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        newline()
        bytes.append(UInt8(ascii: "\""))
        raw(name)
        raw("\": ")
        needsComma = false
    }

    mutating func field(_ name: StaticString, _ value: String) { key(name); string(value); needsComma = true }
    /// A field whose name is known only at run time (a file name), escaped like any string.
    mutating func dynamicField(_ name: String, _ value: String) {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
        newline()
        string(name)
        raw(": ")
        string(value)
        needsComma = true
    }
    /// A string as the next element of an array.
    mutating func stringElement(_ value: String) { element(); string(value); needsComma = true }
    mutating func field(_ name: StaticString, _ value: Int) { key(name); bytes += String(value).utf8; needsComma = true }
    mutating func field(_ name: StaticString, _ value: Bool) { key(name); raw(value ? "true" : "false"); needsComma = true }
    mutating func field(_ name: StaticString, _ value: Double) {
        key(name)
        // JSON has no inf or nan; sums of durations are rounded to microseconds (0.474, not 0.47400000000000003).
        let value = value.isFinite ? (abs(value) < 1e12 ? (value * 1_000_000).rounded() / 1_000_000 : value) : 0
        bytes += (value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)").utf8
        needsComma = true
    }

    private mutating func raw(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private mutating func newline() {
        bytes.append(10)
        for _ in 0..<(depth * 2) { bytes.append(32) }
    }

    /// A JSON string; text that needs no escaping (almost all of it) is copied in one go.
    private mutating func string(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                switch byte {
                case UInt8(ascii: "\""): raw("\\\"")
                case UInt8(ascii: "\\"): raw("\\\\")
                case 10: raw("\\n")
                case 13: raw("\\r")
                case 9: raw("\\t")
                default:
                    let hex = String(byte, radix: 16)
                    raw("\\u")
                    bytes += (String(repeating: "0", count: 4 - hex.count) + hex).utf8
                }
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<utf8.count]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
