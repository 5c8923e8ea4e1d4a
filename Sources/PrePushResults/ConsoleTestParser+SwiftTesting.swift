import PrePushCore

// Swift Testing's console: lines that start with a symbol glyph (`◇`, `✔`, `✘`, `➜`, `↳`, or SF Symbols on macOS).
extension ConsoleTestParser {
    // MARK: - Swift Testing

    /// A line that starts with a symbol glyph: `◇ Test x() started.`, `✘ Test "Name" recorded an issue at F.swift:1:2: …`,
    /// `􁁛  Test x() passed after 0.001 seconds.`, `➜ Test y() skipped: "reason"`, `↳ details`, `± inserted [5]`.
    mutating func swiftTestingLine(_ line: ByteLine) {
        guard let glyph = line.scalar(at: 0) else { return }
        // `⚠︎` is the warning sign and a variation selector (U+FE0E) that asks for its text form.
        var glyphEnd = glyph.length
        if let selector = line.scalar(at: glyphEnd), selector.value == 0xFE0E || selector.value == 0xFE0F { glyphEnd += selector.length }
        let textStart = line.skipBlanks(from: glyphEnd)
        if glyph.value == 0xB1, swiftTesting.lastIssue != nil {
            // `± inserted [5], removed [3]`: the difference of two collections, part of the issue.
            return appendToLastIssue(line.string(from: 0))
        }
        // Symbols are U+2000 and up, but for `×` (U+00D7), Swift Testing's failure symbol on Windows
        // (`◊ √ × ➜` there, Event.Symbol.swift).
        guard glyph.value >= 0x2000 || glyph.value == 0xD7, textStart > glyphEnd else { return }
        if glyph.value == 0x21B3, swiftTesting.lastIssue != nil {
            // `↳ Whales fail.`: the issue's comment (`Issue.record("Whales fail.")`, `#expect(…, "comment")`).
            return appendToLastIssue(line.string(from: textStart))
        }
        swiftTesting.lastIssue = nil
        if line.has("Test ", at: textStart) {
            swiftTestingTest(line, from: textStart + 5)
        } else if line.has("Suite ", at: textStart) {
            if line.find(" failed after ", from: textStart) != nil {
                // A suite failed: a failure of the run even when no test's failure was shown (a
                // log cut to this line).
                summarySaysFailed = summarySaysFailed ?? "Swift Testing's summary says a suite failed"
            } else if line.find(" started.", from: textStart) == nil && line.find(" passed after ", from: textStart) == nil
                && line.find(" skipped", from: textStart) == nil {
                miss(line)
            }
        }
        // Details (↳), argument lines (`Passing 1 argument …`), iterations, version lines: context, not events.
    }

    /// Adds a line to the issue recorded last: to the test's failure or warning, or to the run's failure.
    mutating func appendToLastIssue(_ text: String) {
        switch swiftTesting.lastIssue {
        case .failure(let key):
            guard let last = running[key]?.failures.last else { return }
            running[key]!.failures[running[key]!.failures.count - 1] = TestFailure(message: last.message + "\n" + text, location: last.location)
        case .warning(let key):
            guard let last = running[key]?.warnings.last else { return }
            running[key]!.warnings[running[key]!.warnings.count - 1] = TestFailure(message: last.message + "\n" + text, location: last.location)
        case .run:
            guard let last = runFailures.last else { return }
            runFailures[runFailures.count - 1] = last + "\n" + text
        case nil:
            return
        }
    }

    /// `Test run with 3 tests in 2 suites passed after 0.002 seconds.` or `… failed after …`: the runner's verdict.
    /// `start` is at `run with `. Only Swift Testing's own line (`countsTests`; not xcbeautify's
    /// rendering of it, whose tests are not counted as ended) says how many the console lost.
    mutating func runSummary(_ line: ByteLine, from start: Int, countsTests: Bool) {
        runnerSummaries += 1
        swiftTesting.runOpen = false
        if countsTests, let count = line.count(at: start + 9) { swiftTesting.closingCount = count.value }
        if line.find(" failed after ", from: start) != nil {
            summarySaysFailed = "Swift Testing's summary says the run failed"
        } else if line.find(" passed after ", from: start) != nil {
            swiftTesting.runPassed = true
        }
    }

