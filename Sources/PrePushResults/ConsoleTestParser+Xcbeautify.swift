import PrePushCore

// xcbeautify's rendering of xcodebuild and `swift test` output, which teams keep in their pipelines.
extension ConsoleTestParser {
    // MARK: - xcbeautify

    /// A line of xcbeautify's that starts with four spaces and a glyph: a test's end (`✔`, `✖`,
    /// `⊘`) or a Swift Testing issue (`⚠️  Test x() recorded an issue at F.swift:1:2: …`). False for
    /// any other glyph, so the line is looked into further.
    mutating func xcbeautifyLine(_ line: ByteLine, glyph: (value: UInt32, length: Int)) -> Bool {
        var after = 4 + glyph.length
        switch glyph.value {
        case 0x2714, 0x2716, 0x2298:
            guard line.has(" ", at: after) else { return false }
            xcbeautifyTest(line, glyph: glyph.value, from: after + 1)
            return true
        case 0x26A0:
            if line.scalar(at: after)?.value == 0xFE0F { after += 3 }
            let textStart = line.skipBlanks(from: after)
            guard line.has("Test ", at: textStart), let (name, end) = Self.swiftTestingName(line, from: textStart + 5),
                  line.has(" recorded an issue", at: end) else { return false }
            // The test's `✖` line comes next and ends it; the issue waits for it under the same key.
            let issue = Self.swiftTestingIssue(line, from: end + 18)
            addFailure(key: "\(xcbeautify.suite).\(name)", issue)
            return true
        default:
            return false
        }
    }

    /// The line without its ANSI escape sequences (`ESC [ … letter`, and any other `ESC x` pair).
    static func withoutEscapes(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var plain: [UInt8] = []
        plain.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 27 else {
                plain.append(byte)
                index += 1
                continue
            }
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "[") {
                // Control sequence: parameters and intermediates (0x20–0x3F), then one final byte (0x40–0x7E).
                index += 1
                while index < bytes.count, bytes[index] >= 0x20, bytes[index] <= 0x3F { index += 1 }
                if index < bytes.count, bytes[index] >= 0x40, bytes[index] <= 0x7E { index += 1 }
            } else if index < bytes.count {
                index += 1
            }
        }
        return plain
    }

    /// The line after fastlane's `[15:47:28]: ` and the `▸ ` fastlane and xcpretty put before xcodebuild's lines.
    static func undecorated(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        var start = 0
        if bytes.count >= 12, bytes[0] == UInt8(ascii: "["), bytes[3] == UInt8(ascii: ":"), bytes[6] == UInt8(ascii: ":"),
           bytes[9] == UInt8(ascii: "]"), bytes[10] == UInt8(ascii: ":"), bytes[11] == 32 {
            start = 12
        }
        if bytes.count >= start + 4, bytes[start] == 0xE2, bytes[start + 1] == 0x96, bytes[start + 2] == 0xB8, bytes[start + 3] == 32 {
            start += 4
        }
        return start == 0 ? bytes : UnsafeBufferPointer(rebasing: bytes[start...])
    }

    /// `    ✔ testName (0.001 seconds)`, `    ✔ [Suite] testName on 'iPhone 16' (0.001 seconds)`,
    /// `    ⊘ testName (0.000 seconds)`, `    ⊘ name() skipped (reason)`, `    ✖ testName, reason`
    /// (one per failed assertion; xcbeautify drops the place), `    ✖ name() (0.002 seconds) 1 issue(s)`.
    mutating func xcbeautifyTest(_ line: ByteLine, glyph: UInt32, from start: Int) {
        // Worked out on the line's bytes: every test of a piped run passes through here.
        var lower = start, upper = line.count
        var suite = xcbeautify.suite
        if line.has("[", at: lower), let close = line.find(byte: UInt8(ascii: "]"), from: lower) {
            suite = line.string(from: lower + 1, to: close)
            lower = line.skipBlanks(from: close + 1)
        }
        // `name (0.001 seconds)`, maybe with ` on 'device'` before it and ` N issue(s)` after it.
        var duration = 0.0
        if let open = line.findLast(" (", after: lower), let seconds = line.find(" seconds)", from: open + 2),
           let value = line.number(at: open + 2), value.end == seconds {
            duration = value.value
            upper = open
            if let device = line.find(" on '", from: lower), device < upper { upper = device }
        } else if glyph == 0x2716, let comma = line.find(byte: UInt8(ascii: ","), from: lower) {
            // `✖ testName, reason`: gathered until another event ends the test.
            let testName = line.string(lower..<comma), reason = line.string(from: line.skipBlanks(from: comma + 1))
            let key = "\(suite).\(testName)"
            if xcbeautify.failing != key {
                closeXcbeautifyFailure()
                begin(suite: suite, name: testName, key: key)
                xcbeautify.failing = key
            }
            addFailure(key: key, TestFailure(message: reason, location: nil))
            return
        }
        closeXcbeautifyFailure()
        var skipReason: String?
        if glyph == 0x2298, let skipped = line.find(" skipped", from: lower), skipped < upper {
            let rest = line.skipBlanks(from: skipped + 8)
            if line.has("(", at: rest), line[upper - 1] == UInt8(ascii: ")") { skipReason = line.string(from: rest + 1, to: upper - 1) }
            upper = skipped
        }
        // A Swift Testing display name is quoted: `✔ "Adds two numbers" (0.001 seconds)`.
        let quoted = upper - lower >= 2 && line[lower] == UInt8(ascii: "\"") && line[upper - 1] == UInt8(ascii: "\"")
        let testName = quoted ? line.string(from: lower + 1, to: upper - 1) : line.string(from: lower, to: upper)
        let spaced = line.find(byte: 32, from: lower).map { $0 < upper } ?? false
        guard !testName.isEmpty, quoted || !spaced || line[upper - 1] == UInt8(ascii: ")") else { return miss(line) }
        let key = "\(suite).\(testName)"
        if glyph == 0x2298 { earlySkipReasons[key] = skipReason ?? "" }
        begin(suite: suite, name: testName, key: key)
        finish(key: key, suite: suite, name: testName,
               status: glyph == 0x2714 ? .passed : glyph == 0x2298 ? .skipped : .failed, duration: duration)
    }

    /// Ends the test whose `✖` lines were being gathered: failed, with every reason.
    mutating func closeXcbeautifyFailure() {
        guard let key = xcbeautify.failing else { return }
        xcbeautify.failing = nil
        guard let test = running[key] else { return }
        finish(key: key, suite: test.suite, name: test.name, status: .failed, duration: 0)
    }
}

extension String {
    /// The text without one pair of double quotes around it.
    func trimmingQuotes() -> String {
        count >= 2 && hasPrefix("\"") && hasSuffix("\"") ? String(dropFirst().dropLast()) : self
    }
}
