import PrePushCore

// XCTest (macOS and Linux) and xcodebuild lines: test cases, suites, failures, skips, restarts.
extension ConsoleTestParser {
    // MARK: - XCTest and xcodebuild

    /// `Test Case '-[Module.Class test]' passed (0.001 seconds).`, `Test Case 'Class.test' started at …`,
    /// `Test case 'Class.test()' failed on 'Clone 1 of iPhone …' (0.278 seconds)`.
    mutating func testCase(_ line: ByteLine, from start: Int) {
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
            if !xctest.restartedKeys.isEmpty, xctest.restartedKeys.remove(key) != nil { running[key]?.iteration = 2 }
            if let iterationAt = line.find("(Iteration ", from: index), let number = line.count(at: iterationAt + 11) {
                running[key]?.iteration = number.value
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
    mutating func suiteLine(_ line: ByteLine) {
        guard let close = line.find(byte: UInt8(ascii: "'"), from: 12) else { return miss(line) }
        // The run's own suite: its start opens the run, its end and the `Executed` line after it close it.
        let top = (close == 21 && line.has("All tests'", at: 12)) || (close == 26 && line.has("Selected tests'", at: 12))
        if line.has(" failed", at: close + 1) {
            if top {
                let suite = line.string(12..<close)
                summarySaysFailed = "the XCTest summary says the run failed (Test Suite '\(suite)' failed)"
                xctest.closingRun = xctest.openRun != nil
            }
            return
        }
        // `finished at …`: the form of XCTest before Xcode 9 (xcpretty-era logs).
        if line.has(" started", at: close + 1) {
            if top { xctest.openRun = line.string(12..<close); xctest.closingRun = false }
            // xcbeautify leaves suite lines as they were and renders only the tests under them.
            if xcbeautify.suite.isEmpty || xcbeautify.failing == nil { xcbeautify.suite = line.string(12..<close) }
            return
        }
        if line.has(" passed", at: close + 1) || line.has(" finished", at: close + 1) {
            if top { xctest.closingRun = xctest.openRun != nil }
            return
        }
        miss(line)
    }

    /// `/path/File.swift:34: error: -[Module.Class test] : XCTAssertTrue failed - …` (macOS) or
    /// `/path/File.swift:34: error: Class.test : message` (Linux). Compiler errors (with a column,
    /// and no test name) are not test events and pass through.
    mutating func xctestFailure(_ line: ByteLine, errorAt: Int) {
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
            // `path:line:col: error: …` from the compiler: what a failed build shows first; its
            // next line quotes the source.
            if location != nil {
                compilerError(line)
                quotesSource = true
            }
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
    mutating func continueFailure(of key: String) {
        guard running[key] != nil else { return }
        xctest.continued = .failure(key)
        xctest.continuationLines = 0
        xctest.blankLinesInContinuation = 0
    }

    /// `/path/File.swift:14: Class.test : Test skipped - reason` (Linux) or `… -[Module.Class test] : Test skipped - reason`.
    mutating func xctestSkip(_ line: ByteLine, markerAt: Int) {
        guard let colon = line.find(": ", from: 0), colon < markerAt else { return }
        let identifier = line.string(from: colon + 2, to: markerAt)
        guard let (suite, name) = Self.splitXCTestIdentifier(identifier) else { return miss(line) }
        var reason = Substring(line.string(from: markerAt + 15))
        // ` - reason`, `: reason`: the separator is not part of the reason.
        while let first = reason.first, first == " " || first == "-" || first == ":" { reason.removeFirst() }
        let key = "\(suite).\(name)"
        if running[key] != nil || resultIndex[key] == nil {
            earlySkipReasons[key] = String(reason)
            // `XCTSkip("needs a device⏎with a camera")`: the reason goes on until the skipped line.
            xctest.continued = .skip(key)
            xctest.continuationLines = 0
            xctest.blankLinesInContinuation = 0
        }
    }

    /// Lines under `Failing tests:`: `\tClass.test()`, or a target header `\tTarget:` then `\t\tClass.test()`.
    mutating func failingTestsEntry(_ line: ByteLine) {
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
    mutating func restart(_ line: ByteLine) {
        guard let inAt = line.find(" in "), let semicolon = line.find(byte: UInt8(ascii: ";"), from: inAt) else { return }
        var identifier = line.string(from: inAt + 4, to: semicolon)
        if identifier.hasSuffix("()") { identifier.removeLast(2) }
        guard let (suite, name) = Self.splitXCTestIdentifier(identifier.replacingSlash()) else { return }
        let reason = "the test process exited unexpectedly (crash or test timeout)" + (xctest.lastFatalError.map { ": \($0)" } ?? "")
        // Only a test this output showed: a restart line for a test never seen is not evidence
        // enough (xcodebuild's "Failing tests:" summary lists crashed tests it could not show).
        if let key = resolve(suite: suite, name: name), running[key] != nil {
            let parts = Self.split(key: key)
            finish(key: key, suite: parts.suite, name: parts.name, status: .failed, duration: 0, extraFailure: TestFailure(message: reason, location: nil))
            xctest.restartedKeys.insert(key)
        } else if resolve(suite: suite, name: name) == nil {
            // The crash took the test's own lines with it: the restart line is all there is, and it says the test failed.
            record(UITestResult(suite: suite, name: name, status: .failed, duration: 0, failures: [TestFailure(message: reason, location: nil)], phase: .test))
            xctest.restartedKeys.insert("\(suite).\(name)")
        }
        xctest.lastFatalError = nil
    }

    /// A UI test's activity line `t =     4.13s Assertion Failure: FlakyTests.swift:63: XCTAssertTrue failed - …`:
    /// the failure of the test running now, kept for when no `error:` line names it.
    mutating func uiAssertion(_ line: ByteLine, from start: Int) {
        guard let key = running.max(by: { $0.value.order < $1.value.order })?.key else { return }
        var messageStart = start
        var location: SourceLocation?
        if let colon = line.find(": ", from: start), let place = Self.location(line, start: start, end: colon) {
            location = place
            messageStart = colon + 2
        }
        running[key]?.assertion = TestFailure(message: line.string(from: messageStart), location: location)
    }
}

extension String {
    /// `Class/test` (xcodebuild's restart and summary lines) as `Class.test`.
    fileprivate func replacingSlash() -> String {
        String(map { $0 == "/" ? "." : $0 })
    }
}
