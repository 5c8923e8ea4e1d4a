/// Text for the YAML prepush writes (`prepush init`'s `.prepush.yml`), written by these functions
/// only, so that no text from a repository — a folder's, scheme's or target's name, a team
/// command — can end its line and start a key of its own (a `lint:` stage that `prepush run`
/// would execute). libyaml starts a line at LF, CR, CRLF, NEL, U+2028 and U+2029.
public enum YAMLText {
    /// `value` as a scalar that reads back as exactly `value`, after `key: ` in block context: plain
    /// when it is printable ASCII that no YAML reader takes for anything but a string (no `: `, no
    /// ` #`, no indicator first, not `true`, `null`, `~`, a number…), else double-quoted with every
    /// `"` and `\`, every control character, NEL, U+2028, U+2029 and U+FEFF escaped.
    public static func scalar(_ value: String) -> String {
        isPlainSafe(value) ? value : doubleQuoted(value)
    }

    /// `value` double-quoted, escaped as YAML 1.1 and 1.2 both read it (libyaml's escapes).
    public static func doubleQuoted(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{85}": out += "\\N"
            case "\u{2028}": out += "\\L"
            case "\u{2029}": out += "\\P"
            default:
                let code = scalar.value
                if code < 0x20 || (code >= 0x7F && code <= 0x9F) {
                    out += "\\x" + hex(code, digits: 2)
                } else if code == 0xFEFF || code == 0xFFFE || code == 0xFFFF {
                    out += "\\u" + hex(code, digits: 4)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    /// `text` on one line, for a comment or any line prepush writes: every line break (a run of them
    /// into one ` ⏎ `) folded, and every other character YAML does not allow in a stream or a
    /// reader could honour (C0 but tab, DEL, C1, U+FEFF, U+FFFE, U+FFFF) shown as `\u{1b}`. A
    /// line of prepush's own, with none of these, is kept as it is.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsShowing) else { return text }
        var out = ""
        var previousWasBreak = false
        for scalar in text.unicodeScalars {
            if MarkdownText.isLineBreak(scalar) {
                if !previousWasBreak { out += MarkdownText.foldedBreak }
                previousWasBreak = true
                continue
            }
            previousWasBreak = false
            if needsShowing(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Words YAML 1.1 (libyaml's readers, Ruby's, PyYAML) or 1.2 resolve to a boolean or null.
    static let specialWords: Set<String> = ["true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", "+.inf", ".nan"]

    /// Whether `value` reads back as itself written plain after `key: `.
    static func isPlainSafe(_ value: String) -> Bool {
        guard let first = value.unicodeScalars.first, let last = value.unicodeScalars.last else { return false }
        for scalar in value.unicodeScalars where scalar.value < 0x20 || scalar.value > 0x7E { return false }
        if "-?:,[]{}#&*!|>'\"%@` ".unicodeScalars.contains(first) || last == " " || last == ":" { return false }
        if value.contains(": ") || value.contains(" #") || value.contains("\t") { return false }
        if specialWords.contains(value.lowercased()) { return false }
        // Anything that could be a number (1, 0x1F, .5, +3, 1_000, 1e3, 12:30 in YAML 1.1) is quoted.
        let digitsStart = value.drop { $0 == "+" || $0 == "-" || $0 == "." }
        if let lead = digitsStart.first, lead.isASCII, lead.isNumber { return false }
        return true
    }

    /// Whether `line(_:)` changes `scalar`.
    static func needsShowing(_ scalar: Unicode.Scalar) -> Bool {
        let code = scalar.value
        return (code < 0x20 && code != 0x09) || (code >= 0x7F && code <= 0x9F) || code == 0x2028 || code == 0x2029
            || code == 0xFEFF || code == 0xFFFE || code == 0xFFFF
    }

    /// `value` in upper-case hexadecimal, zero-padded to `digits`.
    static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
