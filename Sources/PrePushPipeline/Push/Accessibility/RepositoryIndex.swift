#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushCore
import PrePushGit

/// What the accessibility check knows of every Swift file of the working tree outside build and
/// vendored folders, gathered on first use in one walk: each file's string constants
/// (`ConstantIndex`) and its identifier census (`IdentifierCensus`). Most pushes need neither and
/// never pay for it. What each file holds is kept in `.git/prepush/constants` by the file's blob id,
/// and a file whose size and modification time still match git's index is known by the index's blob
/// id without being read: a push pays only for the files that changed since they were last scanned.
/// The memo needs no lock: it is filled on the thread that owns the step, before any files are
/// checked side by side (`AccessibilityStep.prepareSharedState`), and only read after that.
final class RepositoryIndex: @unchecked Sendable {
    /// What one file holds.
    struct Facts: Equatable {
        var constants = ConstantTable()
        var census = IdentifierCensus()
        /// Its view components (`ViewIndex`), for view code only.
        var views = ViewIndex()
        /// Whether `views` was read (a parse): only when a check needs the components, not for the
        /// constants and census every push may need.
        var viewsScanned = false
    }

    let root: String?
    private var gathered: [(path: String, facts: Facts)]?
    private var lookup: ConstantLookup?
    private var viewIndex: ViewIndex?
    /// What the last gathering found by blob, each file's blob, and where they are stored: the view
    /// components, read later, are added to them.
    private var byBlob: [String: Facts] = [:]
    private var blobs: [String: String] = [:]
    private var store: ConstantStore?

    /// The view components when already gathered (by `views(excluding:)`), else nil: a file's check
    /// asks for them only when its own findings could depend on them.
    var knownViews: ViewIndex? { viewIndex }
    /// Files read and scanned by the last gathering (not known by the stored index): for tests
    /// and `--verbose`.
    private(set) var scannedFiles = 0

    init(root: String?) { self.root = root }

    /// Every constant of the files the step checks, by qualified name (the first file in path order
    /// wins for a name declared twice).
    func all(excluding step: AccessibilityStep) -> ConstantLookup {
        constants(isExcluded: step.isExcluded, maxFileSize: step.maxFileSize, controls: step.checker.settings.controls)
    }