    mutating func swiftTestingTest(_ line: ByteLine, from start: Int) {
        if line.has("run started", at: start) { swiftTesting.runOpen = true; return }
        if line.has("run with ", at: start) { return runSummary(line, from: start, countsTests: true) }
        if line.has("case passing ", at: start) { return }
        guard let (name, nameEnd) = Self.swiftTestingName(line, from: start) else { return miss(line) }
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
        } else if line.has("was cancelled after ", at: index) {
            // `Test.cancel("reason")` (Swift Testing 6.3): neither passed nor failed, a skip with its reason.
            var reason = "cancelled"
            if let colon = line.find(": \"", from: index + 20), line[line.count - 1] == UInt8(ascii: "\"") {
                reason += ": " + line.string(from: colon + 3, to: line.count - 1)
            }
            finishSwiftTestingTest(name, status: .skipped, duration: line.number(at: index + 20)?.value ?? 0, skipReason: reason)
        } else if line.has("recorded an issue", at: index) {
            swiftTestingIssueLine(line, name: name, from: index + 17)
        } else if line.has("recorded a warning", at: index) {
            // `Issue.record(…, severity: .warning)` (6.3): in the report, never in the verdict.
            let warning = Self.swiftTestingIssue(line, from: index + 18)
            guard let key = swiftTestingKey(for: name, issueFile: warning.location?.file),
                  running[key]!.warnings.count < Self.failureLimit else { return }
            running[key]!.warnings.append(warning)
            swiftTesting.lastIssue = .warning(key)
        } else if line.has("recorded a known issue", at: index) {
            if let key = swiftTestingKey(for: name, issueFile: nil) { running[key]?.knownIssues += 1 }
        } else if line.has("recorded ", at: index) {
            return  // attachments, values
        } else {
            miss(line)
        }
    }

    /// The test's name after `Test `: a quoted display name (with `--verbose`'s ` (aka 'f()')`), or
    /// a function signature up to the first space; and the index after it.
    static func swiftTestingName(_ line: ByteLine, from start: Int) -> (name: String, end: Int)? {
        guard line.has("\"", at: start) else {
            guard let space = line.find(byte: 32, from: start) else { return nil }
            return (line.string(start..<space), space)
        }
        var index = start + 1
        var close: Int?
        while let quote = line.find(byte: UInt8(ascii: "\""), from: index) {
            if quote + 1 == line.count || line[quote + 1] == 32 { close = quote; break }
            index = quote + 1
        }
        guard let close else { return nil }
        var end = close + 1
        if line.has(" (aka '", at: end), let aka = line.find("')", from: end + 7) { end = aka + 2 }
        return (line.string(from: start + 1, to: close), end)
    }

    /// `✘ Test x() recorded an issue …`, from after "recorded an issue". An issue of `«unknown»`
    /// (recorded by a task that outlived its test) belongs to no test: the run failed.
    mutating func swiftTestingIssueLine(_ line: ByteLine, name: String, from index: Int) {
        if line.has(" with ", at: index) {
            let text = Array(UnsafeBufferPointer(rebasing: line.bytes[index...]))
            if Self.insideQuotes(text) {
                swiftTesting.pendingIssue = (name, text, 0)
                return
            }
        }
        let failure = Self.swiftTestingIssue(line, from: index)
        if name == "«unknown»" {
            let place = failure.location.map { " at \($0.file):\($0.line):\($0.column)" } ?? ""
            runFailures.append("an issue was recorded outside any test\(place): \(failure.message)")
            swiftTesting.lastIssue = .run
            return
        }
        let key = swiftTestingKey(for: name, issueFile: failure.location?.file) ?? startSwiftTestingTest(name)
        addFailure(key: key, failure)
        swiftTesting.lastIssue = .failure(key)
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
    mutating func finishPendingIssue() {
        guard let pending = swiftTesting.pendingIssue else { return }
        swiftTesting.pendingIssue = nil
        let failure = pending.text.withUnsafeBufferPointer { Self.swiftTestingIssue(ByteLine(bytes: $0), from: 0) }
        let key = swiftTestingKey(for: pending.name, issueFile: failure.location?.file) ?? startSwiftTestingTest(pending.name)
        addFailure(key: key, failure)
        swiftTesting.lastIssue = .failure(key)
    }

    /// Starts one run of a Swift Testing test; same-named tests of other suites run beside it as tests of their own.
    @discardableResult
    mutating func startSwiftTestingTest(_ name: String) -> String {
        let key = "\u{1}\(startCounter + 1)\u{1}\(name)"
        begin(suite: "", name: name, key: key)
        swiftTesting.running[name, default: []].append(key)
        return key
    }

    /// The running test an event of `name` belongs to. With several running under one name: the one
    /// whose earlier issues were in the same file, else one with no issue yet, else the oldest.
    func swiftTestingKey(for name: String, issueFile: String?) -> String? {
        guard let keys = swiftTesting.running[name], !keys.isEmpty else { return nil }
        if keys.count == 1 { return keys[0] }
        if let issueFile, let same = keys.first(where: { running[$0]?.failures.first?.location?.file == issueFile }) { return same }
        return keys.first { running[$0]?.failures.isEmpty == true } ?? keys[0]
    }

    /// Ends one run of a Swift Testing test: a failing end takes a run that recorded issues, a passing
    /// end one that recorded none, so a failure is never shown on a same-named test that passed.
    mutating func finishSwiftTestingTest(_ name: String, status: TestStatus, duration: Double, skipReason: String? = nil) {
        var keys = swiftTesting.running[name] ?? []
        if keys.isEmpty { keys = [startSwiftTestingTest(name)] }
        let wantsFailures = status == .failed
        let position = keys.firstIndex { (running[$0]?.failures.isEmpty == false) == wantsFailures } ?? 0
        let key = keys.remove(at: position)
        swiftTesting.running[name] = keys.isEmpty ? nil : keys
        swiftTesting.ended += 1
        if let skipReason { earlySkipReasons[key] = skipReason }
        finish(key: key, suite: "", name: name, status: status, duration: duration)
    }

    /// After "recorded an issue": ` with 1 argument value → 2 at File.swift:19:9: message` or ` at File.swift:1:2: message` or `: message`.
    static func swiftTestingIssue(_ line: ByteLine, from start: Int) -> TestFailure {
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
}
