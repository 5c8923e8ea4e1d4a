#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Reads the two property-list forms Xcode writes as text: the OpenStep form of `project.pbxproj`
/// and the JSON of `.xctestplan`, into the `[String: Any]` / `[Any]` / `String` trees the readers
/// walk (JSON's numbers, booleans and nulls as `Double`, `Bool` and `Optional<Any>.none`).
///
/// Why not Foundation's `PropertyListSerialization` and `JSONSerialization`: on Linux they live in
/// swift-corelibs-foundation, and linking either pulls in all of it, CoreFoundation's start-up and
/// ICU's 34 MB of data, into every binary, the hook's included (issue 55). Byte-level, bounded in
/// depth (a pull request's project file is untrusted input).
package enum PropertyListReader {
    /// Deepest nesting read: real project files nest 4 levels, test plans 5.
    package static let maximumDepth = 200

    /// Why a file could not be read, with the line it stopped on.
    package struct ReadError: Error, Sendable, Equatable, CustomStringConvertible {
        package let line: Int
        package let reason: String
        package var description: String { "line \(line): \(reason)" }
    }

    /// The tree of an OpenStep property list (`project.pbxproj`).
    package static func openStep(_ bytes: [UInt8]) throws(ReadError) -> Any {
        var scanner = OpenStepScanner(bytes: bytes)
        let value = try scanner.value(depth: 0)
        scanner.skipSpaceAndComments()
        guard scanner.offset == bytes.count else { throw scanner.error("expected the end of the file after the top-level value") }
        return value
    }

    /// The tree of a JSON document (`.xctestplan`), through FoundationEssentials' `JSONDecoder`.
    package static func json(_ bytes: [UInt8]) throws(ReadError) -> Any {
        do {
            return try JSONDecoder().decode(JSONTree.self, from: Data(bytes)).value
        } catch {
            throw ReadError(line: 0, reason: "not JSON (\(error))")
        }
    }

    /// Any JSON value, decoded into the `Any` tree.
    private struct JSONTree: Decodable {
        let value: Any

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { value = Optional<Any>.none as Any }
            else if let bool = try? container.decode(Bool.self) { value = bool }
            else if let number = try? container.decode(Double.self) { value = number }
            else if let string = try? container.decode(String.self) { value = string }
            else if let array = try? container.decode([JSONTree].self) { value = array.map(\.value) }
            else { value = try container.decode([String: JSONTree].self).mapValues(\.value) }
        }
    }
}

/// One pass over an OpenStep property list's bytes.
private struct OpenStepScanner {
    let bytes: [UInt8]
    var offset = 0
    var line = 1

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> PropertyListReader.ReadError { PropertyListReader.ReadError(line: line, reason: reason) }