    /// The view components of every file the step could check (tests, build and vendored folders and
    /// `accessibility.exclude` left out), resolved: made once per run, from the store for files
    /// scanned before.
    func views(excluding step: AccessibilityStep) -> ViewIndex {
        if let viewIndex { return viewIndex }
        var found = ViewIndex()
        let all = files(maxFileSize: step.maxFileSize, controls: step.checker.settings.controls)
        // Files whose components were never read are parsed now, side by side, and stored.
        let missing = all.indices.filter { !all[$0].facts.viewsScanned && !step.isExcluded(all[$0].path) }
        let root = root ?? "", limit = step.maxFileSize
        let parsed = Concurrently.map(missing.map { all[$0].path }) { path -> ViewIndex in
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: limit),
                  ByteSearch.contains(bytes, Array("View".utf8)) else { return ViewIndex() }
            return ViewIndex.scan(bytes: bytes)
        }
        var updated = all
        for (index, views) in zip(missing, parsed) {
            updated[index].facts.views = views
            updated[index].facts.viewsScanned = true
            if let blob = blobs[updated[index].path] { byBlob[blob] = updated[index].facts }
        }
        if !missing.isEmpty {
            gathered = updated
            store?.save(byBlob)
        }
        for (path, facts) in updated where !step.isExcluded(path) {
            found.merge(facts.views)
        }
        let made = found.resolved()
        viewIndex = made
        return made
    }

    /// Every constant of the files `isExcluded` keeps.
    func constants(isExcluded: (String) -> Bool, maxFileSize: Int, controls: Set<String>) -> ConstantLookup {
        if let lookup { return lookup }
        var found = ConstantTable()
        for (path, facts) in files(maxFileSize: maxFileSize, controls: controls) where !isExcluded(path) {
            found.merge(facts.constants)
        }
        let made = ConstantLookup(found)
        lookup = made
        return made
    }

    /// The blob id the last gathering knew `path` by (git's hash of its bytes in the working tree),
    /// or nil when it was not gathered: a push compares it with the pushed tree's to know which
    /// files' facts are also the pushed ones.
    func blob(of path: String) -> String? { blobs[path] }

    /// Each Swift file outside build and vendored folders with what it holds, in path order.
    func files(maxFileSize: Int, controls: Set<String>) -> [(path: String, facts: Facts)] {
        if let gathered { return gathered }
        var files: [(path: String, facts: Facts)] = []
        if let root {
            let repository = try? Repository.discover(from: root)
            let store = repository.map { ConstantStore(folder: FilePath.join($0.commonDirectory, "prepush")) }
            self.store = store
            let known = store?.load() ?? [:]
            let indexed = repository?.indexedFiles()
            let vocabulary = IdentifierCensus.Vocabulary(controls: controls)
            var seen: [String: Facts] = [:]
            var order: [(path: String, blob: String)] = []
            var unknown: [(blob: String, absolute: String, bytes: [UInt8]?)] = []
            var pending: Set<String> = []
            // SourceTree keeps symlinks only when they stay inside the root: no per-file realpath here
            // (it was 40% of a push's CPU in a 3,000-file app).
            for path in SourceTree.files(under: root, where: { $0.hasSuffix(".swift") && !IdentifierPolicy.isVendored($0) }) {
                let absolute = FilePath.join(root, path)
                var bytes: [UInt8]?
                let blob: String
                if let entry = indexed?.files[path], let stamp = FileSystem.stamp(of: absolute),
                   Self.matches(stamp, entry.stamp), stamp.seconds < indexed!.written {
                    blob = entry.blob
                } else {
                    guard case .success(let read) = FileReading.read(absolute, limit: maxFileSize) else { continue }
                    bytes = read
                    blob = Repository.contentHash(read)
                }
                if seen[blob] == nil, let memo = known[blob] { seen[blob] = memo }
                if seen[blob] == nil, pending.insert(blob).inserted { unknown.append((blob, absolute, bytes)) }
                order.append((path, blob))
            }
            // Files not scanned before are scanned side by side.
            let scanned = Concurrently.map(unknown) { file -> (String, Facts) in
                var bytes = file.bytes
                if bytes == nil, case .success(let read) = FileReading.read(file.absolute, limit: maxFileSize) { bytes = read }
                return (file.blob, Self.scan(bytes ?? [], vocabulary: vocabulary))
            }
            for (blob, facts) in scanned { seen[blob] = facts }
            scannedFiles += scanned.count
            files = order.compactMap { entry in seen[entry.blob].map { (entry.path, $0) } }
            byBlob = seen
            for entry in order { blobs[entry.path] = entry.blob }
            // Written when something was scanned, holding only the blobs of this tree.
            if scannedFiles > 0 || seen.count != known.count { store?.save(seen) }
        }
        gathered = files
        return files
    }

    /// Whether a file's stamp is the one git's index recorded (git keeps 32 bits of the size, and
    /// no nanoseconds where the file system or the writer had none).
    static func matches(_ file: FileStamp, _ indexed: FileStamp) -> Bool {
        UInt32(truncatingIfNeeded: file.size) == UInt32(truncatingIfNeeded: indexed.size) && file.seconds == indexed.seconds
            && (indexed.nanoseconds == 0 || file.nanoseconds == indexed.nanoseconds)
    }

    /// What one file's bytes hold. (No look for `let` first: the generic `firstRange(of:)` was 92%
    /// of a cold scan's CPU; each scan is one pass over the bytes.)
    static func scan(_ bytes: [UInt8], vocabulary: IdentifierCensus.Vocabulary) -> Facts {
        // View components are parsed later, only when a check needs them (`views(excluding:)`):
        // parsing every view file made a first push in a 1,600-file app take a minute.
        Facts(constants: bytes.count > 20 ? ConstantIndex.scan(bytes: bytes) : ConstantTable(),
              census: IdentifierCensus(bytes: bytes, vocabulary: vocabulary))
    }
}

