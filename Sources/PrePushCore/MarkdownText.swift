/// Text for Markdown documents (results.md, traceability.md, the step summary, a pull-request
/// comment), written by these functions only, so that no text from a repository or its tests — a
/// test's name, a failure message, a catalog's description, a path — can become structure: it never
/// starts a line (so no heading, list item, table row, fence or HTML block), never opens an HTML
/// comment or tag, never ends a table cell, code span or fence early, and never makes a link.
///
/// GitHub's renderer (cmark-gfm) starts a line at LF, CR and CRLF; some readers also at VT, FF,
/// NEL, U+2028 and U+2029. All of them are folded here into ` ⏎ `.
public enum MarkdownText {
    /// What a run of line breaks becomes in one-line text.
    public static let foldedBreak = " ⏎ "

    /// `text` for a paragraph, a list item, a heading or a table cell: line breaks folded (a run of
    /// them into one ` ⏎ `, none at either end), other control characters shown as `\u{1b}`, `<`
    /// as `&lt;` (no HTML comment, tag or autolink), and `\`, `|`, `` ` ``, `[` and `]` escaped with
    /// a backslash (no cell ends, no code span, link or image starts). The result holds no line
    /// break and no `<`. Emphasis characters are left as they are: they style, they build nothing.
    public static func text(_ text: String) -> String {
        guard needsEscaping(text) else { return inertStart(text) }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for piece in lines(text) {
            if !out.isEmpty { out += foldedBreak }
            for scalar in piece {
                switch scalar {
                case "<": out += "&lt;"
                case "\\", "|", "`", "[", "]": out += "\\"; out.unicodeScalars.append(scalar)
                default: appendShown(scalar, to: &out)
                }
            }
        }
        return inertStart(out)
    }

    /// `escaped` with nothing at its start that opens a block where it is the first text of a
    /// list item or a line (`- # …` is a heading inside the item): leading blanks dropped (four
    /// would make indented code), and `#`, `>`, `-`, `+`, `*`, `=`, `~`, `_` or an ordered list's
    /// `1.`/`1)` escaped with a backslash.
    static func inertStart(_ escaped: String) -> String {
        let trimmed = escaped.drop { $0 == " " || $0 == "\t" }
        guard let first = trimmed.unicodeScalars.first else { return String(trimmed) }
        if "#>-+*=~_".unicodeScalars.contains(first) { return "\\" + trimmed }
        let digits = trimmed.unicodeScalars.prefix { $0.value >= 0x30 && $0.value <= 0x39 }
        if !digits.isEmpty, digits.count < 10 {
            let rest = trimmed.unicodeScalars.dropFirst(digits.count)
            if let marker = rest.first, marker == "." || marker == ")" {
                return String(String.UnicodeScalarView(digits)) + "\\" + String(String.UnicodeScalarView(rest))
            }
        }
        return String(trimmed)
    }

    /// `text` as an inline code span: line breaks folded as in `text`, the span's fence one backtick
    /// longer than the longest run inside (so the text cannot close it), padded with a space when
    /// the text starts or ends with a backtick or a space. Inside a GFM table (`inTable`) `|` is
    /// written `\|`, which the table reads before the span (cmark-gfm takes a `|` after a backslash
    /// as the cell's); `<` needs nothing, a code span shows it as it is.
    public static func code(_ text: String, inTable: Bool = false) -> String {
        var body = ""
        for piece in lines(text) {
            if !body.isEmpty { body += foldedBreak }
            for scalar in piece {
                if scalar == "|" && inTable { body += "\\|" } else { appendShown(scalar, to: &body) }
            }
        }
        let fence = String(repeating: "`", count: longestRun(of: "`", in: body) + 1)
        let padded = body.first == "`" || body.last == "`" || body.first == " " || body.last == " " || body.isEmpty
        return padded ? "\(fence) \(body) \(fence)" : "\(fence)\(body)\(fence)"
    }