    /// Skips white space, `/* … */` and `// …` comments, counting lines.
    mutating func skipSpaceAndComments() {
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte == 10 { line += 1; offset += 1 }
            else if byte == 32 || byte == 9 || byte == 13 { offset += 1 }
            else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "*") {
                offset += 2
                while offset < bytes.count, !(bytes[offset] == UInt8(ascii: "*") && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "/")) {
                    if bytes[offset] == 10 { line += 1 }
                    offset += 1
                }
                offset = min(offset + 2, bytes.count)
            } else if byte == UInt8(ascii: "/"), offset + 1 < bytes.count, bytes[offset + 1] == UInt8(ascii: "/") {
                while offset < bytes.count, bytes[offset] != 10 { offset += 1 }
            } else {
                return
            }
        }
    }

    mutating func value(depth: Int) throws(PropertyListReader.ReadError) -> Any {
        guard depth < PropertyListReader.maximumDepth else { throw error("nested deeper than \(PropertyListReader.maximumDepth) levels") }
        skipSpaceAndComments()
        guard offset < bytes.count else { throw error("expected a value, found the end of the file") }
        switch bytes[offset] {
        case UInt8(ascii: "{"): return try dictionary(depth: depth)
        case UInt8(ascii: "("): return try array(depth: depth)
        case UInt8(ascii: "<"): return try data()
        default: return try string()
        }
    }

    private mutating func expect(_ character: Character) throws(PropertyListReader.ReadError) {
        skipSpaceAndComments()
        guard offset < bytes.count, bytes[offset] == character.asciiValue! else {
            throw error("expected \"\(character)\"" + (offset < bytes.count ? ", found \"\(Character(Unicode.Scalar(bytes[offset])))\"" : ", found the end of the file"))
        }
        offset += 1
    }

    private mutating func dictionary(depth: Int) throws(PropertyListReader.ReadError) -> [String: Any] {
        offset += 1
        var result: [String: Any] = [:]
        while true {
            skipSpaceAndComments()
            guard offset < bytes.count else { throw error("expected \"}\", found the end of the file") }
            if bytes[offset] == UInt8(ascii: "}") { offset += 1; return result }
            let key = try string()
            try expect("=")
            result[key] = try value(depth: depth + 1)
            try expect(";")
        }
    }

    private mutating func array(depth: Int) throws(PropertyListReader.ReadError) -> [Any] {
        offset += 1
        var result: [Any] = []
        while true {
            skipSpaceAndComments()
            guard offset < bytes.count else { throw error("expected \")\", found the end of the file") }
            if bytes[offset] == UInt8(ascii: ")") { offset += 1; return result }
            result.append(try value(depth: depth + 1))
            skipSpaceAndComments()
            guard offset < bytes.count else { throw error("expected \")\", found the end of the file") }
            if bytes[offset] == UInt8(ascii: ",") { offset += 1 } else if bytes[offset] != UInt8(ascii: ")") {
                throw error("expected \",\" or \")\" in a list")
            }
        }
    }

    /// `<0fbd 77…>`: kept as its hex text; nothing prepush reads is data.
    private mutating func data() throws(PropertyListReader.ReadError) -> String {
        let start = offset
        while offset < bytes.count, bytes[offset] != UInt8(ascii: ">") {
            if bytes[offset] == 10 { line += 1 }
            offset += 1
        }
        guard offset < bytes.count else { throw error("expected \">\" closing data, found the end of the file") }
        offset += 1
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// A quoted string with its escapes, or an unquoted word (`PBXProject`, `Sources/App.swift`, `1`).
    private mutating func string() throws(PropertyListReader.ReadError) -> String {
        guard offset < bytes.count else { throw error("expected a string, found the end of the file") }
        if bytes[offset] == UInt8(ascii: "\"") { return try quoted() }
        let start = offset
        while offset < bytes.count, Self.isWordByte(bytes[offset]) { offset += 1 }
        guard offset > start else { throw error("expected a string, found \"\(Character(Unicode.Scalar(bytes[offset])))\"") }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    /// What an unquoted OpenStep string may hold (as CoreFoundation's reader allows).
    static func isWordByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): return true
        case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "-"): return true
        default: return byte >= 0x80
        }
    }

    private mutating func quoted() throws(PropertyListReader.ReadError) -> String {
        offset += 1
        var result: [UInt8] = []
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            switch byte {
            case UInt8(ascii: "\""): return String(decoding: result, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard offset < bytes.count else { throw error("a string ends in the middle of an escape") }
                try escape(into: &result)
            default:
                if byte == 10 { line += 1 }
                result.append(byte)
            }
        }
        throw error("a quoted string is not closed")
    }

    /// `\n`, `\t`, `\"`, `\\`, `\U` and four hex digits, `\` and up to three octal digits.
    private mutating func escape(into result: inout [UInt8]) throws(PropertyListReader.ReadError) {
        let byte = bytes[offset]
        offset += 1
        switch byte {
        case UInt8(ascii: "n"): result.append(10)
        case UInt8(ascii: "t"): result.append(9)
        case UInt8(ascii: "r"): result.append(13)
        case UInt8(ascii: "a"): result.append(7)
        case UInt8(ascii: "b"): result.append(8)
        case UInt8(ascii: "f"): result.append(12)
        case UInt8(ascii: "v"): result.append(11)
        case UInt8(ascii: "U"):
            var scalar: UInt32 = 0
            for _ in 0..<4 {
                guard offset < bytes.count, let digit = Self.hexValue(bytes[offset]) else { throw error("expected four hex digits after \\U") }
                scalar = scalar * 16 + UInt32(digit)
                offset += 1
            }
            result.append(contentsOf: String(Character(Unicode.Scalar(scalar) ?? "\u{FFFD}")).utf8)
        case UInt8(ascii: "0")...UInt8(ascii: "7"):
            var value = UInt32(byte - UInt8(ascii: "0"))
            for _ in 0..<2 where offset < bytes.count && (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[offset]) {
                value = value * 8 + UInt32(bytes[offset] - UInt8(ascii: "0"))
                offset += 1
            }
            result.append(UInt8(truncatingIfNeeded: value))
        default:
            if byte == 10 { line += 1 }
            result.append(byte)
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
