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
    /// white space, U+00A0 included, first) and `##[name]` anywhere in a line as the older form.
    /// A zero-width space goes between the two `:` and the two `#`, which reads the same to a
    /// person; a raw ESC is shown as `\u{1b}`. For every line prepush prints that holds text from
    /// the repository or its tests (names, messages, paths, descriptions) under `GITHUB_ACTIONS`.
    public static func neutralised(_ text: String) -> String {
        guard text.contains("::") || text.contains("##[") || text.unicodeScalars.contains("\u{1B}") else { return text }
        var out = String.UnicodeScalarView()
        var atLineStart = true
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\n" {
                atLineStart = true
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
            if scalar == "\u{1B}" {
                out.append(contentsOf: "\\u{1b}".unicodeScalars)
            } else {
                out.append(scalar)
            }
            index += 1
        }
        return String(out)
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
