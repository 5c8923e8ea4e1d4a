import PrePushCore

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
}

/// Turns console output of XCTest (macOS and Linux), `xcodebuild test` (serial and parallel) and
/// Swift Testing (Unicode or SF-Symbol glyphs) into `UITestResult`s. It is fed chunks as they
/// arrive and keeps only the tests, never the log: memory does not grow with the output.
public struct ConsoleTestParser {
    /// At most this many characters of an input line are quoted in a message.
    static let echoLimit = 200
    /// At most this many unplaced lines are kept as samples.
    static let sampleLimit = 20

    private var partialLine: [UInt8] = []
    private var lineCount = 0
    private var unplaced = 0
    private var samples: [String] = []

    private var results: [UITestResult] = []
    private var resultIndex: [String: Int] = [:]
    private var running: [String: RunningTest] = [:]
    private var startCounter = 0
    private var earlyFailures: [String: [TestFailure]] = [:]
    private var earlySkipReasons: [String: String] = [:]
    private var lastFatalError: String?
    private var inFailingTestsList = false
    /// `swift test --parallel` announces every XCTest test as `[i/n] Testing Module.Class/test` and
    /// prints the output only of failing ones; an announced test with no output passed.
    private var announced: [(suite: String, name: String)] = []

    /// Swift Testing's console names a test only by its function or display name, and several suites
    /// can hold a test of the same name: the keys of the running ones, per name, in start order.
    private var swiftTestingRunning: [String: [String]] = [:]
    /// Failures of the run as a whole (xcodebuild's "Early unexpected exit"), not of one test.
    private var runFailures: [String] = []
    /// A summary line that says the run failed; a failure of the run when no test failure explains it.
    private var summarySaysFailed: String?
    /// Swift Testing's closing line said the run passed (`Test run with N tests … passed after …`).
    private var swiftTestingRunPassed = false
    /// The Swift Testing test whose issue the next `↳` lines describe.
    private var lastIssueKey: String?
    /// Tests xcodebuild said it restarts after a crash: their next run is a retry.
    private var restartedKeys: Set<String> = []
    /// The running XCTest test whose last failure the next plain lines continue: a message with a
    /// line break (`XCTAssertEqual failed: ("a⏎b") is not equal to …`, `XCTFail("one⏎two")`)
    /// goes on until the next event line.
    private var continuedFailureKey: String?
    private var continuationLines = 0
    /// Most lines added to one failure message this way.
    static let continuationLimit = 50
    /// xcbeautify's output (users pipe xcodebuild through it): the suite its last `Test Suite X started`
    /// named, and the test whose `✖ name, reason` lines are being gathered (one per failed assertion).
    private var xcbeautifySuite = ""
    private var xcbeautifyFailing: String?

    /// A Swift Testing issue whose argument value is a string with line breaks: its line ends inside
    /// the quotes, and the place and message come lines later (`value → "a⏎b" at F.swift:3:5: …`).
    private var pendingIssue: (name: String, text: [UInt8], lines: Int)?

    private struct RunningTest {
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
    }

    /// Compiler diagnostics (`path:line:col: error: …`) seen, at most `compilerErrorLimit`.
    public private(set) var compilerErrors: [String] = []
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
    private mutating func keep(_ bytes: UnsafeBufferPointer<UInt8>) {
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
        let unfinished = TestFailure(message: lastFatalError.map { "did not finish: \($0)" }
            ?? "did not finish: the output ended while the test was running (a crash, a kill or a truncated log)", location: nil)
        var passedByClosingLine = 0
        for (_, key) in running.map({ ($0.value.order, $0.key) }).sorted(by: { $0.0 < $1.0 }) {
            guard let test = running.removeValue(forKey: key) else { continue }
            let (suite, name) = test.name.isEmpty ? Self.split(key: key) : (test.suite, test.name)
            if swiftTestingRunPassed, suite.isEmpty, test.failures.isEmpty {
                // The runner's verdict is the truth: a run that passed had no failing or unfinished test.
                passedByClosingLine += 1
                record(UITestResult(suite: suite, name: name, status: test.knownIssues > 0 ? .expectedFailure : .passed, duration: 0))
                continue
            }
            record(UITestResult(suite: suite, name: name, status: .unfinished, duration: 0, failures: test.failures + [unfinished]))
        }
        running.removeAll()
        for test in announced where resolve(suite: test.suite, name: test.name) == nil {
            record(UITestResult(suite: test.suite, name: test.name, status: .passed, duration: 0))
        }
        announced.removeAll()
        var run = TestRun(results: results)
        run.runFailures = runFailures
        if let summarySaysFailed, run.failing.isEmpty, runFailures.isEmpty {
            run.runFailures.append("\(summarySaysFailed), but no test failure was shown")
        }
        var parsed = ParsedTests(run: run, unplacedEventLines: unplaced, unplacedSamples: samples, lineCount: lineCount)
        parsed.passedByClosingLine = passedByClosingLine
        return parsed
    }

