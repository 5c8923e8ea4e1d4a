#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushCore
import PrePushGit

/// String constants of every Swift file of the working tree (`ConstantIndex`), gathered on first
/// use: most pushes never pass an identifier constant and never pay for it. What each file holds is
/// kept in `.git/prepush/constants` by the file's blob id, and a file whose size and modification
/// time still match git's index is known by the index's blob id without being read: a push pays
/// only for the files that changed since they were last scanned. The check runs on one thread, the
/// one that owns its step, so the memo needs no lock.
final class RepositoryConstants: @unchecked Sendable {
    let root: String?
    private var gathered: ConstantLookup?
    /// Files read and scanned by the last gathering (not known by the stored index): for tests
    /// and `--verbose`.
    private(set) var scannedFiles = 0

    init(root: String?) { self.root = root }

    /// Every constant, by qualified name (the first file in path order wins for a name declared twice).
    func all(excluding step: AccessibilityStep) -> ConstantLookup {
        if let gathered { return gathered }
        var found = ConstantTable()
        if let root {
            let repository = try? Repository.discover(from: root)
            let store = repository.map { ConstantStore(folder: FilePath.join($0.commonDirectory, "prepush")) }
            let known = store?.load() ?? [:]
            let indexed = repository?.indexedFiles()
            var seen: [String: ConstantTable] = [:]
            // SourceTree keeps symlinks only when they stay inside the root: no per-file realpath here
            // (it was 40% of a push's CPU in a 3,000-file app).
            for path in SourceTree.files(under: root, where: { $0.hasSuffix(".swift") && !step.isExcluded($0) }) {
                let absolute = FilePath.join(root, path)
                var bytes: [UInt8]?
                let blob: String
                if let entry = indexed?.files[path], let stamp = FileSystem.stamp(of: absolute),
                   Self.matches(stamp, entry.stamp), stamp.seconds < indexed!.written {
                    blob = entry.blob
                } else {
                    guard case .success(let read) = FileReading.read(absolute, limit: step.maxFileSize) else { continue }
                    bytes = read
                    blob = Repository.contentHash(read)
                }
                let table: ConstantTable
                if let memo = seen[blob] ?? known[blob] {
                    table = memo
                } else {
                    if bytes == nil, case .success(let read) = FileReading.read(absolute, limit: step.maxFileSize) { bytes = read }
                    table = Self.scan(bytes ?? [])
                    scannedFiles += 1
                }
                seen[blob] = table
                found.merge(table)
            }
            // Written when something was scanned, holding only the blobs of this tree.
            if scannedFiles > 0 || seen.count != known.count { store?.save(seen) }
        }
        let lookup = ConstantLookup(found)
        gathered = lookup
        return lookup
    }

    /// Whether a file's stamp is the one git's index recorded (git keeps 32 bits of the size, and
    /// no nanoseconds where the file system or the writer had none).
    static func matches(_ file: FileStamp, _ indexed: FileStamp) -> Bool {
        UInt32(truncatingIfNeeded: file.size) == UInt32(truncatingIfNeeded: indexed.size) && file.seconds == indexed.seconds
            && (indexed.nanoseconds == 0 || file.nanoseconds == indexed.nanoseconds)
    }

    /// The constants of one file's bytes. (No look for `let` first: the generic `firstRange(of:)`
    /// was 92% of a cold scan's CPU; the scan itself is one pass over the bytes.)
    static func scan(_ bytes: [UInt8]) -> ConstantTable {
        bytes.count > 20 ? ConstantIndex.scan(bytes: bytes) : ConstantTable()
    }
}

/// The constants of each blob scanned before, in `.git/prepush/constants`: a line per blob, then a
/// line per constant (`blob TAB s TAB name TAB text`, or `i` for an instance). A damaged or
/// unreadable file is as good as none: everything is scanned again and the file rewritten.
struct ConstantStore {
    static let header = "prepush constants 1"
    let folder: String
    var path: String { FilePath.join(folder, "constants") }

    func load() -> [String: ConstantTable] {
        guard case .success(let bytes) = FileReading.read(path, limit: 64_000_000) else { return [:] }
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: true)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == Self.header else { return [:] }
        var tables: [String: ConstantTable] = [:]
        for line in lines.dropFirst() {
            let fields = line.split(separator: 9, maxSplits: 3, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
            guard fields[0].utf8.count == 40 else { return [:] }
            if fields.count == 1 {
                if tables[fields[0]] == nil { tables[fields[0]] = ConstantTable() }
                continue
            }
            guard fields.count == 4 else { return [:] }
            switch fields[1] {
            case "s": tables[fields[0], default: ConstantTable()].strings[fields[2]] = fields[3]
            case "i": tables[fields[0], default: ConstantTable()].instances[fields[2]] = fields[3]
            default: return [:]
            }
        }
        return tables
    }

    /// Writes `tables` whole (atomically); a failure only costs the next run a scan.
    func save(_ tables: [String: ConstantTable]) {
        var text = Self.header + "\n"
        for blob in tables.keys.sorted() {
            text += blob + "\n"
            let table = tables[blob]!
            for (kind, entries) in [("s", table.strings), ("i", table.instances)] {
                for (name, value) in entries.sorted(by: { $0.key < $1.key })
                    where !value.contains("\t") && !name.contains("\t") && !value.contains("\n") {
                    text += "\(blob)\t\(kind)\t\(name)\t\(value)\n"
                }
            }
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? AtomicFile.write(text, to: path)
    }
}
