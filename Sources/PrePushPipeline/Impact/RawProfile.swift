#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushRunner

/// A raw LLVM profile (`.profraw`, format version 10, the one Swift 6's runtime writes) read
/// in-process: which of its function records ran. Recording reads one per test; starting
/// `llvm-profdata show --covered` for each was a sixth of a recording's CPU.
///
/// The records carry a hash of each function's name, not the name (the names are compressed with
/// zlib). `llvm-profdata` walks a raw profile's records in the file's order, so one `show
/// --all-functions` per binary gives the names in record order (`RawProfileNames`), and every later
/// profile of the same binary (the same records: `fingerprint`) is read here alone.
struct RawProfile: Equatable {
    /// `\xFFlprofr\x81`, little-endian 64-bit.
    static let magic: UInt64 = 0xFF6C_7072_6F66_7281
    static let version: UInt64 = 10
    static let headerWords = 16
    /// One `__llvm_profile_data` record of version 10: name hash, structural hash, counter, bitmap,
    /// function and value pointers (8 bytes each), counter count (4), value sites (3 × 2), bitmap
    /// bytes (4), padded to 8.
    static let recordSize = 64

    /// How many function records it holds.
    let recordCount: Int
    /// The records (in file order) with a counter above zero.
    let executed: [Int]
    /// A hash of every record's name hash and structural hash, in order: two profiles with the same
    /// fingerprint come from the same binary and name the same functions at the same positions.
    let fingerprint: UInt64

    /// Reads `bytes`; nil for anything else than a well-formed version 10 profile of 8-byte counters
    /// (another version, a variant flag such as single-byte coverage, a size that does not add up),
    /// which the caller hands to `llvm-profdata` instead.
    init?(_ bytes: [UInt8]) {
        guard let parsed = bytes.withUnsafeBytes({ Self.parse($0) }) else { return nil }
        self = parsed
    }

    private init(recordCount: Int, executed: [Int], fingerprint: UInt64) {
        self.recordCount = recordCount
        self.executed = executed
        self.fingerprint = fingerprint
    }

    private static func parse(_ raw: UnsafeRawBufferPointer) -> RawProfile? {
        guard raw.count >= headerWords * 8 else { return nil }
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        // The version's high byte holds variant flags (IR-level, single-byte coverage, …): any
        // of them changes what the counters mean, so only the plain version is read here.
        guard word(0) == magic, word(8) == version else { return nil }
        let header = (0..<headerWords).map { word($0 * 8) }
        let binaryIDs = header[2], dataCount = header[3], paddingBeforeCounters = header[4], counterCount = header[5]
        let countersDelta = Int64(bitPattern: header[10])
        let limit = UInt64(raw.count)
        guard binaryIDs < limit, dataCount < limit / UInt64(recordSize), paddingBeforeCounters < 8, counterCount < limit / 8 else { return nil }
        let dataStart = headerWords * 8 + Int(binaryIDs)
        let countersStart = dataStart + Int(dataCount) * recordSize + Int(paddingBeforeCounters)
        let countersEnd = countersStart + Int(counterCount) * 8
        guard countersEnd <= raw.count else { return nil }
        var executed: [Int] = []
        var fingerprint: UInt64 = 0xCBF2_9CE4_8422_2325
        for index in 0..<Int(dataCount) {
            let record = dataStart + index * recordSize
            let nameHash = word(record), structureHash = word(record + 8)
            for value in [nameHash, structureHash] {
                fingerprint = (fingerprint ^ value) &* 0x0000_0100_0000_01B3
            }
            // The counter pointer is relative to the record: the counters' offset in the file's
            // counter section is it minus (CountersDelta - the record's offset in the data section).
            let relative = Int64(bitPattern: word(record + 16))
            let (base, baseOverflow) = countersDelta.subtractingReportingOverflow(Int64(index * recordSize))
            let (offset, overflow) = relative.subtractingReportingOverflow(base)
            let counters = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: record + 48, as: UInt32.self)))
            guard !baseOverflow, !overflow, offset >= 0, offset % 8 == 0,
                  countersStart + Int(offset) + counters * 8 <= countersEnd else { return nil }
            let first = countersStart + Int(offset)
            if (0..<counters).contains(where: { word(first + $0 * 8) != 0 }) { executed.append(index) }
        }
        return RawProfile(recordCount: Int(dataCount), executed: executed, fingerprint: fingerprint)
    }
}

/// The function names of each binary's records, learnt once per binary from `llvm-profdata`, and
/// checked once against `llvm-profdata show --covered`: a reading that ever disagrees turns the
/// in-process reading off for the whole recording, and every profile goes to the tool.
final class RawProfileNames: @unchecked Sendable {
    private let tools: CoverageTools
    private let environment: [String: String]
    private let lock = Lock()
    private var names: [UInt64: [String]] = [:]
    private var trusted: Bool?

    /// Whether profiles are read in-process: nil until the first one was checked against the tool.
    var readsInProcess: Bool? { lock.withLock { trusted } }

    init(tools: CoverageTools, environment: [String: String]) {
        self.tools = tools
        self.environment = environment
    }

    /// The names (as `ExportedFunction.key` gives them) of the functions that ran in any of
    /// `profiles`; nil when one can be read neither here nor by the tool.
    func executedFunctions(in profiles: [String]) -> Set<String>? {
        var found: Set<String> = []
        for profile in profiles {
            guard let names = executed(in: profile) ?? tools.executedFunctions(in: [profile], environment: environment) else { return nil }
            found.formUnion(names)
        }
        return found
    }

    /// The functions that ran in one profile read in-process, or nil when the tool must read it.
    private func executed(in path: String) -> Set<String>? {
        guard lock.withLock({ trusted }) != false,
              case .success(let bytes) = FileReading.read(path, limit: 1 << 30), let profile = RawProfile(bytes) else { return nil }
        var known = lock.withLock { names[profile.fingerprint] }
        if known == nil {
            guard let learnt = learn(path, records: profile.recordCount) else { return nil }
            known = learnt
            lock.withLock { names[profile.fingerprint] = learnt }
        }
        guard let known, known.count == profile.recordCount else { return nil }
        let executed = Set(profile.executed.map { ExportedFunction.key(known[$0]) })
        if lock.withLock({ trusted }) == nil {
            // The first profile read both ways: the tool's answer decides whether this reading is used.
            let shown = tools.executedFunctions(in: [path], environment: environment)
            lock.withLock { trusted = shown == executed }
            return shown
        }
        return executed
    }

    /// `llvm-profdata show --all-functions`: each record's name on a line of two spaces and a colon,
    /// followed by its `Hash:` line, in record order. Nil unless there is one name per record.
    private func learn(_ path: String, records: Int) -> [String]? {
        let spec = ProcessSpec(executable: tools.profdata, arguments: ["show", "--all-functions", path], environment: environment)
        guard let shown = try? CommandOutput.run(spec, timeout: 120, outputLimit: 1 << 30), shown.succeeded else { return nil }
        let lines = shown.standardOutput.split(separator: 10, omittingEmptySubsequences: false)
        var found: [String] = []
        found.reserveCapacity(records)
        let hash = Array("    Hash: ".utf8)
        for index in lines.indices.dropFirst() where lines[index].starts(with: hash) {
            let line = lines[index - 1]
            guard line.count > 3, line.starts(with: [32, 32]), line.last == UInt8(ascii: ":") else { return nil }
            found.append(String(decoding: line.dropFirst(2).dropLast(), as: UTF8.self))
        }
        return found.count == records ? found : nil
    }
}