    // MARK: - One line

    private mutating func line(_ raw: UnsafeBufferPointer<UInt8>) {
        lineCount += 1
        var bytes = raw
        if let last = bytes.last, last == 13 { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        let line = ByteLine(bytes: bytes)
        let continuing = continuedFailureKey
        continuedFailureKey = nil
        if pendingIssue != nil {
            if line.count > 0, line[0] < 0xC0 || line.scalar(at: 0).map({ $0.value < 0x2000 }) == true {
                pendingIssue!.text += [10] + Array(bytes)
                pendingIssue!.lines += 1
                if !Self.insideQuotes(pendingIssue!.text) || pendingIssue!.lines >= Self.continuationLimit { finishPendingIssue() }
                return
            }
            finishPendingIssue()
        }
        guard line.count > 0 else {
            inFailingTestsList = false
            return
        }
        if inFailingTestsList {
            if line[0] == 9 || line[0] == 32 {
                failingTestsEntry(line)
                return
            }
            inFailingTestsList = false
        }
        let first = line[0]
        if first == UInt8(ascii: "T") {
            if line.has("Test Case '") { return testCase(line, from: 11) }
            if line.has("Test case '") { return testCase(line, from: 11) }
            if line.has("Test Suite '") || line.has("Test suite '") { return suiteLine(line) }
            if line.has("Test Suite "), let started = line.find(" started", from: 11) {
                // xcbeautify's heading: `Test Suite AppTests started` (xcodebuild quotes the name).
                closeXcbeautifyFailure()
                xcbeautifySuite = line.string(11..<started)
                return
            }
        } else if first == UInt8(ascii: " "), line.has("    "), let glyph = line.scalar(at: 4),
                  glyph.value == 0x2714 || glyph.value == 0x2716 || glyph.value == 0x2298, line.has(" ", at: 4 + glyph.length) {
            return xcbeautifyTest(line, glyph: glyph.value, from: 5 + glyph.length)
        } else if first >= 0xC0 {
            return swiftTestingLine(line)
        } else if first == UInt8(ascii: "F") {
            if line.has("Failing tests:") { inFailingTestsList = true; return }
            if line.has("Fatal error: ") { lastFatalError = line.string(from: 0); return }
        } else if first == UInt8(ascii: "R") && line.has("Restarting after unexpected exit") {
            return restart(line)
        } else if first == UInt8(ascii: "E") && line.has("Early unexpected exit") {
            runFailures.append(line.string(0..<min(line.count, Self.echoLimit)))
            return
        } else if first == UInt8(ascii: "*") && line.has("** TEST FAILED **") {
            summarySaysFailed = "xcodebuild's summary says ** TEST FAILED **"
            return
        } else if first == UInt8(ascii: "["), let close = line.find("] Testing ", from: 1) {
            let identifier = line.string(from: close + 10, to: line.count)
            if let slash = identifier.lastIndex(of: "/") {
                announced.append((String(identifier[..<slash]), String(identifier[identifier.index(after: slash)...])))
            }
            return
        }
        if let errorAt = line.find(": error: ") {
            xctestFailure(line, errorAt: errorAt)
        } else if let skipAt = line.find(" : Test skipped") {
            xctestSkip(line, markerAt: skipAt)
        } else if line.find("Fatal error: ") != nil, !running.isEmpty {
            lastFatalError = line.string(from: line.find("Fatal error: ")!)
        } else if let assertionAt = line.find("Assertion Failure: "), !running.isEmpty {
            uiAssertion(line, from: assertionAt + 19)
        } else if let glued = line.find("Test Case '", from: 1) ?? line.find("Test case '", from: 1),
                  let close = line.find(byte: UInt8(ascii: "'"), from: glued + 11),
                  line.has(" started", at: close + 1) || line.has(" passed", at: close + 1)
                    || line.has(" failed", at: close + 1) || line.has(" skipped", at: close + 1) {
            // An event printed right after output that did not end its line: `…manifeTest Case '-[A.B t]' passed (0.001 seconds).`
            // (Not `path:35: Test Case '-[A t]' measured […]`, a performance test's report.)
            testCase(line, from: glued + 11)
        } else if let key = continuing, continuationLines < Self.continuationLimit, let test = running[key], let last = test.failures.last {
            running[key]!.failures[test.failures.count - 1] = TestFailure(message: last.message + "\n" + line.string(from: 0), location: last.location)
            continuationLines += 1
            continuedFailureKey = key
        }
    }

    private mutating func miss(_ line: ByteLine) {
        unplaced += 1
        if samples.count < Self.sampleLimit { samples.append(line.string(from: 0)) }
    }

    // MARK: - XCTest and xcodebuild

    /// `Test Case '-[Module.Class test]' passed (0.001 seconds).`, `Test Case 'Class.test' started at …`,
    /// `Test case 'Class.test()' failed on 'Clone 1 of iPhone …' (0.278 seconds)`.
    private mutating func testCase(_ line: ByteLine, from start: Int) {
        guard let close = line.find(byte: UInt8(ascii: "'"), from: start),
              let parts = Self.identifierParts(line, start..<close) else { return miss(line) }
        var index = close + 1
        guard line.has(" ", at: index) else { return miss(line) }
        index += 1
        let key = Self.key(line, parts)
        if line.has("started", at: index) {
            // The name is only needed when the test finishes; the key is enough to track it.
            if running[key] == nil { begin(suite: "", name: "", key: key) }
            // xcodebuild runs a test again after it crashed the runner: that run is a retry.
            if !restartedKeys.isEmpty, restartedKeys.remove(key) != nil { running[key]?.iteration = 2 }
            if let iterationAt = line.find("(Iteration ", from: index), let number = line.number(at: iterationAt + 11) {
                running[key]?.iteration = Int(number.value)
            }
            return
        }
        let status: TestStatus
        if line.has("passed", at: index) { status = .passed; index += 6 }
        else if line.has("failed", at: index) { status = .failed; index += 6 }
        else if line.has("skipped", at: index) { status = .skipped; index += 7 }
        else { return miss(line) }
        // The duration is the last "(N seconds)" on the line: "on 'Clone 1 of … (59522)'" may come first.
        var duration = 0.0
        if let paren = line.findLast(byte: UInt8(ascii: "("), after: index), let number = line.number(at: paren + 1) {
            duration = number.value
        }
        finish(key: key, suite: line.string(parts.suite), name: line.string(parts.name), status: status, duration: duration)
    }

    /// Byte ranges of the suite and name in `-[Module.Class test]`, `Class.test` or `Class.test()`.
    static func identifierParts(_ line: ByteLine, _ range: Range<Int>) -> (suite: Range<Int>, name: Range<Int>)? {
        var lower = range.lowerBound, upper = range.upperBound
        if line.has("-[", at: lower), upper - lower > 3, line[upper - 1] == UInt8(ascii: "]") {
            lower += 2
            upper -= 1
            var space = upper - 1
            while space > lower && line[space] != 32 { space -= 1 }
            guard space > lower, space + 1 < upper else { return nil }
            return (lower..<space, (space + 1)..<upper)
        }
        if upper - lower > 2 && line[upper - 2] == UInt8(ascii: "(") && line[upper - 1] == UInt8(ascii: ")") { upper -= 2 }
        // `Class.test`, or Xcode 26's `Suite/test()`.
        var dot = upper - 1
        while dot > lower && line[dot] != UInt8(ascii: ".") && line[dot] != UInt8(ascii: "/") {
            if line[dot] == 32 { return nil }
            dot -= 1
        }
        guard dot > lower, dot + 1 < upper else { return nil }
        for position in lower..<dot where line[position] == 32 { return nil }
        return (lower..<dot, (dot + 1)..<upper)
    }

    /// `Suite.name`, made in one step from the line's bytes.
    static func key(_ line: ByteLine, _ parts: (suite: Range<Int>, name: Range<Int>)) -> String {
        if parts.suite.upperBound + 1 == parts.name.lowerBound && line[parts.suite.upperBound] == UInt8(ascii: ".") {
            return line.string(parts.suite.lowerBound..<parts.name.upperBound)
        }
        return line.string(parts.suite) + "." + line.string(parts.name)
    }

    /// `Test Suite 'All tests' started at …`, `… passed at …`, `… failed at …`, `Test suite 'X' started on 'Clone …'`.
    private mutating func suiteLine(_ line: ByteLine) {
        guard let close = line.find(byte: UInt8(ascii: "'"), from: 12) else { return miss(line) }
        if line.has(" failed", at: close + 1) {
            let suite = line.string(12..<close)
            if suite == "All tests" || suite == "Selected tests" {
                summarySaysFailed = "the XCTest summary says the run failed (Test Suite '\(suite)' failed)"
            }
            return
        }
        // `finished at …`: the form of XCTest before Xcode 9 (xcpretty-era logs).
        if line.has(" started", at: close + 1) || line.has(" passed", at: close + 1) || line.has(" finished", at: close + 1) { return }
        miss(line)
    }

    /// `/path/File.swift:34: error: -[Module.Class test] : XCTAssertTrue failed - …` (macOS) or
    /// `/path/File.swift:34: error: Class.test : message` (Linux). Compiler errors (with a column,
    /// and no test name) are not test events and pass through.
    private mutating func xctestFailure(_ line: ByteLine, errorAt: Int) {
        let testStart = errorAt + 9
        let location = Self.location(line, end: errorAt)
        if line.has("-[", at: testStart) {
            guard let close = line.find("] : ", from: testStart),
                  let (suite, name) = Self.splitXCTestIdentifier(line.string(testStart..<(close + 1))) else { return miss(line) }
            addFailure(key: "\(suite).\(name)", TestFailure(message: line.string(from: close + 4), location: location))
            continueFailure(of: "\(suite).\(name)")
            return
        }
        guard let separator = line.find(" : ", from: testStart), location != nil, location!.column == 0 else {
            // `path:line:col: error: …` from the compiler: what a failed build shows first.
            if location != nil, compilerErrors.count < Self.compilerErrorLimit { compilerErrors.append(line.string(from: 0)) }
            return
        }
        let identifier = line.string(testStart..<separator)
        guard !identifier.contains(" "), let (suite, name) = Self.splitXCTestIdentifier(identifier) else { return }
        addFailure(key: "\(suite).\(name)", TestFailure(message: line.string(from: separator + 3), location: location.map {
            SourceLocation(file: $0.file, line: $0.line, column: 0)
        }))
        continueFailure(of: "\(suite).\(name)")
    }

    /// Lets the next plain lines continue the failure just added, when its test is running.
    private mutating func continueFailure(of key: String) {
        guard running[key] != nil else { return }
        continuedFailureKey = key
        continuationLines = 0
    }

    /// `/path/File.swift:14: Class.test : Test skipped - reason` (Linux) or `… -[Module.Class test] : Test skipped - reason`.
    private mutating func xctestSkip(_ line: ByteLine, markerAt: Int) {
        guard let colon = line.find(": ", from: 0), colon < markerAt else { return }
        let identifier = line.string(from: colon + 2, to: markerAt)
        guard let (suite, name) = Self.splitXCTestIdentifier(identifier) else { return miss(line) }
        var reason = Substring(line.string(from: markerAt + 15))
        // ` - reason`, `: reason`: the separator is not part of the reason.
        while let first = reason.first, first == " " || first == "-" || first == ":" { reason.removeFirst() }
        let key = "\(suite).\(name)"
        if running[key] != nil || resultIndex[key] == nil { earlySkipReasons[key] = String(reason) }
    }

    /// Lines under `Failing tests:`: `\tClass.test()`, or a target header `\tTarget:` then `\t\tClass.test()`.
    private mutating func failingTestsEntry(_ line: ByteLine) {
        let start = line.skipBlanks(from: 0)
        var text = line.string(from: start)
        if text.hasSuffix(":") { return }
        if text.hasSuffix("()") { text.removeLast(2) }
        guard let (suite, name) = Self.splitXCTestIdentifier(text.replacingSlash()) else { return miss(line) }
        if let key = resolve(suite: suite, name: name), let index = resultIndex[key], results[index].status != .passed { return }
        if resolve(suite: suite, name: name) == nil {
            record(UITestResult(suite: suite, name: name, status: .failed, duration: 0,
                                failures: [TestFailure(message: "listed under \"Failing tests:\" by xcodebuild", location: nil)]))
        }
    }

    /// `Restarting after unexpected exit, crash, or test timeout in Class/test(); summary will include …`
    private mutating func restart(_ line: ByteLine) {
        guard let inAt = line.find(" in "), let semicolon = line.find(byte: UInt8(ascii: ";"), from: inAt) else { return }
        var identifier = line.string(from: inAt + 4, to: semicolon)
        if identifier.hasSuffix("()") { identifier.removeLast(2) }
        guard let (suite, name) = Self.splitXCTestIdentifier(identifier.replacingSlash()) else { return }
        let reason = "the test process exited unexpectedly (crash or test timeout)" + (lastFatalError.map { ": \($0)" } ?? "")
        // Only a test this output showed: a restart line for a test never seen is not evidence
        // enough (xcodebuild's "Failing tests:" summary lists crashed tests it could not show).
        if let key = resolve(suite: suite, name: name), running[key] != nil {
            let parts = Self.split(key: key)
            finish(key: key, suite: parts.suite, name: parts.name, status: .failed, duration: 0, extraFailure: TestFailure(message: reason, location: nil))
            restartedKeys.insert(key)
        } else if resolve(suite: suite, name: name) == nil {
            // The crash took the test's own lines with it: the restart line is all there is, and it says the test failed.
            record(UITestResult(suite: suite, name: name, status: .failed, duration: 0, failures: [TestFailure(message: reason, location: nil)], phase: .test))
            restartedKeys.insert("\(suite).\(name)")
        }
        lastFatalError = nil
    }

    /// A UI test's activity line `t =     4.13s Assertion Failure: FlakyTests.swift:63: XCTAssertTrue failed - …`:
    /// the failure of the test running now, kept for when no `error:` line names it.
    private mutating func uiAssertion(_ line: ByteLine, from start: Int) {
        guard let key = running.max(by: { $0.value.order < $1.value.order })?.key else { return }
        var messageStart = start
        var location: SourceLocation?
        if let colon = line.find(": ", from: start), let place = Self.location(line, start: start, end: colon) {
            location = place
            messageStart = colon + 2
        }
        running[key]?.assertion = TestFailure(message: line.string(from: messageStart), location: location)
    }

    // MARK: - xcbeautify

    /// `    ✔ testName (0.001 seconds)`, `    ✔ [Suite] testName on 'iPhone 16' (0.001 seconds)`,
    /// `    ⊘ testName (0.000 seconds)`, `    ⊘ name() skipped (reason)`, `    ✖ testName, reason`
    /// (one per failed assertion; xcbeautify drops the place), `    ✖ name() (0.002 seconds) 1 issue(s)`.
    private mutating func xcbeautifyTest(_ line: ByteLine, glyph: UInt32, from start: Int) {
        var text = Substring(line.string(from: start))
        var suite = xcbeautifySuite
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            suite = String(text[text.index(after: text.startIndex)..<close])
            text = text[text.index(after: close)...].drop { $0 == " " }
        }
        // `name (0.001 seconds)`, maybe with ` on 'device'` before it and ` N issue(s)` after it.
        var duration = 0.0, name = text
        if let open = text.ranges(of: " (").last, text[open.upperBound...].contains(" seconds)"),
           let seconds = text[open.upperBound...].firstRange(of: " seconds)"),
           let value = Double(text[open.upperBound..<seconds.lowerBound]) {
            duration = value
            name = text[..<open.lowerBound]
            if let device = name.firstRange(of: " on '") { name = name[..<device.lowerBound] }
        } else if glyph == 0x2716, let comma = text.firstIndex(of: ",") {
            // `✖ testName, reason`: gathered until another event ends the test.
            let testName = String(text[..<comma]), reason = String(text[text.index(after: comma)...].drop { $0 == " " })
            let key = "\(suite).\(testName)"
            if xcbeautifyFailing != key {
                closeXcbeautifyFailure()
                begin(suite: suite, name: testName, key: key)
                xcbeautifyFailing = key
            }
            addFailure(key: key, TestFailure(message: reason, location: nil))
            return
        }
        closeXcbeautifyFailure()
        var skipReason: String?
        if glyph == 0x2298, let skipped = name.firstRange(of: " skipped") {
            let rest = name[skipped.upperBound...].trimmingPrefix(" ")
            if rest.hasPrefix("("), rest.hasSuffix(")") { skipReason = String(rest.dropFirst().dropLast()) }
            name = name[..<skipped.lowerBound]
        }
        let testName = String(name)
        guard !testName.isEmpty, !testName.contains(" ") || testName.hasSuffix(")") else { return miss(line) }
        let key = "\(suite).\(testName)"
        if glyph == 0x2298 { earlySkipReasons[key] = skipReason ?? "" }
        begin(suite: suite, name: testName, key: key)
        finish(key: key, suite: suite, name: testName,
               status: glyph == 0x2714 ? .passed : glyph == 0x2298 ? .skipped : .failed, duration: duration)
    }

