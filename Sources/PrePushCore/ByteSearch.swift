#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Finding bytes in bytes on the hot path (every changed file of a push, every file of a repository
/// scan): `String.firstRange(of:)` goes through generic code and cost 92% of a cold constant scan.
public enum ByteSearch {
    /// Whether `needle` occurs in `bytes`: memchr to each candidate first byte.
    public static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        return bytes.withUnsafeBufferPointer { haystack in
            var index = 0
            let last = haystack.count - needle.count
            while index <= last {
                guard let found = memchr(haystack.baseAddress! + index, Int32(first), last - index + 1) else { return false }
                index = haystack.baseAddress!.distance(to: found.assumingMemoryBound(to: UInt8.self))
                if needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) { return true }
                index += 1
            }
            return false
        }
    }
}
