/// One event of an XML document.
package enum XMLEvent {
    case start(name: String, attributes: XMLAttributes, selfClosing: Bool)
    case end(name: String)
    case text(String)
}

/// An element's attributes in document order; elements have few, so a linear search beats hashing.
package struct XMLAttributes {
    package var pairs: [(name: String, value: String)] = []

    package subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }
}

/// Why XML could not be read: what was expected, and where (1-based line and column).
public struct XMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Where the problem is.
    public let location: SourceLocation
    /// What was wrong.
    public let problem: String
    /// The line's text.
    public let sourceLine: String?

    public var description: String {
        Diagnostic(location: location, message: "malformed XML: \(problem)", sourceLine: sourceLine).description
    }
}

/// A pull scanner over UTF-8 bytes for the XML that test reports use: elements, attributes,
/// text, CDATA, comments, processing instructions and a DOCTYPE (skipped), the five named
/// entities and numeric character references. No DTD processing, so no entity expansion attacks.
/// It reads a buffer the caller keeps alive for the whole scan (an array's storage, or a mapped file).
package struct XMLScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let file: String
    private var index = 0
    private var openElements: [String] = []
    /// Called every `releaseStep` bytes with an offset before which the scan never reads again
    /// (an error's line and column are counted from there), so the caller can give that memory back.
    private let passed: ((Int) -> Void)?
    /// The start of a line at or before the scan, and its 1-based number: where errors count from.
    private var countedOffset = 0
    private var countedLine = 1
    /// How far lines have been counted: each byte is counted once, also on one endless line
    /// (a minified file, where `countedOffset` never moves; counting again from it each time was
    /// quadratic: 31 s for 1.6 MB).
    private var scannedOffset = 0
    static let releaseStep = 1 << 20

    package init(buffer: UnsafeBufferPointer<UInt8>, file: String, passed: ((Int) -> Void)? = nil) {
        self.bytes = buffer
        self.file = file
        self.passed = passed
        // A UTF-8 byte-order mark is not content.
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    /// The next event, or nil at the end of a well-formed document.
    package mutating func next() throws(XMLError) -> XMLEvent? {
        if let passed, index - scannedOffset >= Self.releaseStep {
            var position = scannedOffset
            while position < index {
                if bytes[position] == 10 { countedLine += 1; countedOffset = position + 1 }
                position += 1
            }
            scannedOffset = index
            passed(countedOffset)
        }
        while index < bytes.count {
            if bytes[index] != UInt8(ascii: "<") {
                let start = index
                while index < bytes.count && bytes[index] != UInt8(ascii: "<") { index += 1 }
                let raw = bytes[start..<index]
                if raw.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }) { continue }
                guard !openElements.isEmpty else { throw error(at: start, "text outside the root element") }
                return .text(try decodeEntities(raw, at: start))
            }
            if has("<!--") {
                guard let end = find("-->", from: index + 4) else { throw error(at: index, "an unterminated comment") }
                index = end + 3
                continue
            }
            if has("<![CDATA[") {
                guard let end = find("]]>", from: index + 9) else { throw error(at: index, "an unterminated CDATA section") }
                let text = String(decoding: bytes[(index + 9)..<end], as: UTF8.self)
                index = end + 3
                return .text(text)
            }
            if has("<?") {
                guard let end = find("?>", from: index + 2) else { throw error(at: index, "an unterminated processing instruction") }
                index = end + 2
                continue
            }
            if has("<!DOCTYPE") || has("<!doctype") {
                // An internal subset (`[ <!ENTITY …> ]`) declares entities; none is expanded here, so say it plainly.
                let close = find(">", from: index + 2)
                if let bracket = find("[", from: index + 2), close.map({ bracket < $0 }) ?? true {
                    throw error(at: bracket, "no internal DTD subset: a test report declares no entities (the DOCTYPE's '[ … ]' is refused)")
                }
            }
            if has("<!") {
                guard let end = find(">", from: index + 2) else { throw error(at: index, "an unterminated declaration") }
                index = end + 1
                continue
            }
            if has("</") {
                let start = index
                index += 2
                let name = readName()
                skipBlanks()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw error(at: index, "'>' to end the closing tag </\(name)>") }
                index += 1
                guard let open = openElements.popLast() else { throw error(at: start, "</\(name)> closes nothing") }
                guard open == name else { throw error(at: start, "</\(open)> to close <\(open)>, found </\(name)>") }
                return .end(name: name)
            }
            return try startTag()
        }
        if let open = openElements.last { throw error(at: bytes.count, "</\(open)> before the end of the file") }
        return nil
    }

    private mutating func startTag() throws(XMLError) -> XMLEvent {
        let start = index
        index += 1
        let name = readName()
        guard !name.isEmpty else { throw error(at: start + 1, "an element name after '<'") }
        var attributes = XMLAttributes()
        var manyNames = Set<String>()
        while true {
            skipBlanks()
            guard index < bytes.count else { throw error(at: index, "'>' to end <\(name)>") }
            if bytes[index] == UInt8(ascii: "/") {
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") else { throw error(at: index, "'/>'") }
                index += 2
                return .start(name: name, attributes: attributes, selfClosing: true)
            }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                openElements.append(name)
                return .start(name: name, attributes: attributes, selfClosing: false)
            }
            let attributeStart = index
            let attribute = readName()
            guard !attribute.isEmpty else { throw error(at: index, "an attribute name or '>' in <\(name)>") }
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw error(at: index, "'=' after the attribute \(attribute)") }
            index += 1
            skipBlanks()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
                throw error(at: index, "a quoted value for the attribute \(attribute)")
            }
            let quote = bytes[index]
            let valueStart = index + 1
            guard let valueEnd = bytes[valueStart...].firstIndex(of: quote) else { throw error(at: attributeStart, "the closing quote of \(attribute)") }
            index = valueEnd + 1
            // A linear search while there are few (every real element); a set past that, so an element
            // with thousands of attributes costs each one once.
            if attributes.pairs.count < 16 {
                guard attributes[attribute] == nil else { throw error(at: attributeStart, "one \(attribute) attribute, found two") }
                if attributes.pairs.count == 15 { manyNames = Set(attributes.pairs.map(\.0) + [attribute]) }
            } else {
                guard manyNames.insert(attribute).inserted else { throw error(at: attributeStart, "one \(attribute) attribute, found two") }
            }
            attributes.pairs.append((attribute, try decodeEntities(bytes[valueStart..<valueEnd], at: valueStart, normalizeWhitespace: true)))
        }
    }

    private mutating func readName() -> String {
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 32 || byte == 9 || byte == 10 || byte == 13 || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "=") { break }
            index += 1
        }
        // The names test reports use come back as shared strings: no allocation per element.
        let length = index - start
        for known in Self.knownNames where known.bytes.count == length {
            var same = true
            for offset in 0..<length where known.bytes[offset] != bytes[start + offset] { same = false; break }
            if same { return known.name }
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    static let knownNames: [(name: String, bytes: [UInt8])] = knownNameList.map { ($0, Array($0.utf8)) }

    static let knownNameList = [
        "testcase", "testsuite", "testsuites", "failure", "error", "skipped", "property", "properties",
        "system-out", "system-err", "name", "classname", "time", "message", "type", "value", "tests",
        "failures", "errors", "file", "line", "timestamp", "hostname", "id", "flakyFailure", "rerunFailure",
    ]

    private mutating func skipBlanks() {
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 { index += 1 }
    }

    private func has(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private func find(_ text: StaticString, from start: Int) -> Int? {
        let count = text.utf8CodeUnitCount
        var position = start
        while position + count <= bytes.count {
            var matches = true
            for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { matches = false; break }
            if matches { return position }
            position += 1
        }
        return nil
    }

    /// Text with `&lt;`-style entities and `&#…;` references decoded; in attribute values, literal
    /// line breaks and tabs become spaces, as XML's attribute normalisation says.
    private func decodeEntities(_ raw: Slice<UnsafeBufferPointer<UInt8>>, at offset: Int, normalizeWhitespace: Bool = false) throws(XMLError) -> String {
        let needsWork = raw.contains { $0 == UInt8(ascii: "&") || (normalizeWhitespace && ($0 == 10 || $0 == 9 || $0 == 13)) }
        guard needsWork else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var position = raw.startIndex
        while position < raw.endIndex {
            let byte = raw[position]
            if byte != UInt8(ascii: "&") {
                out.append(normalizeWhitespace && (byte == 10 || byte == 9 || byte == 13) ? 32 : byte)
                position += 1
                continue
            }
            guard let semicolon = raw[position...].firstIndex(of: UInt8(ascii: ";")), semicolon - position <= 12 else {
                throw error(at: position, "an entity like &amp; after '&'")
            }
            let entity = String(decoding: raw[(position + 1)..<semicolon], as: UTF8.self)
            switch entity {
            case "lt": out.append(UInt8(ascii: "<"))
            case "gt": out.append(UInt8(ascii: ">"))
            case "amp": out.append(UInt8(ascii: "&"))
            case "quot": out.append(UInt8(ascii: "\""))
            case "apos": out.append(UInt8(ascii: "'"))
            default:
                let number: UInt32?
                if entity.hasPrefix("#x") { number = UInt32(entity.dropFirst(2), radix: 16) }
                else if entity.hasPrefix("#") { number = UInt32(entity.dropFirst(1)) }
                else { number = nil }
                guard let number, let scalar = Unicode.Scalar(number) else { throw error(at: position, "a known entity, found &\(entity);") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            position = semicolon + 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func error(at offset: Int, _ expected: String) -> XMLError {
        // Every error is at or after the scan's position when this event began, so after `countedOffset`.
        var line = countedLine, lineStart = countedOffset
        var position = countedOffset
        let end = min(offset, bytes.count)
        while position < end {
            if bytes[position] == 10 { line += 1; lineStart = position + 1 }
            position += 1
        }
        var lineEnd = lineStart
        while lineEnd < bytes.count && bytes[lineEnd] != 10 { lineEnd += 1 }
        let column = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count + 1
        let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self)
        return XMLError(location: SourceLocation(file: file, line: line, column: column),
                        problem: "expected \(expected)", sourceLine: text)
    }
}