    /// Ends the test whose `✖` lines were being gathered: failed, with every reason.
    private mutating func closeXcbeautifyFailure() {
        guard let key = xcbeautifyFailing else { return }
        xcbeautifyFailing = nil
        guard let test = running[key] else { return }
        finish(key: key, suite: test.suite, name: test.name, status: .failed, duration: 0)
    }

    // MARK: - Swift Testing

    /// A line that starts with a symbol glyph: `◇ Test x() started.`, `✘ Test "Name" recorded an issue at F.swift:1:2: …`,
    /// `􁁛  Test x() passed after 0.001 seconds.`, `➜ Test y() skipped: "reason"`, `↳ details`.
    private mutating func swiftTestingLine(_ line: ByteLine) {
        guard let glyph = line.scalar(at: 0), glyph.value >= 0x2000 else { return }
        let textStart = line.skipBlanks(from: glyph.length)
        guard textStart > glyph.length else { return }
        if line.has("Test ", at: textStart) {
            swiftTestingTest(line, from: textStart + 5)
        } else if line.has("Suite ", at: textStart) {
            if line.find(" started.", from: textStart) == nil && line.find(" passed after ", from: textStart) == nil
                && line.find(" failed after ", from: textStart) == nil && line.find(" skipped", from: textStart) == nil {
                miss(line)
            }
        }
        if glyph.value == 0x21B3, let key = lastIssueKey, var test = running[key], let last = test.failures.last {
            // `↳ Whales fail.`: the issue's comment (`Issue.record("Whales fail.")`, `#expect(…, "comment")`).
            test.failures[test.failures.count - 1] = TestFailure(message: last.message + "\n" + line.string(from: textStart), location: last.location)
            running[key] = test
            return
        }
        if !line.has("Test ", at: textStart) { lastIssueKey = nil }
        // Details (↳), argument lines (`Passing 1 argument …`), version lines: context, not events.
    }

