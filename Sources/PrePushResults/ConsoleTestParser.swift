import PrePushCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a parser made of some output.
public struct ParsedTests: Sendable {
    /// The tests, in the order they finished.
    public let run: TestRun
    /// Lines that look like test events (`Test Case '…`, a Swift Testing `Test …` line, an XCTest
    /// failure) but that no rule placed. Zero for every supported format; anything else is a gap.
    public let unplacedEventLines: Int
    /// The first few such lines, to show what was missed.
    public let unplacedSamples: [String]
    /// How many lines were read.
    public let lineCount: Int
    /// Swift Testing tests whose end the console never showed, counted as passed because the
    /// runner's closing line says the run passed (its console can lose lines: docs/reports.md).
    public var passedByClosingLine = 0
    /// Swift Testing tests the runner's closing line counts in a run it says passed, of which the
    /// console showed no line at all; `run.counted` holds the runner's count with them.
    public var lostFromConsole = 0
}

/// Turns console output of XCTest (macOS and Linux), `xcodebuild test` (serial and parallel) and
/// Swift Testing (Unicode or SF-Symbol glyphs) into `UITestResult`s. It is fed chunks as they
/// arrive and keeps only the tests, never the log: memory does not grow with the output.
public struct ConsoleTestParser {
    /// At most this many characters of an input line are quoted in a message.
    static let echoLimit = 200
    /// At most this many unplaced lines are kept as samples.
    static let sampleLimit = 20

    var partialLine: [UInt8] = []
    var lineCount = 0
    var unplaced = 0
    var samples: [String] = []

    var results: [UITestResult] = []
    var resultIndex: [String: Int] = [:]
    var running: [String: RunningTest] = [:]
    var startCounter = 0
    var earlyFailures: [String: [TestFailure]] = [:]
    var earlySkipReasons: [String: String] = [:]
    /// Failures of the run as a whole (xcodebuild's "Early unexpected exit"), not of one test.
    var runFailures: [String] = []
    /// A summary line that says the run failed; a failure of the run when no test failure explains it.
    var summarySaysFailed: String?

    /// Where a Swift Testing issue was put.
    enum IssueTarget {
        /// The last failure of the running test with this key.
        case failure(String)
        /// The last warning of the running test with this key.
        case warning(String)
        /// The last failure of the run (an issue recorded outside any test).
        case run
    }

    /// What a plain line goes on with.
    enum Continued {
        /// The last failure of the running test with this key.
        case failure(String)
        /// The skip reason of the test with this key.
        case skip(String)
    }
    /// Most lines added to one failure message this way.
    static let continuationLimit = 50

    /// Each dialect's own state; what they share (the results, the running tests, the run's
    /// failures and closing verdicts) is the parser's.
    var xctest = XCTestState()
    var swiftTesting = SwiftTestingState()
    var xcbeautify = XcbeautifyState()

    struct RunningTest {
        var suite: String
        var name: String
        var order: Int
        var failures: [TestFailure] = []
        var knownIssues = 0
        /// `clock` when it started.
        var startedAt: Double = 0
        /// xcodebuild's `(Iteration N of M)` on the started line: N > 1 is a repetition or retry.
        var iteration = 1
        /// A UI test's `t = 4.13s Assertion Failure: File.swift:63: message`, used when no `error:` line comes.
        var assertion: TestFailure?
        /// Swift Testing issues of severity warning: reported, never a failure.
        var warnings: [TestFailure] = []
    }

    /// Compiler diagnostics (`path:line:col: error: …`) and tools' `error: …` lines seen, at most
    /// `compilerErrorLimit`: a build, a crash or a tool failed, not (only) a test.
    public internal(set) var compilerErrors: [String] = []
    /// How many compiler or tool error lines were seen, kept or not.
    public internal(set) var compilerErrorCount = 0
    /// How many of the runners' own closing verdicts were read: XCTest's `Executed N tests, with …`,
    /// Swift Testing's `Test run with N tests … passed|failed after …`, xcodebuild's `** TEST FAILED **`.
    /// Zero means no runner said how its run ended: the stage failed before or outside its tests.
    public internal(set) var runnerSummaries = 0
    /// The line after a compiler diagnostic: the compiler quotes the source line there (in its
    /// LLVM style, without a `N |` gutter), and a quoted line is the pull request's text, never an event.
    var quotesSource = false
    /// How many compiler error lines are kept.
    static let compilerErrorLimit = 20

