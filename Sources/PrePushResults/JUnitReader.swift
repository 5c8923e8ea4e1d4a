import PrePushCore

/// Reads JUnit XML from other tools (xcbeautify, fastlane, `swift test --xunit-output`, prepush
/// itself) into `UITestResult`s. Test cases repeated with a `repetition` property (fastlane's
/// retries) become one result with its attempts counted.
public enum JUnitReader {
    /// Parses JUnit XML; malformed XML is an error with its line and column.
    public static func parse(_ bytes: [UInt8], file: String) throws(XMLError) -> TestRun {
        let parsed: Result<TestRun, XMLError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(XMLError) in try parse(buffer: buffer, file: file) }
        }
        return try parsed.get()
    }

    /// Parses JUnit XML held in `buffer`, which stays valid for the call. `passed` is told every
    /// megabyte up to where the scan will never read again, so the caller can give that memory back.
    static func parse(buffer bytes: UnsafeBufferPointer<UInt8>, file: String, passed: ((Int) -> Void)? = nil) throws(XMLError) -> TestRun {
        var cases = CaseCollector()
        // Sized once from a count of `<testcase`: growing by doubling would hold the old and the new
        // storage at once, half again the results' memory at the peak.
        cases.results.reserveCapacity(Self.count(of: Array("<testcase".utf8), in: bytes))
        var scanner = XMLScanner(buffer: bytes, file: file, passed: passed)
        while let event = try scanner.next() {
            switch event {
            case .start(let name, let attributes, let selfClosing):
                switch name {
                case "testsuite":
                    if !selfClosing { cases.openSuite(attributes) }
                case "testcase":
                    cases.openCase(attributes)
                    if selfClosing { cases.finishCase() }
                case "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError", "system-out":
                    cases.openCapture(name, attributes)
                    if selfClosing { cases.closeCapture() }
                case "property":
                    if let key = attributes["name"], let value = attributes["value"] { cases.current?.properties[key] = value }
                default:
                    break
                }
            case .text(let text):
                cases.capture?.text += text
            case .end(let name):
                switch name {
                case "testsuite": cases.closeSuite()
                case "testcase": cases.finishCase()
                case "failure", "error", "skipped", "flakyFailure", "flakyError", "rerunFailure", "rerunError", "system-out":
                    cases.closeCapture()
                default: break
                }
            }
        }
        return TestRun(results: cases.results, runFailures: cases.runFailures)
    }

    /// The test cases of one JUnit document as the scan meets them.
    private struct CaseCollector {
        var results: [UITestResult] = []
        var current: Case?
        var capture: Capture?
        var runFailures: [String] = []
        // One string per suite name, shared by its tests, rather than one per test.
        private var suiteNames: Set<String> = []
        private var indexByKey: [String: Int] = [:]
        // The repetitions read of each merged test, by its index in `results`.
        private var repetitions: [Int: Set<String>] = [:]
        private var suiteStack: [String] = []
        // The failures and errors each open suite claims, and how many failing cases had been read
        // when it opened: a suite that claims more than it shows says the run failed where no test does.
        private var claims: [(claimed: Int, failingBefore: Int)] = []
        private var failingCases = 0

        struct Case {
            var suite: String, name: String, time: Double
            var status: TestStatus = .passed
            var failures: [TestFailure] = []
            var skipReason: String?
            var properties: [String: String] = [:]
            var screenshot: String?
            var flakyFailures: [TestFailure] = []
        }
        enum CaptureKind { case failure, error, flaky, skipped, systemOut }
        struct Capture { var kind: CaptureKind; var message: String?; var type: String?; var text = "" }

        mutating func openSuite(_ attributes: XMLAttributes) {
            suiteStack.append(attributes["name"] ?? "")
            let claimed = (Int(attributes["failures"] ?? "") ?? 0) + (Int(attributes["errors"] ?? "") ?? 0)
            claims.append((claimed, failingCases))
        }

        mutating func closeSuite() {
            let name = suiteStack.popLast() ?? ""
            guard let claim = claims.popLast(), claim.claimed > failingCases - claim.failingBefore, runFailures.isEmpty else { return }
            // SwiftPM's Swift Testing xunit counts an issue no test carries (a task that outlived its test) this way.
            let shown = failingCases - claim.failingBefore
            let counted = "\(claim.claimed) failure\(claim.claimed == 1 ? "" : "s") or error\(claim.claimed == 1 ? "" : "s")"
            runFailures.append("the JUnit suite '\(name)' counts \(counted), but \(shown == 0 ? "no test case fails" : "only \(shown) test case\(shown == 1 ? "" : "s") fail")")
        }

        mutating func openCase(_ attributes: XMLAttributes) {
            var suite = attributes["classname"] ?? suiteStack.last ?? ""
            if let known = suiteNames.firstIndex(of: suite) { suite = suiteNames[known] } else { suiteNames.insert(suite) }
            current = Case(suite: suite, name: attributes["name"] ?? "", time: Double(attributes["time"].map { $0.replacingComma() } ?? "") ?? 0)
        }

        mutating func openCapture(_ name: String, _ attributes: XMLAttributes) {
            guard current != nil else { return }
            let kind: CaptureKind = switch name {
            case "failure": .failure
            case "error": .error
            case "skipped": .skipped
            case "system-out": .systemOut
            default: .flaky
            }
            capture = Capture(kind: kind, message: attributes["message"], type: attributes["type"])
        }

        mutating func closeCapture() {
            defer { capture = nil }
            guard let capture, current != nil else { return }
            let text = capture.text.trimmedLines()
            switch capture.kind {
            case .failure, .error:
                current!.status = capture.kind == .error && capture.type == "unfinished" ? .unfinished : .failed
                current!.failures.append(JUnitReader.failure(message: capture.message, body: text))
            case .flaky:
                current!.flakyFailures.append(JUnitReader.failure(message: capture.message, body: text))
            case .skipped:
                current!.status = .skipped
                current!.skipReason = capture.message ?? (text.isEmpty ? nil : text)
            case .systemOut:
                // Jenkins' attachment convention, which prepush's own JUnit uses for screenshots.
                if let start = text.firstRange(of: "[[ATTACHMENT|"), let end = text[start.upperBound...].firstRange(of: "]]") {
                    current!.screenshot = String(text[start.upperBound..<end.lowerBound])
                }
            }
        }

        mutating func finishCase() {
            guard let finished = current else { return }
            current = nil
            if finished.status == .failed || finished.status == .unfinished { failingCases += 1 }
            var failures = finished.flakyFailures + finished.failures
            if finished.status == .failed && failures.isEmpty { failures = [TestFailure(message: "failed", location: nil)] }
            let result = UITestResult(suite: finished.suite, name: finished.name, status: finished.status, duration: finished.time,
                                      failures: failures, phase: finished.status == .failed ? .test : nil,
                                      attempts: 1 + finished.flakyFailures.count, skipReason: finished.skipReason,
                                      screenshotPath: finished.screenshot)
            // Only fastlane-style retries (a `repetition` property) are merged into one test.
            guard let repetition = finished.properties["repetition"] else {
                results.append(result)
                return
            }
            // A retry has a repetition of its own (`Retry 1`, `Retry 2`); two cases with the same one are
            // two tests whose names came out the same (trainer writes `f(\t)` and `f( )` that way).
            let key = "\(finished.suite)\u{1}\(finished.name)\u{1}\(finished.properties["argument"] ?? "")"
            guard let existing = indexByKey[key], !repetitions[existing, default: []].contains(repetition) else {
                indexByKey[key] = results.count
                repetitions[results.count] = [repetition]
                results.append(result)
                return
            }
            repetitions[existing, default: []].insert(repetition)
            results[existing] = results[existing].merged(withRetry: result)
        }
    }

    /// How many times `needle` occurs in `haystack`.
    static func count(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>) -> Int {
        guard let first = needle.first, haystack.count >= needle.count else { return 0 }
        var found = 0
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) {
                found += 1
                index += needle.count
            } else {
                index += 1
            }
        }
        return found
    }

    /// A failure from `message` and the element's text. Both are kept when they differ (the body often
    /// holds the real reason, the attribute a summary); `File.swift:12 - msg`, `File.swift:12: msg`,
    /// `File.swift:12 msg`, `msg (File.swift:12)` or Xcode's `file://…#…StartingLineNumber=11` give the location.
    static func failure(message: String?, body: String) -> TestFailure {
        let attribute = message.map(TextFormatting.trimmed) ?? ""
        let fromAttribute = attribute.isEmpty ? nil : FailureText.split(attribute)
        // A body that is only a place (`LoginUITests.swift:7`) gives the place and no words.
        let bodyPlace = body.isEmpty || body.contains("\n") ? nil : FailureText.parseLocation(body)
        let fromBody = body.isEmpty ? nil : bodyPlace.map { TestFailure(message: "", location: $0) } ?? FailureText.split(body)
        let shownAttribute = fromAttribute?.message ?? attribute
        let shownBody = fromBody?.message ?? body
        let text: String
        if shownAttribute.isEmpty || shownBody.contains(shownAttribute) {
            text = shownBody.isEmpty ? shownAttribute : shownBody
        } else if shownBody.isEmpty || shownAttribute.contains(shownBody) {
            text = shownAttribute
        } else {
            text = shownAttribute + "\n" + shownBody
        }
        let location = fromAttribute?.location ?? fromBody?.location
            ?? FailureText.xcodeAnchor(attribute) ?? FailureText.xcodeAnchor(body)
        return TestFailure(message: text.isEmpty ? "failed" : text, location: location)
    }
}