    private mutating func swiftTestingTest(_ line: ByteLine, from start: Int) {
        if line.has("run started", at: start) { return }
        if line.has("run with ", at: start) {
            if line.find(" failed after ", from: start) != nil {
                summarySaysFailed = "Swift Testing's summary says the run failed"
            } else if line.find(" passed after ", from: start) != nil {
                swiftTestingRunPassed = true
            }
            return
        }
        lastIssueKey = nil
        if line.has("case passing ", at: start) { return }
        // The name: a quoted display name, or a function signature up to the first space.
        var nameEnd: Int
        let name: String
        if line.has("\"", at: start) {
            var index = start + 1
            var close: Int?
            while let quote = line.find(byte: UInt8(ascii: "\""), from: index) {
                if quote + 1 == line.count || line[quote + 1] == 32 { close = quote; break }
                index = quote + 1
            }
            guard let close else { return miss(line) }
            name = line.string(from: start + 1, to: close)
            nameEnd = close + 1
            // `--verbose`: `Test "Display name" (aka 'function()') passed …`.
            if line.has(" (aka '", at: nameEnd), let end = line.find("')", from: nameEnd + 7) {
                nameEnd = end + 2
            }
        } else {
            guard let space = line.find(byte: 32, from: start) else { return miss(line) }
            name = line.string(start..<space)
            nameEnd = space
        }
        var index = nameEnd + 1
        // `with 2 test cases` (parameterized) or `with 1 test case` before the verb.
        if line.has("with ", at: index), let after = line.find(" test case", from: index) {
            index = after + 10
            if line.has("s", at: index) { index += 1 }
            index += 1
        }
        if line.has("started", at: index) {
            startSwiftTestingTest(name)
        } else if line.has("passed after ", at: index) {
            let duration = line.number(at: index + 13)?.value ?? 0
            let known = line.find(" known issue", from: index) != nil
            finishSwiftTestingTest(name, status: known ? .expectedFailure : .passed, duration: duration)
        } else if line.has("failed after ", at: index) {
            finishSwiftTestingTest(name, status: .failed, duration: line.number(at: index + 13)?.value ?? 0)
        } else if line.has("skipped", at: index) {
            var reason: String?
            if line.has(": \"", at: index + 7), let close = line.find(byte: UInt8(ascii: "\""), from: index + 10) {
                reason = line.string(from: index + 10, to: close)
            }
            // A skipped test never started.
            startSwiftTestingTest(name)
            finishSwiftTestingTest(name, status: .skipped, duration: 0, skipReason: reason ?? "")
        } else if line.has("recorded an issue", at: index) {
            if line.has(" with ", at: index + 17) {
                let text = Array(UnsafeBufferPointer(rebasing: line.bytes[(index + 17)...]))
                if Self.insideQuotes(text) {
                    pendingIssue = (name, text, 0)
                    return
                }
            }
            let failure = Self.swiftTestingIssue(line, from: index + 17)
            let key = swiftTestingKey(for: name, issueFile: failure.location?.file) ?? startSwiftTestingTest(name)
            addFailure(key: key, failure)
            lastIssueKey = key
        } else if line.has("recorded a known issue", at: index) {
            if let key = swiftTestingKey(for: name, issueFile: nil) { running[key]?.knownIssues += 1 }
        } else if line.has("recorded ", at: index) {
            return  // warnings, attachments
        } else {
            miss(line)
        }
    }

