import PrePushCore
import PrePushYAML

/// The escapers of each output language, checked on any text for what they promise (the
/// `escapersSelector` input): Markdown that makes no structure, a YAML scalar that reads back as
/// itself through the project's libyaml reader, HTML with no markup of its own, and a link check
/// that never passes an address a browser would run under another scheme.
extension FuzzTarget {
    /// The first byte that sends the input through the escapers.
    static let escapersSelector: UInt8 = 0xF2

    /// Every escaper on the input as text.
    static func escapers(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        markdown(text)
        yaml(text)
        html(text)
        link(text)
    }

    /// Whether `scalar` starts a line for some reader (LF, CR, VT, FF, NEL, U+2028, U+2029).
    static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
        [0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029].contains(scalar.value)
    }

    /// A control character other than tab (C0, DEL, C1).
    static func isRawControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (scalar.value >= 0x7F && scalar.value <= 0x9F)
    }

    /// Text, code span, fenced block and link: no structure of their own.
    static func markdown(_ text: String) {
        let escaped = MarkdownText.text(text)
        precondition(!escaped.unicodeScalars.contains { breaksLine($0) || isRawControl($0) || $0 == "<" }, "Markdown text breaks a line or holds <: \(escaped.debugDescription)")
        // Every `|`, backtick and bracket is escaped: a backslash count before it is odd.
        var backslashes = 0
        for scalar in escaped.unicodeScalars {
            if "|`[]".unicodeScalars.contains(scalar) { precondition(backslashes % 2 == 1, "unescaped \(scalar) in \(escaped.debugDescription)") }
            backslashes = scalar == "\\" ? backslashes + 1 : 0
        }
        if let first = escaped.unicodeScalars.first { precondition(!"#>-+*=~_ \t".unicodeScalars.contains(first), "Markdown text starts a block: \(escaped.debugDescription)") }

        let code = MarkdownText.code(text, inTable: true)
        let fence = code.unicodeScalars.prefix { $0 == "`" }.count
        let inside = String(String.UnicodeScalarView(code.unicodeScalars.dropFirst(fence).dropLast(fence)))
        precondition(fence > 0 && code.unicodeScalars.suffix(fence).allSatisfy { $0 == "`" }, "a code span without its fences: \(code.debugDescription)")
        precondition(MarkdownText.longestRun(of: "`", in: inside) < fence, "a code span's text closes it: \(code.debugDescription)")
        precondition(!code.unicodeScalars.contains { breaksLine($0) || isRawControl($0) }, "a code span breaks a line: \(code.debugDescription)")

        let block = MarkdownText.fencedBlock(text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        let length = block[0].count
        for line in block.dropFirst().dropLast() {
            precondition(!line.unicodeScalars.contains { breaksLine($0) || isRawControl($0) }, "a fenced line breaks: \(line.debugDescription)")
            precondition(MarkdownText.longestRun(of: "~", in: line) < length, "a fenced line closes the fence: \(line.debugDescription)")
        }
        let link = MarkdownText.link(text, to: "https://example.com/" + text)
        precondition(!link.unicodeScalars.contains { breaksLine($0) || $0 == "<" }, "a link breaks a line: \(link.debugDescription)")
    }

    /// A quoted scalar in a configuration reads back as `text`, the document keeping its shape.
    static func yaml(_ text: String) {
        let scalar = YAMLText.scalar(text)
        let document = "stages:\n  unit:\n    run: " + scalar + "\n    timeout: 30\n"
        let node: YAMLNode?
        do { node = try YAMLLoader.load(document, file: "fuzz.yml") } catch { preconditionFailure("a quoted scalar does not parse: \(scalar.debugDescription): \(error)") }
        guard case .mapping(let top)? = node?.content, top.count == 1, case .mapping(let stages) = top[0].value.content, stages.count == 1,
              case .mapping(let fields) = stages[0].value.content, fields.count == 2 else {
            preconditionFailure("a quoted scalar changed the document's shape: \(scalar.debugDescription)")
        }
        precondition(fields[0].value.scalar == text && !fields[0].value.isNull, "a scalar reads back as another: \(scalar.debugDescription)")
        let line = YAMLText.line(text)
        precondition(!line.unicodeScalars.contains { breaksLine($0) || isRawControl($0) }, "a YAML line breaks: \(line.debugDescription)")
    }

    /// No raw `<`, `>`, `"`, and every `&` a reference the escaper wrote.
    static func html(_ text: String) {
        let escaped = MarkupText.escape(text)
        let scalars = Array(escaped.unicodeScalars)
        precondition(!scalars.contains { $0 == "<" || $0 == ">" || $0 == "\"" }, "HTML text holds markup: \(escaped.debugDescription)")
        // Compared scalar by scalar: a combining mark after `;` makes one Character of them.
        let references = ["&amp;", "&lt;", "&gt;", "&quot;", "&#10;", "&#13;", "&#9;"].map { Array($0.unicodeScalars) }
        for (index, scalar) in scalars.enumerated() where scalar == "&" {
            let rest = scalars[index...]
            precondition(references.contains { rest.starts(with: $0) }, "a raw & in HTML: \(escaped.debugDescription)")
        }
    }

    /// An independent reading of the scheme, as a browser would see the address after an HTML
    /// or Markdown reader decoded it: tabs and line breaks removed, what leads trimmed, `&colon;`
    /// and `&#58;` decoded.
    static func link(_ text: String) {
        guard LinkTarget.isAllowed(text) else { return }
        var cleaned = String(String.UnicodeScalarView(text.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" }
            .drop { $0.value <= 0x20 })).lowercased()
        for entity in ["&colon;", "&#58;", "&#x3a;", "&#0058;", "&#x003a;"] { cleaned = cleaned.replacing(entity, with: ":") }
        let scalars = cleaned.unicodeScalars
        let head = scalars.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let colon = head.firstIndex(of: ":") {
            let scheme = String(String.UnicodeScalarView(head[..<colon]))
            precondition(scheme == "http" || scheme == "https", "a link with scheme \(scheme) passed: \(text.debugDescription)")
        }
        precondition(!scalars.starts(with: "//".unicodeScalars), "a protocol-relative link passed: \(text.debugDescription)")
    }
}