    /// A link `[text](url)` when `url` is one `LinkTarget` allows, else `text` alone. The address is
    /// written so the link cannot end early or decode into another: characters outside a URL's
    /// own set percent-encoded, `(`, `)` and `&` (an entity) escaped with a backslash.
    public static func link(_ label: String, to url: String) -> String {
        guard LinkTarget.isAllowed(url) else { return text(label) }
        return "[\(text(label))](\(destination(url)))"
    }

    /// The lines of a fenced block (a red build's log tail): each given line split at every line
    /// break (CR and the rest as well as LF, which cmark-gfm would read as a line's end), control
    /// characters but tab shown as `\u{1b}`, between `~` fences longer than any run of `~` in the
    /// lines, so no line can close the block. The block's lines are shown as they were, not rewritten.
    public static func fencedBlock(_ given: [String]) -> [String] {
        var body: [String] = []
        for line in given {
            for piece in lines(line, keepEmpty: true) {
                var shown = ""
                for scalar in piece { appendShown(scalar, to: &shown) }
                body.append(shown)
            }
        }
        let longest = body.map { longestRun(of: "~", in: $0) }.max() ?? 0
        let fence = String(repeating: "~", count: max(4, longest + 1))
        return [fence] + body + [fence]
    }

    /// Whether `scalar` starts a line for some reader: LF, CR, VT, FF, NEL, U+2028, U+2029.
    public static func isLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// `text` cut at every line break (CRLF as one); empty pieces dropped unless `keepEmpty`.
    static func lines(_ text: String, keepEmpty: Bool = false) -> [Substring.UnicodeScalarView] {
        let scalars = text.unicodeScalars
        var pieces: [Substring.UnicodeScalarView] = []
        var start = scalars.startIndex
        var index = start
        while index < scalars.endIndex {
            let scalar = scalars[index]
            guard isLineBreak(scalar) else { scalars.formIndex(after: &index); continue }
            if keepEmpty || start < index { pieces.append(scalars[start..<index]) }
            scalars.formIndex(after: &index)
            if scalar == "\r", index < scalars.endIndex, scalars[index] == "\n" { scalars.formIndex(after: &index) }
            start = index
        }
        if start < scalars.endIndex || (keepEmpty && pieces.isEmpty) { pieces.append(scalars[start...]) }
        return pieces
    }

    /// Appends `scalar`, or `\u{…}` for a control character other than tab (C0, DEL, C1).
    static func appendShown(_ scalar: Unicode.Scalar, to out: inout String) {
        let value = scalar.value
        if (value < 0x20 && value != 0x09) || (value >= 0x7F && value <= 0x9F) {
            out += "\\u{" + String(value, radix: 16) + "}"
        } else {
            out.unicodeScalars.append(scalar)
        }
    }

    /// The longest run of `character` in `text`.
    package static func longestRun(of character: Unicode.Scalar, in text: String) -> Int {
        var longest = 0, current = 0
        for scalar in text.unicodeScalars {
            current = scalar == character ? current + 1 : 0
            longest = max(longest, current)
        }
        return longest
    }

    /// A link's address: RFC 3986's characters kept, `(`, `)` and `&` backslash-escaped, the rest
    /// (spaces, `<`, `>`, `|`, backticks, brackets, anything not ASCII) percent-encoded.
    static func destination(_ url: String) -> String {
        var out = ""
        for byte in url.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where "-._~:/?#@!$'*+,;=%".utf8.contains(byte):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "&"):
                out += "\\"; out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Whether `text` holds anything `text(_:)` changes (read on its UTF-8 bytes: most names hold nothing).
    static func needsEscaping(_ text: String) -> Bool {
        for byte in text.utf8 {
            switch byte {
            case 0..<0x20, 0x7F, UInt8(ascii: "<"), UInt8(ascii: "\\"), UInt8(ascii: "|"), UInt8(ascii: "`"), UInt8(ascii: "["), UInt8(ascii: "]"):
                return true
            // Lead bytes of NEL and the rest of C1 (0xC2) and of U+2028/U+2029 (0xE2): looked at scalar by scalar.
            case 0xC2, 0xE2:
                return true
            default:
                continue
            }
        }
        return false
    }
}