/// Recognises where a failure happened inside its message text, in the forms test tools write.
enum FailureText {
    /// `path:line - message`, `path:line: message`, `path:line:col: message`, or `message (path:line)`.
    /// Works on UTF-8 bytes: it runs once per failure of files with tens of thousands of tests.
    static func split(_ text: String) -> TestFailure? {
        let utf8 = Array(text.utf8)
        let firstLineEnd = utf8.firstIndex(of: 10) ?? utf8.count
        for separator in [[UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: " ")], [UInt8(ascii: ":"), UInt8(ascii: " ")]] {
            guard let at = find(separator, in: utf8, before: firstLineEnd),
                  let location = parseLocation(String(decoding: utf8[..<at], as: UTF8.self)) else { continue }
            return TestFailure(message: String(decoding: utf8[(at + separator.count)...], as: UTF8.self), location: location)
        }
        // `path:44 message`: a line number followed by a space.
        if let colon = utf8[..<firstLineEnd].firstIndex(of: UInt8(ascii: ":")) {
            var end = colon + 1
            while end < firstLineEnd, utf8[end] >= 48, utf8[end] <= 57 { end += 1 }
            if end > colon + 1, end < firstLineEnd, utf8[end] == 32,
               let location = parseLocation(String(decoding: utf8[..<end], as: UTF8.self)) {
                return TestFailure(message: String(decoding: utf8[(end + 1)...], as: UTF8.self), location: location)
            }
        }
        if firstLineEnd > 0, utf8[firstLineEnd - 1] == UInt8(ascii: ")"),
           let open = findLast([UInt8(ascii: " "), UInt8(ascii: "(")], in: utf8, before: firstLineEnd),
           let location = parseLocation(String(decoding: utf8[(open + 2)..<(firstLineEnd - 1)], as: UTF8.self)) {
            return TestFailure(message: String(decoding: utf8[..<open], as: UTF8.self).trimmedLines(), location: location)
        }
        return nil
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], before end: Int) -> Int? {
        guard end >= needle.count else { return nil }
        var index = 0
        while index + needle.count <= end {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func findLast(_ needle: [UInt8], in bytes: [UInt8], before end: Int) -> Int? {
        var index = end - needle.count
        while index >= 0 {
            if bytes[index] == needle[0] && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index -= 1
        }
        return nil
    }

    /// Xcode's document anchor `file:///path/File.swift#CharacterRangeLen=0&EndingLineNumber=35&StartingLineNumber=35`
    /// anywhere in `text`: its line numbers count from 0, so this is line 36.
    static func xcodeAnchor(_ text: String) -> SourceLocation? {
        let utf8 = Array(text.utf8)
        let key = Array("StartingLineNumber=".utf8)
        guard let keyAt = find(key, in: utf8, before: utf8.count) else { return nil }
        var end = keyAt + key.count
        while end < utf8.count, utf8[end] >= 48, utf8[end] <= 57 { end += 1 }
        guard let line = Int(String(decoding: utf8[(keyAt + key.count)..<end], as: UTF8.self)),
              let hash = utf8[..<keyAt].lastIndex(of: UInt8(ascii: "#")) else { return nil }
        var start = hash
        while start > 0, utf8[start - 1] != 32, utf8[start - 1] != 10, utf8[start - 1] != UInt8(ascii: "\"") { start -= 1 }
        var path = String(decoding: utf8[start..<hash], as: UTF8.self)
        if path.hasPrefix("file://") { path.removeFirst(7) }
        guard !path.isEmpty else { return nil }
        return SourceLocation(file: percentDecoded(path), line: line + 1, column: 0)
    }

    /// `%20` and the like as the bytes they stand for; a malformed escape is kept as it is.
    static func percentDecoded(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
               let value = UInt8(String(decoding: bytes[(index + 1)...(index + 2)], as: UTF8.self), radix: 16) {
                out.append(value)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `File.swift:12` or `File.swift:12:5` where the file has an extension.
    static func parseLocation(_ text: String) -> SourceLocation? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 2, let line = Int(parts[parts.count - 1]) else {
            return nil
        }
        if parts.count >= 3, let column = Int(parts[parts.count - 1]), let lineNumber = Int(parts[parts.count - 2]) {
            let file = parts[..<(parts.count - 2)].joined(separator: ":")
            if file.contains("."), !file.contains(" ") || file.hasPrefix("/") { return SourceLocation(file: file, line: lineNumber, column: column) }
        }
        let file = parts[..<(parts.count - 1)].joined(separator: ":")
        guard file.contains("."), !file.isEmpty, !file.hasSuffix(" "), !file.contains(" ") || file.hasPrefix("/") else { return nil }
        return SourceLocation(file: file, line: line, column: 0)
    }
}

extension String {
    /// Without leading and trailing blank lines and spaces.
    func trimmedLines() -> String { TextFormatting.trimmed(self) }

    /// "0,011" as "0.011": xcresulttool writes durations in the machine's locale.
    func replacingComma() -> String {
        guard utf8.contains(UInt8(ascii: ",")) else { return self }
        return String(decoding: utf8.map { $0 == UInt8(ascii: ",") ? UInt8(ascii: ".") : $0 }, as: UTF8.self)
    }
}
