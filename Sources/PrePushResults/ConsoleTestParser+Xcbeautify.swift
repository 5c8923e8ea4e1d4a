import PrePushCore

// xcbeautify's rendering of xcodebuild and `swift test` output, which teams keep in their pipelines.
extension ConsoleTestParser {
    // MARK: - xcbeautify

    /// `    ✔ testName (0.001 seconds)`, `    ✔ [Suite] testName on 'iPhone 16' (0.001 seconds)`,
    /// `    ⊘ testName (0.000 seconds)`, `    ⊘ name() skipped (reason)`, `    ✖ testName, reason`
    /// (one per failed assertion; xcbeautify drops the place), `    ✖ name() (0.002 seconds) 1 issue(s)`.
    mutating func xcbeautifyTest(_ line: ByteLine, glyph: UInt32, from start: Int) {
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
    mutating func closeXcbeautifyFailure() {
        guard let key = xcbeautifyFailing else { return }
        xcbeautifyFailing = nil
        guard let test = running[key] else { return }
        finish(key: key, suite: test.suite, name: test.name, status: .failed, duration: 0)
    }
}
