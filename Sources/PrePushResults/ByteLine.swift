/// Byte-level helpers over one line of output: no `String` is made until a line is known to matter.
struct ByteLine {
    let bytes: UnsafeBufferPointer<UInt8>

    var count: Int { bytes.count }
    subscript(_ index: Int) -> UInt8 { bytes[index] }

    /// Whether the bytes from `offset` on start with `prefix` (ASCII).
    @inline(__always)
    func has(_ prefix: StaticString, at offset: Int = 0) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard offset >= 0, offset + length <= bytes.count else { return false }
        let start = prefix.utf8Start
        for index in 0..<length where bytes[offset + index] != start[index] { return false }
        return true
    }

    /// The first index at or after `from` where `needle` starts, or nil.
    func find(_ needle: StaticString, from: Int = 0) -> Int? {
        let length = needle.utf8CodeUnitCount
        guard length > 0, bytes.count >= length else { return nil }
        let first = needle.utf8Start[0]
        var index = max(0, from)
        while index + length <= bytes.count {
            if bytes[index] == first && has(needle, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The last index after `after` where `needle` starts, or nil.
    func findLast(_ needle: StaticString, after: Int) -> Int? {
        var index = bytes.count - needle.utf8CodeUnitCount
        while index > after {
            if has(needle, at: index) { return index }
            index -= 1
        }
        return nil
    }

    /// The first index at or after `from` holding `byte`, or nil.
    func find(byte: UInt8, from: Int) -> Int? {
        var index = from
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// The last index after `after` holding `byte`, or nil.
    func findLast(byte: UInt8, after: Int) -> Int? {
        var index = bytes.count - 1
        while index > after {
            if bytes[index] == byte { return index }
            index -= 1
        }
        return nil
    }

    /// The text of `range`, invalid UTF-8 repaired.
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range.clamped(to: 0..<bytes.count)]), as: UTF8.self)
    }

    /// The text from `start` up to `end`; empty when `end` is not after `start` (a line shaped
    /// unlike what the caller expected must never trap while building the range).
    func string(from start: Int, to end: Int) -> String {
        start < end ? string(start..<end) : ""
    }

    /// The text from `start` to the end.
    func string(from start: Int) -> String { string(start..<bytes.count) }

    /// A count at `start` (`number(at:)`'s reading, its fraction dropped), and the index after it;
    /// nil when there is none or it is over 1,000,000,000, which only damaged output writes (a
    /// fuzzed `Test run with 1111…` trapped converting it).
    func count(at start: Int) -> (value: Int, end: Int)? {
        guard let (value, end) = number(at: start), value <= 1e9 else { return nil }
        return (Int(value), end)
    }

    /// A decimal number (digits and one dot) starting at `start`, and the index after it. The digits
    /// are gathered as an integer and divided once by a power of ten, so `0.474` is the double
    /// `Double("0.474")` gives, not a sum of rounded tenths.
    func number(at start: Int) -> (value: Double, end: Int)? {
        var index = start
        var mantissa: UInt64 = 0, fractionDigits = 0, sawDigit = false, afterDot = false, exact = true
        var scale = 1.0
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= 48 && byte <= 57 {
                sawDigit = true
                if mantissa < 100_000_000_000_000_000 {
                    mantissa = mantissa * 10 + UInt64(byte - 48)
                    if afterDot { fractionDigits += 1 }
                } else if !afterDot {
                    scale *= 10
                    exact = false
                }
            } else if byte == UInt8(ascii: ".") && !afterDot && index + 1 < bytes.count && bytes[index + 1] >= 48 && bytes[index + 1] <= 57 {
                afterDot = true
            } else {
                break
            }
            index += 1
        }
        guard sawDigit else { return nil }
        var value = Double(mantissa)
        if fractionDigits > 0 { value /= Self.powersOfTen[min(fractionDigits, Self.powersOfTen.count - 1)] }
        if !exact { value *= scale }
        return (value, index)
    }

    private static let powersOfTen: [Double] = (0...22).map { exponent in (0..<exponent).reduce(1.0) { value, _ in value * 10 } }

    /// Index of the first byte after `start` that is not a space or tab.
    func skipBlanks(from start: Int) -> Int {
        var index = start
        while index < bytes.count && (bytes[index] == 32 || bytes[index] == 9) { index += 1 }
        return index
    }

    /// Decodes the Unicode scalar at `index`: its value and its length in bytes.
    func scalar(at index: Int) -> (value: UInt32, length: Int)? {
        guard index < bytes.count else { return nil }
        let lead = bytes[index]
        let length: Int, initial: UInt32
        switch lead {
        case 0..<0x80: return (UInt32(lead), 1)
        case 0xC0..<0xE0: length = 2; initial = UInt32(lead & 0x1F)
        case 0xE0..<0xF0: length = 3; initial = UInt32(lead & 0x0F)
        case 0xF0..<0xF8: length = 4; initial = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        var value = initial
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        return (value, length)
    }
}
