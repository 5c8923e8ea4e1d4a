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

    /// The message part: `%` → `%25`, CR → `%0D`, LF → `%0A`.
    public static func escapeData(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(scalar)
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