/// What each blob scanned before holds, in `.git/prepush/constants`: a line per blob, then a line
/// per fact (`blob TAB kind TAB name TAB text`): `s` a string constant, `i` an instance, `c` the census
/// counts (`controls tagged uiTest explicitQueries`), `d` a literal identifier, `n` a named one, `q` a
/// UI test's subscript query, `o` and `p` an identifier set outside SwiftUI's modifier (literal, named),
/// `b` the padding a ButtonStyle gives its label, `R` a view type's uses as an ImageRenderer's content. A damaged or unreadable file, or one of an older version, is as good as
/// none: everything is scanned again and the file rewritten.
struct ConstantStore {
    // 3: a UI test must import XCTest, and `identifier:` counts only in an element query.
    // 4: the census's `tagged` counts tagged controls, not identifiers; older counts are scanned again.
    // 5: view components (`v`, `w`, `e`, `u` lines).
    // 6: widget roots from WidgetKit's configurations only.
    // 7: identifiers set outside SwiftUI's modifier (`o`, `p`); `String` enums' cases as constants;
    // components whose body is a control showing only an icon.
    // 8: identifiers set in debug-only code (UI tests run the Debug build).
    // 9: who makes each view type in shipped code (`U`) and how often in `#if DEBUG` code (`D`).
    // 11: the padding a ButtonStyle's makeBody gives the label (`b`).
    // 12: how often each view type is an ImageRenderer's content (`R`).
    // 13: who makes each view type outside a control's label (`L`), and whether a view type shows text
    // (a trait bit past the eighth).
    // 15: SwiftUI's older `.accessibility(identifier:)` sets an identifier (14 was a build between commits).
    // 16: `self.init(…)` in an extension of a view type is that view; 17: of Label only.
    // Any change to what a scan finds must bump this: facts are kept by blob id, and a blob's old
    // facts would otherwise be used as new.
    static let header = "prepush constants 18"
    let folder: String
    var path: String { FilePath.join(folder, "constants") }

    func load() -> [String: RepositoryIndex.Facts] {
        guard case .success(let bytes) = FileReading.read(path, limit: 64_000_000) else { return [:] }
        let lines = bytes.split(separator: 10, omittingEmptySubsequences: true)
        guard let first = lines.first, String(decoding: first, as: UTF8.self) == Self.header else { return [:] }
        var tables: [String: RepositoryIndex.Facts] = [:]
        // A blob's lines come together: its facts are built aside and stored once (a lookup by a
        // 40-character key per line, or a copy per line, made loading a big store slow).
        var blob: ArraySlice<UInt8> = []
        var facts = RepositoryIndex.Facts()
        func flush() { if !blob.isEmpty { tables[String(decoding: blob, as: UTF8.self)] = facts } }
        for line in lines.dropFirst() {
            guard line.count >= 40 else { return [:] }
            let id = line.prefix(40)
            if !id.elementsEqual(blob) {
                flush()
                blob = id
                facts = RepositoryIndex.Facts()
            }
            guard line.count > 40 else { continue }
            // blob TAB kind TAB name TAB value
            let rest = line.dropFirst(40)
            guard rest.count >= 4, rest.first == 9, rest[rest.startIndex + 2] == 9 else { return [:] }
            let kind = rest[rest.startIndex + 1]
            let fields = rest.dropFirst(3)
            guard let tab = fields.firstIndex(of: 9) else { return [:] }
            let name = String(decoding: fields[..<tab], as: UTF8.self)
            let value = String(decoding: fields[(tab + 1)...], as: UTF8.self)
            switch kind {
            case UInt8(ascii: "s"): facts.constants.strings[name] = value
            case UInt8(ascii: "i"): facts.constants.instances[name] = value
            case UInt8(ascii: "c"):
                let counts = name.split(separator: " ").compactMap { Int($0) }
                guard counts.count == 4 else { return [:] }
                facts.census.controls = counts[0]
                facts.census.tagged = counts[1]
                facts.census.isUITest = counts[2] == 1
                facts.census.explicitIdentifierQueries = counts[3]
            case UInt8(ascii: "d"): facts.census.identifiers.append(value)
            case UInt8(ascii: "n"): facts.census.identifierNames.append(value)
            case UInt8(ascii: "q"): facts.census.subscriptQueries.append(value)
            case UInt8(ascii: "o"): facts.census.otherIdentifiers.append(value)
            case UInt8(ascii: "p"): facts.census.otherIdentifierNames.append(value)
            case UInt8(ascii: "v"):
                guard let bits = UInt16(value) else { return [:] }
                facts.views.components[name] = ComponentTraits(rawValue: bits)
            case UInt8(ascii: "w"): facts.views.widgetRoots.insert(value)
            case UInt8(ascii: "V"): facts.viewsScanned = true
            case UInt8(ascii: "e"): facts.views.children[name] = Set(value.split(separator: " ").map(String.init))
            case UInt8(ascii: "u"):
                let counts = value.split(separator: " ").compactMap { Int($0) }
                guard counts.count == 2 else { return [:] }
                facts.views.uses[name] = UseCount(all: counts[0], labelledOrHidden: counts[1])
            case UInt8(ascii: "U"): facts.views.shippedUsers[name] = Set(value.split(separator: " ").map(String.init))
            case UInt8(ascii: "L"): facts.views.unlabelledUsers[name] = Set(value.split(separator: " ").map(String.init))
            case UInt8(ascii: "D"):
                guard let count = Int(value) else { return [:] }
                facts.views.debugUses[name] = count
            case UInt8(ascii: "R"):
                guard let count = Int(value) else { return [:] }
                facts.views.renderedUses[name] = count
            case UInt8(ascii: "b"):
                guard let points = Double(value) else { return [:] }
                facts.views.labelPadding[name] = points
            default: return [:]
            }
        }
        flush()
        return tables
    }

