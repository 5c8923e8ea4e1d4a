/// GitHub Actions workflow commands (`::error file=…,line=…::message`), written by one function so that
/// no value from a repository — a file name, an identifier, a test's message — can end the command
/// early and start one of its own (`::add-mask::`, `::stop-commands::`) at the start of a line.
public enum WorkflowCommand {
    /// `::<name> key=value,…::message` with every property value and the message escaped as GitHub
    /// documents: `%`, CR and LF everywhere, and `:` and `,` in property values.
    public static func line(_ name: String, properties: [(key: String, value: String)], message: String) -> String {
        let rendered = properties.map { "\($0.key)=\(escapeProperty($0.value))" }.joined(separator: ",")
        return "::\(name)\(rendered.isEmpty ? "" : " " + rendered)::\(escapeData(message))"
    }

    /// `text` on one line: CR, LF and other control characters shown as `\n`, `\r`, `\u{1b}`, so a
    /// value printed at the start of a line (a file name in `path:line:col: error: …`) can never
    /// begin a line of its own, which CI systems would read as a command.
    public static func singleLine(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `text` as a line GitHub's runner reads as text, never as a command: its runner takes a line
    /// whose first non-blank characters are `::` as a workflow command (it trims any Unicode
    /// white space, U+00A0 included, first) and `##[name]` anywhere in a line as the older form,
    /// and it starts a line at CR as well as LF. A zero-width space goes between the two `:` and the
    /// two `#`, which reads the same to a person; every control character but LF and tab (CR, VT,
    /// FF, ESC, NEL and the rest of C0 and C1) and the separators U+2028 and U+2029 are shown
    /// escaped (`\r`, `\u{1b}`), so none can start a line or rewrite the screen. For every line
    /// prepush prints that holds text from the repository or its tests (names, messages, paths,
    /// descriptions) under `GITHUB_ACTIONS`.
    public static func neutralised(_ text: String) -> String {
        guard needsNeutralising(text) else { return text }
        var out = String.UnicodeScalarView()
        var atLineStart = true
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                atLineStart = true
            } else if let shown = escaped(scalar) {
                // A separator a runner or terminal may honour starts a line all the same.
                if isLineSeparator(scalar) { atLineStart = true }
                out.append(contentsOf: shown.unicodeScalars)
                index += 1
                continue
            } else if atLineStart && scalar.properties.isWhitespace {
                // still before the line's first character
            } else if atLineStart {
                atLineStart = false
                if scalar == ":", index + 1 < scalars.count, scalars[index + 1] == ":" {
                    out.append(":"); out.append("\u{200B}")
                    index += 1
                    continue
                }
            }
            if scalar == "#", index + 2 < scalars.count, scalars[index + 1] == "#", scalars[index + 2] == "[" {
                out.append("#"); out.append("\u{200B}")
                index += 1
                continue
            }
            out.append(scalar)
            index += 1
        }
        return String(out)
    }

    /// `text` with every control character but LF and tab, and U+2028 and U+2029, shown escaped
    /// (`\r`, `\u{1b}`): for a line a person reads on a terminal, where an ESC sequence or a CR
    /// in a test's name or message could rewrite what the screen shows.
    public static func escapedControls(_ text: String) -> String {
        guard hasControls(text) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if let shown = escaped(scalar) { out.append(contentsOf: shown.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// How a scalar that must not reach a log raw is shown, or nil for one that may.
    static func escaped(_ scalar: Unicode.Scalar) -> String? {
        let value = scalar.value
        guard value < 0x20 || (value >= 0x7F && value <= 0x9F) || value == 0x2028 || value == 0x2029 else { return nil }
        switch scalar {
        case "\n", "\t": return nil
        case "\r": return "\\r"
        default: return "\\u{\(String(value, radix: 16))}"
        }
    }

    /// CR, VT, FF, NEL, U+2028 and U+2029: where a runner or a terminal may start a line.
    static func isLineSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0D, 0x0B, 0x0C, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// Whether `text` holds a control character, U+2028 or U+2029 (read on its UTF-8 bytes: most lines hold none).
    static func hasControls(_ text: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for byte in text.utf8 {
            if (byte < 0x20 && byte != 10 && byte != 9) || byte == 0x7F { return true }
            if previous == 0xC2 && byte >= 0x80 && byte <= 0x9F { return true }
            if beforePrevious == 0xE2 && previous == 0x80 && (byte == 0xA8 || byte == 0xA9) { return true }
            beforePrevious = previous
            previous = byte
        }
        return false
    }

    /// Whether `neutralised` has anything to change in `text`.
    static func needsNeutralising(_ text: String) -> Bool {
        text.contains("::") || text.contains("##[") || hasControls(text)
    }

    /// The message part: `%` → `%25`, CR → `%0D`, LF → `%0A` (as GitHub documents), and every
    /// other control character, U+2028 and U+2029 shown as `\u{85}`: a separator some reader may
    /// honour (NEL, VT, FF) never reaches the log raw.
    public static func escapeData(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default:
                if scalar != "\t", let shown = escaped(scalar) { out += shown } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    /// A property value: what `escapeData` escapes, and `:` → `%3A`, `,` → `%2C`.
    public static func escapeProperty(_ text: String) -> String {
        var out = ""
        for scalar in escapeData(text).unicodeScalars {
            switch scalar {
            case ":": out += "%3A"
            case ",": out += "%2C"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
