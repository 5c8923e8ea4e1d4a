/// Reads the JSON `ImpactMap.exported()` writes straight into an `ImpactMap`, on bytes.
///
/// A push reads the map before its stage starts, so its time is the hook's: `JSONDecoder` took about
/// 70 ms of CPU for a 700-test map (72,000 test–function pairs; docs/benchmarks.md), over the 50 ms
/// the whole choice may cost. Any JSON this does not expect (another shape, a number that is not an
/// integer where one is wanted) gives nil, and the caller decodes with `JSONDecoder`, which says why.
package struct ImpactMapReader {
    private let bytes: [UInt8]
    private var index = 0
    /// The keys read so far (a map repeats a dozen keys tens of thousands of times): each made a
    /// String once. The last function's file, for the same reason (a file's functions come together).
    private var keys: [(bytes: ArraySlice<UInt8>, key: String)] = []
    private var lastFile: (bytes: ArraySlice<UInt8>, file: String)?

    /// The map in `bytes`, nil when they are not an impact map in the expected shape.
    package static func read(_ bytes: [UInt8]) -> ImpactMap? {
        var reader = ImpactMapReader(bytes: bytes)
        guard let map = reader.map() else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? map : nil
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private mutating func map() -> ImpactMap? {
        var version: Int?, stage: String?, packageFolder: String?, commit: String?, toolchain: String?
        var recorded: Double?, seconds: Double?, functions: [ImpactMap.Function]?, tests: [ImpactMap.Test]?
        let read = object { reader, key in
            switch key {
            case "version": version = reader.integer(); return version != nil
            case "stage": stage = reader.string(); return stage != nil
            case "packageFolder": packageFolder = reader.string(); return packageFolder != nil
            case "commit": commit = reader.string(); return commit != nil
            case "toolchain": toolchain = reader.string(); return toolchain != nil
            case "recorded": recorded = reader.number(); return recorded != nil
            case "seconds": seconds = reader.number(); return seconds != nil
            case "functions": functions = reader.array { $0.function() }; return functions != nil
            case "tests": tests = reader.array { $0.test() }; return tests != nil
            default: return reader.skipValue()
            }
        }
        guard read, let version, let stage, let packageFolder, let commit, let toolchain, let recorded, let seconds,
              let functions, let tests else { return nil }
        var map = ImpactMap(stage: stage, packageFolder: packageFolder, commit: commit, toolchain: toolchain, recorded: recorded,
                            seconds: seconds, functions: functions, tests: tests)
        map.version = version
        return map
    }

    private mutating func function() -> ImpactMap.Function? {
        var file: String?, name: String?, start: Int?, end: Int?
        let read = object { reader, key in
            switch key {
            case "file": file = reader.repeatedFile(); return file != nil
            case "name": name = reader.string(); return name != nil
            case "startLine": start = reader.integer(); return start != nil
            case "endLine": end = reader.integer(); return end != nil
            default: return reader.skipValue()
            }
        }
        guard read, let file, let name, let start, let end else { return nil }
        return ImpactMap.Function(file: file, name: name, startLine: start, endLine: end)
    }

    private mutating func test() -> ImpactMap.Test? {
        var identifier: String?, listed: String?, file: String?, functions: [Int]?, unknown: String?
        let read = object { reader, key in
            switch key {
            case "identifier": identifier = reader.string(); return identifier != nil
            case "listed": return reader.optionalString(&listed)
            case "file": return reader.optionalString(&file)
            case "unknown": return reader.optionalString(&unknown)
            case "functions": functions = reader.array { $0.integer() }; return functions != nil
            default: return reader.skipValue()
            }
        }
        guard read, let identifier, let functions else { return nil }
        return ImpactMap.Test(identifier: identifier, listed: listed, file: file, functions: functions, unknown: unknown)
    }

    // MARK: - JSON on bytes

    private mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 { index += 1 }
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    /// `{ "key": value, … }`, each value read by `member`, which returns false on a problem.
    private mutating func object(_ member: (inout ImpactMapReader, String) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            guard let key = key(), take(UInt8(ascii: ":")), member(&self, key) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    /// An object's key: one seen before is not made again.
    private mutating func key() -> String? {
        let start = index
        skipSpace()
        if let plain = plainString() {
            if let known = keys.first(where: { $0.bytes.elementsEqual(plain) }) { return known.key }
            let key = String(decoding: plain, as: UTF8.self)
            if keys.count < 32 { keys.append((plain, key)) }
            return key
        }
        index = start
        return string()
    }

    /// A function's file: the last one's when the bytes are the same.
    private mutating func repeatedFile() -> String? {
        let start = index
        skipSpace()
        if let plain = plainString() {
            if let last = lastFile, last.bytes.elementsEqual(plain) { return last.file }
            let file = String(decoding: plain, as: UTF8.self)
            lastFile = (plain, file)
            return file
        }
        index = start
        return string()
    }

    /// The bytes of a string without escapes (moving past it), or nil (not moving) for any other value.
    private mutating func plainString() -> ArraySlice<UInt8>? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "\"") else { return nil }
        defer { index = end + 1 }
        return bytes[(index + 1)..<end]
    }

    private mutating func array<Element>(_ element: (inout ImpactMapReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard let next = element(&self) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }

    /// A string or `null` into `value`.
    private mutating func optionalString(_ value: inout String?) -> Bool {
        if literal("null") { value = nil; return true }
        value = string()
        return value != nil
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        // The common case, no escape: one copy of the bytes.
        while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") { index += 1 }
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var scalars = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte == UInt8(ascii: "\"") { return String(decoding: scalars, as: UTF8.self) }
            guard byte == UInt8(ascii: "\\") else { scalars.append(byte); continue }
            guard index < bytes.count else { return nil }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escaped)
            case UInt8(ascii: "b"): scalars.append(0x08)
            case UInt8(ascii: "f"): scalars.append(0x0C)
            case UInt8(ascii: "n"): scalars.append(0x0A)
            case UInt8(ascii: "r"): scalars.append(0x0D)
            case UInt8(ascii: "t"): scalars.append(0x09)
            case UInt8(ascii: "u"):
                guard var code = hex4() else { return nil }
                if (0xD800...0xDBFF).contains(code) {
                    guard literal("\\u"), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { return nil }
                scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: return nil
            }
        }
        return nil
    }

    private mutating func hex4() -> UInt32? {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<(index + 4)], as: UTF8.self), radix: 16) else { return nil }
        index += 4
        return value
    }

    /// The bytes of a JSON number.
    private mutating func numberText() -> ArraySlice<UInt8>? {
        skipSpace()
        let start = index
        while index < bytes.count, (bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9"))
                || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[index]) {
            index += 1
        }
        return index > start ? bytes[start..<index] : nil
    }

    private mutating func integer() -> Int? {
        skipSpace()
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { negative = true; index += 1 }
        var value = 0, digits = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9"), digits < 18 {
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        // A fraction, an exponent or more digits than an Int surely holds: not this reader's case.
        guard digits > 0, index >= bytes.count || !(bytes[index] >= UInt8(ascii: "0") && bytes[index] <= UInt8(ascii: "9"))
                && bytes[index] != UInt8(ascii: ".") && bytes[index] != UInt8(ascii: "e") && bytes[index] != UInt8(ascii: "E") else { return nil }
        return negative ? -value : value
    }

    private mutating func number() -> Double? {
        numberText().flatMap { Double(String(decoding: $0, as: UTF8.self)) }
    }

    /// Skips any value of a key this reader does not use.
    private mutating func skipValue() -> Bool {
        skipSpace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"): return object { reader, _ in reader.skipValue() }
        case UInt8(ascii: "["):
            return array { reader -> Bool? in reader.skipValue() ? true : nil } != nil
        case UInt8(ascii: "t"): return literal("true")
        case UInt8(ascii: "f"): return literal("false")
        case UInt8(ascii: "n"): return literal("null")
        default: return numberText() != nil
        }
    }
}