    /// The caller's clock (seconds), stamped on every test that starts; `runningTests` measures from it.
    public var clock: Double = 0

    /// At most this many failures are kept per test (a test retried many times keeps its first ones).
    public static let failureLimit = 10


    /// An empty parser.
    public init() {}

    /// How many results have been recorded so far (a retry merged into an earlier one adds none).
    public var recordedCount: Int { results.count }

    /// The `index`th result recorded so far.
    public func recorded(_ index: Int) -> UITestResult { results[index] }

    /// The tests that started and have not finished, oldest first, with the `clock` at their start:
    /// what was running when a stage timed out.
    public var runningTests: [(identifier: String, startedAt: Double)] {
        runningTestEntries.map { ($0.suite.isEmpty ? $0.name : "\($0.suite).\($0.name)", $0.startedAt) }
    }

    /// `runningTests` with suite and name apart: a test with no suite is Swift Testing's console,
    /// which names a test without its suite (its event stream, where there is one, knows better).
    public var runningTestEntries: [(suite: String, name: String, startedAt: Double)] {
        running.sorted { $0.value.order < $1.value.order }.map { key, test in
            let (suite, name) = test.name.isEmpty ? Self.split(key: key) : (test.suite, test.name)
            return (suite, name, test.startedAt)
        }
    }

    /// Parses a whole text at once.
    public static func parse(_ text: String) -> ParsedTests {
        var parser = ConsoleTestParser()
        var text = text
        text.withUTF8 { parser.consume(UnsafeRawBufferPointer($0)) }
        return parser.finish()
    }