    /// Whether `text` ends inside a string literal: an odd number of unescaped double quotes.
    static func insideQuotes(_ text: [UInt8]) -> Bool {
        var open = false, escaped = false
        for byte in text {
            if escaped { escaped = false; continue }
            if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { open.toggle() }
        }
        return open
    }

    /// Records the issue whose argument value spanned lines, with the place its last line gives.
    private mutating func finishPendingIssue() {
        guard let pending = pendingIssue else { return }
        pendingIssue = nil
        let failure = pending.text.withUnsafeBufferPointer { Self.swiftTestingIssue(ByteLine(bytes: $0), from: 0) }
        let key = swiftTestingKey(for: pending.name, issueFile: failure.location?.file) ?? startSwiftTestingTest(pending.name)
        addFailure(key: key, failure)
        lastIssueKey = key
    }

    /// Starts one run of a Swift Testing test; same-named tests of other suites run beside it as tests of their own.
    @discardableResult
    private mutating func startSwiftTestingTest(_ name: String) -> String {
        let key = "\u{1}\(startCounter + 1)\u{1}\(name)"
        begin(suite: "", name: name, key: key)
        swiftTestingRunning[name, default: []].append(key)
        return key
    }

    /// The running test an event of `name` belongs to. With several running under one name: the one
    /// whose earlier issues were in the same file, else one with no issue yet, else the oldest.
    private func swiftTestingKey(for name: String, issueFile: String?) -> String? {
        guard let keys = swiftTestingRunning[name], !keys.isEmpty else { return nil }
        if keys.count == 1 { return keys[0] }
        if let issueFile, let same = keys.first(where: { running[$0]?.failures.first?.location?.file == issueFile }) { return same }
        return keys.first { running[$0]?.failures.isEmpty == true } ?? keys[0]
    }

