#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// SHA-256 (FIPS 180-4): the digest a report's provenance records of each file a run wrote (so that
/// a file changed or put there by anyone else does not pass for the run's), and the
/// Content-Security-Policy hashes of a report's inline script and style. Written here because the
/// allowed dependencies have no hash on Linux (CryptoKit is Apple's only); checked against
/// `sha256sum` and the standard's vectors in the tests. Not for secrets.
public enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// The digest of `bytes` as 64 lowercase hex digits.
    public static func hex<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        hex(digest: digest(bytes))
    }

    /// `digest` in base64, as CSP's `'sha256-…'` source takes it.
    public static func base64Digest(of text: String) -> String {
        base64(digest(Array(text.utf8)))
    }

    /// Standard base64 with padding.
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".unicodeScalars)
        var out = String.UnicodeScalarView()
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << UInt32(16 - 8 * $1.offset) }
            for index in 0..<4 {
                out.append(index <= chunk.count ? alphabet[Int((value >> UInt32(18 - 6 * index)) & 63)] : "=")
            }
        }
        return String(out)
    }

    /// The 32-byte digest of `bytes`.
    public static func digest<Bytes: Collection>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        var hasher = Hasher()
        if let done = bytes.withContiguousStorageIfAvailable({ hasher.update(UnsafeRawBufferPointer($0)) }) { _ = done } else {
            Array(bytes).withUnsafeBytes { hasher.update($0) }
        }
        return hasher.finalize()
    }

    /// The digest of a file read through a descriptor to its end, 64 KiB at a time: a report of
    /// 100,000 tests is hashed without holding it.
    public static func hex(readingToEnd fd: Int32) -> String? {
        var hasher = Hasher()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 { if errno == EINTR { continue } else { return nil } }
            chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
        }
        return hex(digest: hasher.finalize())
    }

    /// 32 bytes as 64 lowercase hex digits.
    static func hex(digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xf)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// SHA-256 fed a piece at a time: whole blocks are compressed straight from the caller's bytes.
    public struct Hasher {
        var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var pending: [UInt8] = []
        var length: UInt64 = 0
        var schedule = [UInt32](repeating: 0, count: 64)

        /// A hasher with nothing fed yet.
        public init() { pending.reserveCapacity(64) }

        /// Feeds `bytes`.
        public mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var offset = 0
            if !pending.isEmpty {
                let take = min(64 - pending.count, bytes.count)
                pending += bytes[0..<take]
                offset = take
                guard pending.count == 64 else { return }
                pending.withUnsafeBytes { SHA256.compress($0, into: &state, schedule: &schedule) }
                pending.removeAll(keepingCapacity: true)
            }
            while bytes.count - offset >= 64 {
                SHA256.compress(UnsafeRawBufferPointer(rebasing: bytes[offset..<(offset + 64)]), into: &state, schedule: &schedule)
                offset += 64
            }
            pending += bytes[offset...]
        }

        /// The digest; the hasher is spent.
        public mutating func finalize() -> [UInt8] {
            // Padding: a one bit, zeros, and the message length in bits as a big-endian 64-bit number.
            let bitLength = length &* 8
            var tail = pending
            tail.append(0x80)
            while tail.count % 64 != 56 { tail.append(0) }
            for shift in stride(from: 56, through: 0, by: -8) { tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
            tail.withUnsafeBytes { all in
                for start in stride(from: 0, to: all.count, by: 64) {
                    SHA256.compress(UnsafeRawBufferPointer(rebasing: all[start..<(start + 64)]), into: &state, schedule: &schedule)
                }
            }
            return state.flatMap { word in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: word >> UInt32($0)) } }
        }
    }

    static func compress(_ block: UnsafeRawBufferPointer, into state: inout [UInt32], schedule w: inout [UInt32]) {
        for index in 0..<16 {
            w[index] = UInt32(block[index * 4]) << 24 | UInt32(block[index * 4 + 1]) << 16 | UInt32(block[index * 4 + 2]) << 8 | UInt32(block[index * 4 + 3])
        }
        for index in 16..<64 {
            let s0 = rotate(w[index - 15], 7) ^ rotate(w[index - 15], 18) ^ (w[index - 15] >> 3)
            let s1 = rotate(w[index - 2], 17) ^ rotate(w[index - 2], 19) ^ (w[index - 2] >> 10)
            w[index] = w[index - 16] &+ s0 &+ w[index - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = (state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7])
        for index in 0..<64 {
            let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let temporary1 = h &+ s1 &+ choice &+ roundConstants[index] &+ w[index]
            let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let temporary2 = s0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temporary1, c, b, a, temporary1 &+ temporary2)
        }
        state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
        state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value >> count) | (value << (32 - count)) }
}