    /// Writes `tables` whole (atomically); a failure only costs the next run a scan.
    func save(_ tables: [String: RepositoryIndex.Facts]) {
        var text = Self.header + "\n"
        for blob in tables.keys.sorted() {
            text += blob + "\n"
            let facts = tables[blob]!
            for (kind, entries) in [("s", facts.constants.strings), ("i", facts.constants.instances)] {
                for (name, value) in entries.sorted(by: { $0.key < $1.key }) where Self.fits(name) && Self.fits(value) {
                    text += "\(blob)\t\(kind)\t\(name)\t\(value)\n"
                }
            }
            let views = facts.views
            if facts.viewsScanned { text += "\(blob)\tV\t\t\n" }
            for (name, traits) in views.components.sorted(by: { $0.key < $1.key }) where Self.fits(name) {
                text += "\(blob)\tv\t\(name)\t\(traits.rawValue)\n"
            }
            for root in views.widgetRoots.sorted() where Self.fits(root) { text += "\(blob)\tw\t\t\(root)\n" }
            for (name, made) in views.children.sorted(by: { $0.key < $1.key }) where Self.fits(name) && made.allSatisfy(Self.fits) {
                text += "\(blob)\te\t\(name)\t\(made.sorted().joined(separator: " "))\n"
            }
            for (name, count) in views.uses.sorted(by: { $0.key < $1.key }) where Self.fits(name) {
                text += "\(blob)\tu\t\(name)\t\(count.all) \(count.labelledOrHidden)\n"
            }
            for (name, users) in views.shippedUsers.sorted(by: { $0.key < $1.key }) where Self.fits(name) && users.allSatisfy(Self.fits) {
                text += "\(blob)\tU\t\(name)\t\(users.sorted().joined(separator: " "))\n"
            }
            for (name, users) in views.unlabelledUsers.sorted(by: { $0.key < $1.key }) where Self.fits(name) && users.allSatisfy(Self.fits) {
                text += "\(blob)\tL\t\(name)\t\(users.sorted().joined(separator: " "))\n"
            }
            for (name, count) in views.debugUses.sorted(by: { $0.key < $1.key }) where Self.fits(name) {
                text += "\(blob)\tD\t\(name)\t\(count)\n"
            }
            for (name, count) in views.renderedUses.sorted(by: { $0.key < $1.key }) where Self.fits(name) {
                text += "\(blob)\tR\t\(name)\t\(count)\n"
            }
            for (name, points) in views.labelPadding.sorted(by: { $0.key < $1.key }) where Self.fits(name) {
                text += "\(blob)\tb\t\(name)\t\(points)\n"
            }
            let census = facts.census
            guard census != IdentifierCensus() else { continue }
            text += "\(blob)\tc\t\(census.controls) \(census.tagged) \(census.isUITest ? 1 : 0) \(census.explicitIdentifierQueries)\t\n"
            for (kind, values) in [("d", census.identifiers), ("n", census.identifierNames), ("q", census.subscriptQueries),
                                   ("o", census.otherIdentifiers), ("p", census.otherIdentifierNames)] {
                for value in values where Self.fits(value) { text += "\(blob)\t\(kind)\t\t\(value)\n" }
            }
        }
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try? AtomicFile.write(text, to: path)
    }

    /// A value the line format can hold.
    static func fits(_ value: String) -> Bool { !value.contains("\t") && !value.contains("\n") && !value.contains("\r") }
}