    /// Ends one run of a Swift Testing test: a failing end takes a run that recorded issues, a passing
    /// end one that recorded none, so a failure is never shown on a same-named test that passed.
    private mutating func finishSwiftTestingTest(_ name: String, status: TestStatus, duration: Double, skipReason: String? = nil) {
        var keys = swiftTestingRunning[name] ?? []
        if keys.isEmpty { keys = [startSwiftTestingTest(name)] }
        let wantsFailures = status == .failed
        let position = keys.firstIndex { (running[$0]?.failures.isEmpty == false) == wantsFailures } ?? 0
        let key = keys.remove(at: position)
        swiftTestingRunning[name] = keys.isEmpty ? nil : keys
        if let skipReason { earlySkipReasons[key] = skipReason }
        finish(key: key, suite: "", name: name, status: status, duration: duration)
    }

    /// After "recorded an issue": ` with 1 argument value → 2 at File.swift:19:9: message` or ` at File.swift:1:2: message` or `: message`.
    private static func swiftTestingIssue(_ line: ByteLine, from start: Int) -> TestFailure {
        var argumentNote = ""
        var index = start
        if line.has(" with ", at: index) {
            // The place follows the argument values, which may hold " at " themselves: the first
            // " at " followed by file:line:column, with no quote of a value in it, is the one.
            var search = index
            while let at = line.find(" at ", from: search) {
                if let colon = line.find(": ", from: at + 4), line.find(byte: UInt8(ascii: "\""), from: at + 4).map({ $0 > colon }) ?? true,
                   Self.location(line, start: at + 4, end: colon) != nil {
                    argumentNote = " (" + line.string(from: index + 6, to: at) + ")"
                    index = at
                    break
                }
                search = at + 1
            }
        }
        if line.has(" at ", at: index) {
            let locationStart = index + 4
            // file:line:column: message — the message starts after the third colon-space run.
            if let messageStart = line.find(": ", from: locationStart),
               let location = Self.location(line, start: locationStart, end: messageStart) {
                return TestFailure(message: line.string(from: messageStart + 2) + argumentNote, location: location)
            }
        }
        if line.has(": ", at: index) { return TestFailure(message: line.string(from: index + 2) + argumentNote, location: nil) }
        return TestFailure(message: line.string(from: index) + argumentNote, location: nil)
    }