    /// Feeds the next chunk of output; lines may be split across chunks.
    public mutating func consume(_ chunk: UnsafeRawBufferPointer) {
        let bytes = chunk.bindMemory(to: UInt8.self)
        var start = 0
        var index = 0
        while index < bytes.count {
            if bytes[index] == 10 {
                if partialLine.isEmpty && index - start <= Self.lineLimit {
                    line(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                } else {
                    keep(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                    let whole = partialLine
                    partialLine.removeAll(keepingCapacity: whole.count <= Self.lineLimit)
                    whole.withUnsafeBufferPointer { line($0) }
                }
                start = index + 1
            }
            index += 1
        }
        if start < bytes.count { keep(UnsafeBufferPointer(rebasing: bytes[start..<bytes.count])) }
    }

    /// Most bytes of one line the parser holds: a test event fits many times over. A stage that
    /// prints a 1 GB line, or a carriage-return progress bar that never ends its line, costs this
    /// much and no more (the log file still gets every byte).
    public static let lineLimit = 64 * 1024

    /// Holds the start of a line that is not complete yet, up to `lineLimit` bytes.
    mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
        let room = Self.lineLimit - partialLine.count
        guard room > 0 else { return }
        partialLine.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[0..<min(room, bytes.count)]))
    }

    /// Ends the input: tests still running are reported as unfinished.
    public mutating func finish() -> ParsedTests {
        if !partialLine.isEmpty {
            let whole = partialLine
            partialLine.removeAll()
            whole.withUnsafeBufferPointer { line($0) }
        }
        finishPendingIssue()
        closeXcbeautifyFailure()
        // Only the order and key are sorted, and each test leaves `running` as it is recorded: a log
        // cut off with a million tests running holds them once, not three times.
        let unfinished = TestFailure(message: xctest.lastFatalError.map { "did not finish: \($0)" }
            ?? "did not finish: the output ended while the test was running (a crash, a kill or a truncated log)", location: nil)
        var passedByClosingLine = 0
        for (_, key) in running.map({ ($0.value.order, $0.key) }).sorted(by: { $0.0 < $1.0 }) {
            guard let test = running.removeValue(forKey: key) else { continue }
            let (suite, name) = test.name.isEmpty ? Self.split(key: key) : (test.suite, test.name)
            if swiftTesting.runPassed, suite.isEmpty, test.failures.isEmpty {
                // The runner's verdict is the truth: a run that passed had no failing or unfinished test.
                passedByClosingLine += 1
                swiftTesting.ended += 1
                record(UITestResult(suite: suite, name: name, status: test.knownIssues > 0 ? .expectedFailure : .passed, duration: 0,
                                    warnings: test.warnings))
                continue
            }
            record(UITestResult(suite: suite, name: name, status: .unfinished, duration: 0, failures: test.failures + [unfinished]))
        }
        running.removeAll()
        // Failures in an output that showed no test start or end at all (a lone
        // `path:13: error: -[C t] : message`): failed tests all the same, never "no test results".
        // Where tests were shown, a failure no test took stays out, as before: under load a console
        // can show an issue after its test's end, and it must not become a second test.
        for key in earlyFailures.keys.sorted() where startCounter == 0 && results.isEmpty {
            let (suite, name) = Self.split(key: key)
            record(UITestResult(suite: suite, name: name, status: .failed, duration: 0, failures: earlyFailures[key] ?? [], phase: .test))
        }
        earlyFailures.removeAll()
        for test in xctest.announced where resolve(suite: test.suite, name: test.name) == nil {
            record(UITestResult(suite: test.suite, name: test.name, status: .passed, duration: 0))
        }
        xctest.announced.removeAll()
        var run = TestRun(results: results)
        run.runFailures = runFailures
        run.incomplete = incompleteRun
        if let summarySaysFailed, run.failing.isEmpty, runFailures.isEmpty {
            run.runFailures.append("\(summarySaysFailed), but no test failure was shown")
        }
        // Tests whose every line the console lost (Swift Testing drops blocks of its console on
        // Linux): the closing line that says the run passed counts them, so the run's counts are its.
        var lost = 0
        if swiftTesting.runPassed, let closing = swiftTesting.closingCount, closing > swiftTesting.ended {
            lost = closing - swiftTesting.ended
            run.counted = TestCounts(tests: run.results.count + lost, failed: run.failing.count, skipped: run.count(.skipped))
        }
        var parsed = ParsedTests(run: run, unplacedEventLines: unplaced, unplacedSamples: samples, lineCount: lineCount)
        parsed.passedByClosingLine = passedByClosingLine
        parsed.lostFromConsole = lost
        return parsed
    }

    // MARK: - One line

    mutating func line(_ raw: UnsafeBufferPointer<UInt8>) {
        lineCount += 1
        var bytes = raw
        if let last = bytes.last, last == 13 { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        // Colour (xcbeautify's default, Swift Testing's on a terminal) is decoration: the line is
        // read without it. Most lines have none, and memchr finds that out at memory speed.
        if let base = bytes.baseAddress, memchr(base, 27, bytes.count) != nil {
            let plain = Self.withoutEscapes(bytes)
            plain.withUnsafeBufferPointer { event(Self.undecorated($0)) }
        } else {
            event(Self.undecorated(bytes))
        }
    }

    /// One line without its colour and decoration.
    mutating func event(_ bytes: UnsafeBufferPointer<UInt8>) {
        let line = ByteLine(bytes: bytes)
        let continuing = xctest.continued
        xctest.continued = nil
        if swiftTesting.pendingIssue != nil {
            if line.count > 0, line[0] < 0xC0 || line.scalar(at: 0).map({ $0.value < 0x2000 }) == true {
                swiftTesting.pendingIssue!.text += [10] + Array(bytes)
                swiftTesting.pendingIssue!.lines += 1
                if !Self.insideQuotes(swiftTesting.pendingIssue!.text) || swiftTesting.pendingIssue!.lines >= Self.continuationLimit { finishPendingIssue() }
                return
            }
            finishPendingIssue()
        }
        guard line.count > 0 else {
            xctest.inFailingTestsList = false
            // A message goes on over blank lines (`XCTFail("one⏎⏎two")`) until the next event line.
            if let continuing {
                xctest.continued = continuing
                xctest.blankLinesInContinuation += 1
            }
            return
        }
        if xctest.inFailingTestsList {
            if line[0] == 9 || line[0] == 32 {
                failingTestsEntry(line)
                return
            }
            xctest.inFailingTestsList = false
        }
        if quotesSource || Self.isQuotedSource(line) {
            // The compiler quoting a source line (`12 |     code // Test Case '…' failed`): the
            // source is the pull request's, so nothing in it is read as a test event.
            quotesSource = false
            return
        }
        if line[0] < 0xC0 {
            // `  second line` under a Swift Testing issue: its comment goes on.
            if swiftTesting.lastIssue != nil, line.has("  "), !line.has("    ") || line.scalar(at: 4).map({ $0.value < 0x2000 }) ?? true {
                return appendToLastIssue(line.string(from: 2))
            }
            swiftTesting.lastIssue = nil
        }
        if xctest.closingRun, line.has("Executed ", at: line.skipBlanks(from: 0)) {
            // The top suite's count, indented however the tool printed it: XCTest's run has ended.
            xctest.openRun = nil
            xctest.closingRun = false
        }
        if leadingEvent(line) { return }
        if let errorAt = line.find(": error: ") {
            xctestFailure(line, errorAt: errorAt)
        } else if let skipAt = line.find(" : Test skipped") {
            xctestSkip(line, markerAt: skipAt)
        } else if line.find("Fatal error: ") != nil, !running.isEmpty {
            xctest.lastFatalError = line.string(from: line.find("Fatal error: ")!)
        } else if let assertionAt = line.find("Assertion Failure: "), !running.isEmpty {
            uiAssertion(line, from: assertionAt + 19)
        } else if let warningAt = line.find(": warning: "), Self.location(line, end: warningAt) != nil {
            // A compiler warning: its next line quotes the source.
            quotesSource = true
        } else if let glued = line.find("Test Case '", from: 1) ?? line.find("Test case '", from: 1),
                  Self.gluesToOutput(line, at: glued),
                  let close = line.find(byte: UInt8(ascii: "'"), from: glued + 11),
                  line.has(" started", at: close + 1) || line.has(" passed", at: close + 1)
                    || line.has(" failed", at: close + 1) || line.has(" skipped", at: close + 1) {
            // An event printed right after output that did not end its line: `…manifeTest Case '-[A.B t]' passed (0.001 seconds).`
            // (Not `path:35: Test Case '-[A t]' measured […]`, a performance test's report.)
            testCase(line, from: glued + 11)
        } else if line.find("encountered an error (") != nil || (line.find("Test session results") != nil && line.find(" crashed") != nil) {
            // `\tAppUITests-Runner (4242) encountered an error (Early unexpected exit, operation never finished bootstrapping …)`
            runFailures.append(line.string(line.skipBlanks(from: 0)..<min(line.count, Self.echoLimit)))
        } else if let continuing {
            continueMessage(continuing, with: line)
        }
    }

    /// Whether an event found inside a line at `offset` was printed right after output that did not
    /// end its line (`…manifeTest Case '-[A.B t]' passed`): only then is it the runner's. After a
    /// blank, a quote or a comment's slash it is text of that line (`x // Test Case '…' failed`).
    static func gluesToOutput(_ line: ByteLine, at offset: Int) -> Bool {
        let before = line[offset - 1]
        return (before >= 48 && before <= 57) || (before >= 65 && before <= 90) || (before >= 97 && before <= 122) || before == UInt8(ascii: ".")
    }

    /// The compiler's quoted source in its Swift style: `12 |     code`, `   |     `- error: …`.
    static func isQuotedSource(_ line: ByteLine) -> Bool {
        guard line[0] == 32 || (line[0] >= 48 && line[0] <= 57) else { return false }
        var index = line.skipBlanks(from: 0)
        while index < line.count && line[index] >= 48 && line[index] <= 57 { index += 1 }
        if index < line.count && line[index] == 32 { index += 1 }
        return index < line.count && line[index] == UInt8(ascii: "|") && (index + 1 == line.count || line[index + 1] == 32)
    }

    /// A line known by how it starts: XCTest's and xcodebuild's event lines, xcbeautify's, Swift
    /// Testing's glyph lines, summaries. False for a line to look into further.
    mutating func leadingEvent(_ line: ByteLine) -> Bool {
        let first = line[0]
        if first == UInt8(ascii: "T") {
            if line.has("Test Case '") { testCase(line, from: 11); return true }
            if line.has("Test case '") { testCase(line, from: 11); return true }
            if line.has("Test Suite '") || line.has("Test suite '") { suiteLine(line); return true }
            if line.has("Test Suite "), let started = line.find(" started", from: 11) {
                // xcbeautify's heading: `Test Suite AppTests started` (xcodebuild quotes the name).
                closeXcbeautifyFailure()
                xcbeautify.suite = line.string(11..<started)
                return true
            }
            // xcbeautify's rendering of Swift Testing's opening and closing lines, without their glyph.
            if line.has("Test run with ") { runSummary(line, from: 5, countsTests: false); return true }
            if line.has("Test run started") { swiftTesting.runOpen = true; return true }
        } else if first == UInt8(ascii: " "), line.has("    "), let glyph = line.scalar(at: 4), glyph.value >= 0x2000 {
            return xcbeautifyLine(line, glyph: glyph)
        } else if first >= 0xC0 {
            swiftTestingLine(line)
            return true
        } else if first == UInt8(ascii: "S"), line.has("Suite "), line.find(" started", from: 6) == line.count - 8 {
            // xcbeautify's `Suite SwiftTestingGroup started` (Swift Testing's, without its glyph).
            closeXcbeautifyFailure()
            xcbeautify.suite = line.string(6..<(line.count - 8)).trimmingQuotes()
            return true
        } else if first == UInt8(ascii: "F") {
            if line.has("Failing tests:") { xctest.inFailingTestsList = true; return true }
            if line.has("Fatal error: ") { xctest.lastFatalError = line.string(from: 0); return true }
        } else if first == UInt8(ascii: "R") && line.has("Restarting after unexpected exit") {
            restart(line)
            return true
        } else if first == UInt8(ascii: "E") && line.has("Early unexpected exit") {
            runFailures.append(line.string(0..<min(line.count, Self.echoLimit)))
            return true
        } else if first == UInt8(ascii: "E") && line.has("Executed "), let with = line.find(", with ", from: 9) {
            xctestCount(line, from: with + 7)
        } else if first == 9, line.has("\t Executed "), let with = line.find(", with ", from: 11) {
            xctestCount(line, from: with + 7)
        } else if first == UInt8(ascii: "*") {
            for verdict in Self.xcodebuildFailures where line.has(verdict.marker) {
                summarySaysFailed = verdict.meaning
                if verdict.endsTests { closeRuns() } else { compilerError(line) }
                return true
            }
            if line.has("** TEST SUCCEEDED **") { closeRuns(); return true }
        } else if first == UInt8(ascii: "e"), line.has("error: ") {
            // SwiftPM's and other tools' own errors (`error: Exited with unexpected signal code
            // 4`): the stage failed for more than its tests. SwiftPM's summary (BuildErrors) is not.
            if compilerErrorCount > 0, BuildErrors.isSwiftPMSummary(line) { return true }
            compilerError(line)
            return true
        } else if first == UInt8(ascii: "["), let close = line.find("] Testing ", from: 1) {
            let identifier = line.string(from: close + 10, to: line.count)
            if let slash = identifier.lastIndex(of: "/") {
                xctest.announced.append((String(identifier[..<slash]), String(identifier[identifier.index(after: slash)...])))
            }
            return true
        }
        return false
    }

    /// xcodebuild's `** TEST SUCCEEDED **` or `** TEST FAILED **`: the end of everything it ran.
    mutating func closeRuns() {
        runnerSummaries += 1
        xctest.openRun = nil
        xctest.closingRun = false
        swiftTesting.runOpen = false
    }

    /// What the output shows of a run it does not show the end of: the start of XCTest's top suite or
    /// of Swift Testing's run, and no closing summary after it. Nil when it shows both ends or no start
    /// (a fragment of test lines keeps its reading).
    var incompleteRun: String? {
        if let suite = xctest.openRun {
            return "the output ends before the run does: it shows Test Suite '\(suite)' started, and not its end "
                + "(Test Suite '\(suite)' passed or failed, then Executed N tests): a log cut short, or a runner that stopped"
        }
        if swiftTesting.runOpen {
            return "the output ends before the run does: it shows Swift Testing's Test run started, and not its end "
                + "(Test run with N tests … passed or failed after …): a log cut short, or a runner that stopped"
        }
        return nil
    }

    /// xcodebuild's closing lines that say the run failed, and what each means.
    /// `endsTests`: the line closes a test run (rather than a build that never ran one).
    static let xcodebuildFailures: [(marker: StaticString, meaning: String, endsTests: Bool)] = [
        ("** TEST FAILED **", "xcodebuild's summary says ** TEST FAILED **", true),
        ("** TEST EXECUTE FAILED **", "xcodebuild's summary says ** TEST EXECUTE FAILED **", false),
        ("** BUILD FAILED **", "the build failed (** BUILD FAILED **)", false),
        ("** TEST BUILD FAILED **", "the build failed (** TEST BUILD FAILED **)", false),
    ]

    /// Keeps a compiler's or tool's error line (the first `compilerErrorLimit` of them) and counts it.
    mutating func compilerError(_ line: ByteLine) {
        compilerErrorCount += 1
        if compilerErrors.count < Self.compilerErrorLimit { compilerErrors.append(line.string(0..<min(line.count, 4 * Self.echoLimit))) }
    }

    /// `Executed 7 tests, with 1 test skipped and 2 failures (0 unexpected) in …`: a count of
    /// failures above 0 says the run failed, whether or not a failing test was shown.
    mutating func xctestCount(_ line: ByteLine, from start: Int) {
        runnerSummaries += 1
        var index = start
        if let and = line.find(" and ", from: index), and < (line.find(byte: UInt8(ascii: "("), from: index) ?? line.count) {
            index = and + 5
        }
        guard let failures = line.count(at: index), failures.value > 0, line.has(" failure", at: failures.end) else { return }
        summarySaysFailed = summarySaysFailed ?? "the XCTest summary counts \(failures.value) failure\(failures.value == 1 ? "" : "s")"
    }

    /// The next plain line of a message that goes on: an XCTest failure's or a skip's reason.
    mutating func continueMessage(_ continuing: Continued, with line: ByteLine) {
        guard xctest.continuationLines < Self.continuationLimit else { return }
        let text = String(repeating: "\n", count: xctest.blankLinesInContinuation + 1) + line.string(from: 0)
        xctest.blankLinesInContinuation = 0
        switch continuing {
        case .failure(let key):
            guard let test = running[key], let last = test.failures.last else { return }
            running[key]!.failures[test.failures.count - 1] = TestFailure(message: last.message + text, location: last.location)
        case .skip(let key):
            guard let reason = earlySkipReasons[key] else { return }
            earlySkipReasons[key] = reason + text
        }
        xctest.continuationLines += 1
        xctest.continued = continuing
    }

    mutating func miss(_ line: ByteLine) {
        unplaced += 1
        if samples.count < Self.sampleLimit { samples.append(line.string(from: 0)) }
    }

    // MARK: - Bookkeeping

    mutating func begin(suite: String, name: String, key: String) {
        startCounter += 1
        let early = earlyFailures.isEmpty ? [] : (earlyFailures.removeValue(forKey: key) ?? [])
        running[key] = RunningTest(suite: suite, name: name, order: startCounter, failures: early, startedAt: clock)
        xctest.lastFatalError = nil
    }

    mutating func addFailure(key: String, _ failure: TestFailure) {
        if running[key] != nil {
            if running[key]!.failures.count < Self.failureLimit { running[key]!.failures.append(failure) }
        } else {
            earlyFailures[key, default: []].append(failure)
        }
    }

    mutating func finish(key: String, suite: String, name: String, status: TestStatus, duration: Double,
                                 extraFailure: TestFailure? = nil) {
        let test = running.removeValue(forKey: key)
        var failures = test?.failures ?? []
        if !earlyFailures.isEmpty, let early = earlyFailures.removeValue(forKey: key) { failures += early }
        if let extraFailure { failures.append(extraFailure) }
        if status == .failed && failures.isEmpty, let assertion = test?.assertion { failures.append(assertion) }
        if status == .failed && failures.isEmpty, let fatal = xctest.lastFatalError {
            failures.append(TestFailure(message: fatal, location: nil))
        }
        if status == .failed && failures.isEmpty {
            failures.append(TestFailure(message: "failed (the output gives no message)", location: nil))
        }
        let reason = earlySkipReasons.isEmpty ? nil : earlySkipReasons.removeValue(forKey: key)
        let known = test.flatMap { $0.name.isEmpty ? nil : $0 }
        record(UITestResult(suite: known?.suite ?? suite, name: known?.name ?? name, status: status, duration: duration,
                            failures: status == .skipped ? [] : failures, phase: status == .failed ? .test : nil,
                            skipReason: status == .skipped ? reason : nil, warnings: test?.warnings ?? []),
               asRetry: (test?.iteration ?? 1) > 1)
    }

    /// Adds a result. Only a run the tool marks as a repetition or retry (xcodebuild's
    /// `(Iteration N of M)`, N > 1, or its restart line) is merged into the earlier run of the test:
    /// attempts add up, failures are kept, and the latest run decides the status — so a test that
    /// failed and then passed shows as passed with its failures: flaky. Any other repeat of a name is
    /// a test of its own.
    mutating func record(_ result: UITestResult, asRetry: Bool = false) {
        if asRetry, let index = resultIndex[result.testIdentifier] {
            results[index] = results[index].merged(withRetry: result, failureLimit: Self.failureLimit)
            return
        }
        resultIndex[result.testIdentifier] = results.count
        results.append(result)
    }

    /// The key of a running or finished test, matching `Class.test` against `Module.Class.test` too.
    func resolve(suite: String, name: String) -> String? {
        let exact = "\(suite).\(name)"
        if running[exact] != nil || resultIndex[exact] != nil { return exact }
        let lastComponent = suite.split(separator: ".").last.map(String.init) ?? suite
        for (key, test) in running {
            let (testSuite, testName) = test.name.isEmpty ? Self.split(key: key) : (test.suite, test.name)
            if testName == name && testSuite.split(separator: ".").last.map(String.init) == lastComponent { return key }
        }
        for result in results where result.name == name && result.suite.split(separator: ".").last.map(String.init) == lastComponent {
            return result.testIdentifier
        }
        return nil
    }

    // MARK: - Names and places

    /// A key `Suite.name` back into its parts (the name never holds a dot).
    static func split(key: String) -> (suite: String, name: String) {
        guard let dot = key.lastIndex(of: ".") else { return ("", key) }
        return (String(key[..<dot]), String(key[key.index(after: dot)...]))
    }

    /// `-[Module.Class test]` → ("Module.Class", "test"); `Class.test` or `Class.test()` → ("Class", "test").
    static func splitXCTestIdentifier(_ raw: String) -> (suite: String, name: String)? {
        if raw.hasPrefix("-["), raw.hasSuffix("]") {
            let inner = raw.dropFirst(2).dropLast()
            guard let space = inner.lastIndex(of: " ") else { return nil }
            let suite = String(inner[..<space]), name = String(inner[inner.index(after: space)...])
            return suite.isEmpty || name.isEmpty ? nil : (suite, name)
        }
        var identifier = Substring(raw)
        if identifier.hasSuffix("()") { identifier = identifier.dropLast(2) }
        guard let dot = identifier.lastIndex(of: "."), !identifier.contains(" ") else { return nil }
        let suite = String(identifier[..<dot]), name = String(identifier[identifier.index(after: dot)...])
        return suite.isEmpty || name.isEmpty ? nil : (suite, name)
    }

    /// `path:line` (column 0) or `path:line:column` ending right before `end`.
    static func location(_ line: ByteLine, start: Int = 0, end: Int) -> SourceLocation? {
        guard end > start else { return nil }
        var numbers: [Int] = []
        var cursor = end
        while numbers.count < 2 {
            var digitsStart = cursor
            while digitsStart > start && line[digitsStart - 1] >= 48 && line[digitsStart - 1] <= 57 { digitsStart -= 1 }
            guard digitsStart < cursor, digitsStart > start, line[digitsStart - 1] == UInt8(ascii: ":"),
                  let value = Int(line.string(digitsStart..<cursor)) else { break }
            numbers.append(value)
            cursor = digitsStart - 1
        }
        guard !numbers.isEmpty, cursor > start else { return nil }
        let file = line.string(start..<cursor)
        return numbers.count == 2
            ? SourceLocation(file: file, line: numbers[1], column: numbers[0])
            : SourceLocation(file: file, line: numbers[0], column: 0)
    }
}
