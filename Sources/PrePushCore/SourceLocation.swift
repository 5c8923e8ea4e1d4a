/// A place in a text file. Line and column are 1-based; the column counts Unicode scalars.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The file as the user named it (relative paths stay relative).
    public let file: String
    /// 1-based line number.
    public let line: Int
    /// 1-based column, in Unicode scalars.
    public let column: Int

    /// Creates a location; `line` and `column` are 1-based.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form compilers and editors understand.
    public var description: String { "\(file):\(line):\(column)" }
}

/// Severity of a diagnostic or finding.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

/// A message about a place in a file, printed the way compilers print them:
/// `path:line:col: error: message`, then the source line and a caret under the column.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Where the problem is.
    public let location: SourceLocation
    /// How bad it is.
    public let severity: Severity
    /// What was wrong and what was expected.
    public let message: String
    /// The text of the line at `location.line`, without its line break, when it is known.
    public let sourceLine: String?

    /// Creates a diagnostic; pass the source line to get the caret excerpt.
    public init(location: SourceLocation, severity: Severity = .error, message: String, sourceLine: String?) {
        self.location = location
        self.severity = severity
        self.message = message
        self.sourceLine = sourceLine
    }

    /// Creates a diagnostic, taking the line from the whole text of the file.
    public init(location: SourceLocation, severity: Severity = .error, message: String, sourceText: String) {
        self.init(location: location, severity: severity, message: message,
                  sourceLine: Self.line(location.line, of: sourceText))
    }

    public var description: String {
        var text = "\(location): \(severity.rawValue): \(message)"
        if let sourceLine {
            let (shown, column) = Self.window(of: sourceLine, around: location.column)
            text += "\n" + shown + "\n" + Self.caret(under: column, in: shown)
        }
        return text
    }

    /// Most characters of an input line (or of a value taken from input) echoed in a message: a
    /// 200 KB line of brackets, a minified file or a pasted secret must not fill the terminal or the CI log.
    public static let echoLimit = 200

    /// `text` cut to `echoLimit` characters, with "…" where it was cut.
    public static func excerpt(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard scalars.count > echoLimit else { return text }
        return String(String.UnicodeScalarView(scalars.prefix(echoLimit))) + "…"
    }

    /// At most `echoLimit` characters of `line` around the 1-based `column`, with "…" at a cut end,
    /// and the column within what is shown.
    static func window(of line: String, around column: Int) -> (text: String, column: Int) {
        let scalars = Array(line.unicodeScalars)
        guard scalars.count > echoLimit else { return (line, column) }
        let wanted = min(max(column - 1, 0), scalars.count)
        let start = max(0, min(wanted - echoLimit / 2, scalars.count - echoLimit))
        let end = min(scalars.count, start + echoLimit)
        var shown = String.UnicodeScalarView()
        if start > 0 { shown.append("…") }
        shown.append(contentsOf: scalars[start..<end])
        if end < scalars.count { shown.append("…") }
        return (String(shown), wanted - start + 1 + (start > 0 ? 1 : 0))
    }

    /// The 1-based `number`th line of `text` without its line break (LF or CRLF), or nil past the end.
    public static func line(_ number: Int, of text: String) -> String? {
        guard number >= 1 else { return nil }
        let lines = Self.lines(of: text)
        return number <= lines.count ? String(lines[number - 1]) : nil
    }

    /// The lines of `text`, split at LF with a CR before it dropped. Splitting on Unicode scalars,
    /// not Characters: Swift treats "\r\n" as one Character, which a split on "\n" would miss.
    public static func lines(of text: String) -> [Substring.UnicodeScalarView] {
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }

    /// Spaces up to the 1-based `column` and a caret; tabs in the line are kept so the caret lines up.
    static func caret(under column: Int, in line: String) -> String {
        var prefix = ""
        for (index, scalar) in line.unicodeScalars.enumerated() where index < column - 1 {
            prefix.append(scalar == "\t" ? "\t" : " ")
        }
        let missing = max(0, column - 1 - line.unicodeScalars.count)
        return prefix + String(repeating: " ", count: missing) + "^"
    }
}

/// The lines of one text, found once: quoting a line under an error costs that line, not a scan of
/// the whole text (a one-line 189 KB file with 20,000 errors took 98 s and 3.7 GB that way).
public final class LineTable: @unchecked Sendable, Equatable {
    private let bytes: [UInt8]
    /// Byte offsets where each line starts.
    private let starts: [Int]

    /// Indexes `text`.
    public init(_ text: String) {
        bytes = Array(text.utf8)
        var starts = [0]
        for (offset, byte) in bytes.enumerated() where byte == 10 { starts.append(offset + 1) }
        self.starts = starts
    }

    public static func == (lhs: LineTable, rhs: LineTable) -> Bool { lhs === rhs || lhs.bytes == rhs.bytes }

    /// The 1-based `number`th line without its line break (LF or CRLF), or nil past the end.
    public func line(_ number: Int) -> String? {
        guard number >= 1, number <= starts.count else { return nil }
        let start = starts[number - 1]
        var end = number < starts.count ? starts[number] - 1 : bytes.count
        if end > start, bytes[end - 1] == 13 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}

/// prepush's version, printed by `--version` and written into reports that name their tool.
public enum PrePushVersion {
    /// The released version.
    public static let current = "0.1.0"
}