    // MARK: - Bookkeeping

    private mutating func begin(suite: String, name: String, key: String) {
        startCounter += 1
        let early = earlyFailures.isEmpty ? [] : (earlyFailures.removeValue(forKey: key) ?? [])
        running[key] = RunningTest(suite: suite, name: name, order: startCounter, failures: early, startedAt: clock)
        lastFatalError = nil
    }

    private mutating func addFailure(key: String, _ failure: TestFailure) {
        if running[key] != nil {
            if running[key]!.failures.count < Self.failureLimit { running[key]!.failures.append(failure) }
        } else {
            earlyFailures[key, default: []].append(failure)
        }
    }

    private mutating func finish(key: String, suite: String, name: String, status: TestStatus, duration: Double,
                                 extraFailure: TestFailure? = nil) {
        let test = running.removeValue(forKey: key)
        var failures = test?.failures ?? []
        if !earlyFailures.isEmpty, let early = earlyFailures.removeValue(forKey: key) { failures += early }
        if let extraFailure { failures.append(extraFailure) }
        if status == .failed && failures.isEmpty, let assertion = test?.assertion { failures.append(assertion) }
        if status == .failed && failures.isEmpty, let fatal = lastFatalError {
            failures.append(TestFailure(message: fatal, location: nil))
        }
        if status == .failed && failures.isEmpty {
            failures.append(TestFailure(message: "failed (the output gives no message)", location: nil))
        }
        let reason = earlySkipReasons.isEmpty ? nil : earlySkipReasons.removeValue(forKey: key)
        let known = test.flatMap { $0.name.isEmpty ? nil : $0 }
        record(UITestResult(suite: known?.suite ?? suite, name: known?.name ?? name, status: status, duration: duration,
                            failures: status == .skipped ? [] : failures, phase: status == .failed ? .test : nil,
                            skipReason: status == .skipped ? reason : nil),
               asRetry: (test?.iteration ?? 1) > 1)
    }

    /// Adds a result. Only a run the tool marks as a repetition or retry (xcodebuild's
    /// `(Iteration N of M)`, N > 1, or its restart line) is merged into the earlier run of the test:
    /// attempts add up, failures are kept, and the latest run decides the status — so a test that
    /// failed and then passed shows as passed with its failures: flaky. Any other repeat of a name is
    /// a test of its own.
    private mutating func record(_ result: UITestResult, asRetry: Bool = false) {
        if asRetry, let index = resultIndex[result.testIdentifier] {
            results[index] = results[index].merged(withRetry: result, failureLimit: Self.failureLimit)
            return
        }
        resultIndex[result.testIdentifier] = results.count
        results.append(result)
    }

    /// The key of a running or finished test, matching `Class.test` against `Module.Class.test` too.
    private func resolve(suite: String, name: String) -> String? {
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

extension String {
    /// `Class/test` (xcodebuild's restart and summary lines) as `Class.test`.
    fileprivate func replacingSlash() -> String {
        String(map { $0 == "/" ? "." : $0 })
    }
}
