#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushGit

/// Files outside every target that no step of `swift build` or `swift test` reads by itself: CI
/// settings, git metadata, lint and format settings, documentation. Such a file changes a run only
/// if something reads it. The toolchain does not; a build tool plugin may (it can read any file of
/// the package); a test, or code a test calls, can — by a path it builds, which names the file, or by
/// listing a folder, which finds it unless the listing keeps only an extension the file lacks.
/// `FileReaders` looks for each of those in the package's own files. docs/selective-tests.md,
/// "Files no test run reads", gives the safety argument.
package enum UnreadFiles {
    /// Top folders whose files are settings of a hosted service (CI, bots, editors of the service).
    static let serviceFolders: Set<String> = [".github", ".gitlab", ".circleci", ".buildkite"]
    /// File names (lowercased) that only git, a hosted service or a linter or formatter run by hand
    /// reads. Not `.swift-version` (toolchain managers read it) nor `.gitmodules` (it moves checkouts).
    static let names: Set<String> = [
        ".gitignore", ".gitattributes", ".mailmap", ".editorconfig", ".spi.yml", ".gitlab-ci.yml", ".travis.yml", "codeowners",
        ".swiftlint.yml", ".swift-format", ".swiftformat", ".pre-commit-config.yaml", ".licenseignore", ".yamllint", ".markdownlint.json",
    ]

    /// Whether `path` (relative to the package, or to the repository for a file outside the package)
    /// is of a kind no build or test step reads by itself. Whether a test reads it is `FileReaders`'.
    package static func isInertKind(_ path: String) -> Bool {
        let parts = path.lowercased().split(separator: "/").map(String.init)
        guard let name = parts.last else { return false }
        if parts.count > 1, serviceFolders.contains(parts[0]) { return true }
        return names.contains(name) || SelectiveTests.isDocumentation(path)
    }

    /// The lowercased words of a file's name a path to it must contain (its name without the
    /// extension: `README` of `README.md`, `pull_request` of `pull_request.yml`, `gitignore` of
    /// `.gitignore`), and its extension (`md`; nil for `.gitignore`, `CODEOWNERS`).
    package static func nameWords(of path: String) -> (words: [String], pathExtension: String?) {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        var pieces = name.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
        let pathExtension = pieces.count > 1 ? pieces.removeLast().lowercased() : nil
        return (words(Array(pieces.joined(separator: ".").utf8)).sorted(), pathExtension)
    }

    /// The lowercased words of `bytes`: runs of letters, digits, `_` and `-` (and any non-ASCII byte).
    package static func words(_ bytes: [UInt8]) -> Set<String> {
        var found: Set<String> = []
        var start = 0
        for index in 0...bytes.count {
            if index < bytes.count, isWordByte(bytes[index]) { continue }
            if index > start { found.insert(String(decoding: bytes[start..<index], as: UTF8.self).lowercased()) }
            start = index + 1
        }
        return found
    }

    static func isWordByte(_ byte: UInt8) -> Bool {
        byte == 95 || byte == 45 || (byte | 0x20 >= 97 && byte | 0x20 <= 122) || (byte >= 48 && byte <= 57) || byte >= 0x80
    }
}

/// What in one package could read a changed file of an inert kind, found in the package's own files
/// (every file in a target's folder but its `.docc` catalog, and the manifests), read once, and only
/// when a push changes such a file.
package final class FileReaders {
    /// Calls that list a folder: a test that lists one finds files it never names.
    static let listingCalls = ["enumerator(", "contentsOfDirectory(", "subpathsOfDirectory(", "subpaths(atPath", "readdir(", "fts_open(",
                               "glob(", "scandir("]
    /// Signs that a listing keeps only some extensions.
    static let extensionFilters = ["pathExtension", "hasSuffix("]

    private struct Scan {
        /// Why every file may be read (a build tool plugin is applied), if so.
        var everything: String?
        /// Each word of the package's files, with the first file (package-relative) that holds it.
        var words: [String: String] = [:]
        /// Files that list folders: the file, whether it filters by extension, the words of its
        /// target and the targets that target depends on (where the extension it keeps is written),
        /// and its target.
        var listings: [(file: String, filters: Bool, words: Set<String>, target: String)] = []
        /// For each word, the targets whose files hold it (`Package.swift` for a manifest's).
        var namers: [String: Set<String>] = [:]
        /// Package-relative paths that a symbolic link in a target's folder points at, with the link.
        var linked: [(path: String, link: String)] = []
    }

    private let packageRoot: String
    private let graph: PackageGraph
    private var scannedScan: Scan?

    /// Readers of the package at `packageRoot` (absolute) with targets `graph`.
    package init(packageRoot: String, graph: PackageGraph) {
        self.packageRoot = packageRoot
        self.graph = graph
    }

    /// Why a test could read `path` (relative to the package; a file outside the package is given
    /// relative to the repository), or nil when nothing in the package can. Call only for a file
    /// `UnreadFiles.isInertKind` accepts: the kind is what says no build step reads it.
    package func reader(of path: String, inPackage: String?) -> String? {
        let scan = scanned()
        if let everything = scan.everything { return everything }
        let (nameWords, pathExtension) = UnreadFiles.nameWords(of: path)
        // A path is built from a word of each folder on the way as well as of the name
        // (`.github/workflows/tests.yml` needs `github` and `workflows` besides `tests`, a word most
        // manifests hold): a folder no file names keeps what is in it from being opened by name.
        // Finding it by listing is the check after this one.
        // So is its extension: `LICENSE.txt` is not opened as `license` (OpenAPIKit's tests say
        // `license` for an OpenAPI document's field, and none says `txt`).
        if let word = nameWords.first(where: { scan.words[$0] != nil }), let file = scan.words[word],
           pathExtension.map({ scan.words[$0] != nil || $0.allSatisfy(\.isNumber) }) ?? true,
           let folders = Self.namedFolders(of: path, words: scan.words) {
            let named = [word] + [pathExtension].compactMap { $0 } + folders
            return "\(file) names \(TextFormatting.list(named)), so a test may read it"
        }
        return Self.linkOrListing(scan, inPackage: inPackage, pathExtension: pathExtension, listings: scan.listings, reader: "a test")
    }

    /// A word of each folder of `path` that some file holds (`github`, `workflows`), or nil when a
    /// folder has none. A folder whose name has no word but numbers needs none (any file may hold a
    /// number).
    static func namedFolders(of path: String, words: [String: String]) -> [String]? {
        var named: [String] = []
        for folder in path.split(separator: "/").dropLast() {
            let own = UnreadFiles.words(Array(folder.utf8))
            if own.isEmpty || own.contains(where: { $0.allSatisfy(\.isNumber) }) { continue }
            guard let word = own.sorted().first(where: { words[$0] != nil }) else { return nil }
            named.append(word)
        }
        return named
    }

    /// Why a test outside test target `owner` could read `path`, a file in `owner`'s folder that is no
    /// Swift source (a snapshot, a fixture; package-relative), or nil when only `owner`'s own files can
    /// name it: no other target's file and no manifest holds a word of its name (counters such as
    /// `1` of `testHelp.1.txt` aside: any file may hold a number), no link reaches it, no other
    /// target lists folders, and no build tool plugin is applied.
    package func reader(of path: String, outside owner: String) -> String? {
        let scan = scanned()
        if let everything = scan.everything { return everything }
        let (nameWords, pathExtension) = UnreadFiles.nameWords(of: path)
        let telling = nameWords.filter { !$0.allSatisfy(\.isNumber) }
        guard !telling.isEmpty else { return "its name holds no word but numbers, which any test may build" }
        for word in telling {
            if let other = (scan.namers[word] ?? []).sorted().first(where: { $0 != owner }) {
                return "\(other) names \(word), so a test outside \(owner) may read it"
            }
        }
        return Self.linkOrListing(scan, inPackage: path, pathExtension: pathExtension, listings: scan.listings.filter { $0.target != owner },
                                  reader: "a test outside \(owner)")
    }

    /// A link that reaches `inPackage` (a link out of the package, kept with an empty path, may reach
    /// any file), or one of `listings` that finds it (unless it keeps only extensions the file lacks):
    /// why `reader` may read the file, or nil.
    private static func linkOrListing(_ scan: Scan, inPackage: String?, pathExtension: String?,
                                      listings: [(file: String, filters: Bool, words: Set<String>, target: String)], reader: String) -> String? {
        let isLinked = { (link: (path: String, link: String)) in
            link.path.isEmpty || (inPackage.map { $0 == link.path || $0.hasPrefix(link.path + "/") } ?? false)
        }
        if let link = scan.linked.first(where: isLinked) {
            return "\(link.link) links to it, so a test may read it"
        }
        for listing in listings {
            guard listing.filters, let pathExtension else { return "\(listing.file) lists folders, so \(reader) may read it" }
            if listing.words.contains(pathExtension) { return "\(listing.file) lists folders and names \(pathExtension), so \(reader) may read it" }
        }
        return nil
    }

    /// The package's scan, made on first use and kept.
    private func scanned() -> Scan {
        if let scanned = scannedScan { return scanned }
        let made = scan()
        scannedScan = made
        return made
    }

    private func scan() -> Scan {
        var scan = Scan()
        for manifest in Self.manifests(in: packageRoot) {
            guard case .success(let bytes) = FileReading.read(FilePath.join(packageRoot, manifest), limit: 16 * 1024 * 1024) else {
                scan.everything = "\(manifest) cannot be read"
                return scan
            }
            // `plugins:` is how a target applies a build tool plugin, which may read any file.
            if String(decoding: bytes, as: UTF8.self).contains("plugins:") {
                scan.everything = "\(manifest) applies a build tool plugin, which may read any file of the package"
                return scan
            }
            for word in UnreadFiles.words(bytes) {
                if scan.words[word] == nil { scan.words[word] = manifest }
                scan.namers[word, default: []].insert(manifest)
            }
        }
        var wordsOfTarget: [String: Set<String>] = [:]
        var listingsOfTarget: [String: [(String, Bool)]] = [:]
        for target in graph.targets {
            var all: Set<String> = []
            for file in files(of: target, linked: &scan.linked) {
                guard case .success(let bytes) = FileReading.read(FilePath.join(packageRoot, file), limit: 32 * 1024 * 1024) else {
                    scan.everything = "\(file) cannot be read"
                    return scan
                }
                let words = UnreadFiles.words(bytes)
                for word in words {
                    if scan.words[word] == nil { scan.words[word] = file }
                    scan.namers[word, default: []].insert(target.name)
                }
                all.formUnion(words)
                let text = String(decoding: bytes, as: UTF8.self)
                if Self.listingCalls.contains(where: text.contains) {
                    listingsOfTarget[target.name, default: []].append((file, Self.extensionFilters.contains(where: text.contains)))
                }
            }
            wordsOfTarget[target.name] = all
        }
        for target in graph.targets {
            let reach = dependencyClosure(of: target.name)
            let words = reach.reduce(into: Set<String>()) { $0.formUnion(wordsOfTarget[$1] ?? []) }
            for (file, filters) in listingsOfTarget[target.name] ?? [] { scan.listings.append((file, filters, words, target.name)) }
        }
        return scan
    }

    /// `Package.swift` and every `Package@swift-*.swift` of the package.
    static func manifests(in packageRoot: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: packageRoot)) ?? []
        return names.filter { $0 == "Package.swift" || ($0.hasPrefix("Package@swift") && $0.hasSuffix(".swift")) }.sorted()
    }

    /// The target and every target it depends on, through any chain.
    private func dependencyClosure(of name: String) -> Set<String> {
        var reached: Set<String> = [name]
        var next = [name]
        while let current = next.popLast() {
            for dependency in graph.targets.first(where: { $0.name == current })?.dependencies ?? [] where reached.insert(dependency).inserted {
                next.append(dependency)
            }
        }
        return reached
    }

    /// The package-relative files of `target`'s folder but its `.docc` catalogs (documentation a
    /// test does not read), without following links; each link is kept in `linked` with what it
    /// points at when that is in the package (a test reading through the link reads that).
    private func files(of target: PackageGraph.Target, linked: inout [(path: String, link: String)]) -> [String] {
        var found: [String] = []
        var folders = [target.path]
        let realRoot = FileSystem.realPath(packageRoot) ?? packageRoot
        while let folder = folders.popLast() {
            for name in ((try? FileManager.default.contentsOfDirectory(atPath: FilePath.join(packageRoot, folder))) ?? []).sorted() {
                let relative = "\(folder)/\(name)"
                let absolute = FilePath.join(packageRoot, relative)
                if RepositoryPath.isSymbolicLink(absolute) {
                    if let real = FileSystem.realPath(absolute), real.hasPrefix(realRoot + "/") {
                        linked.append((String(real.dropFirst(realRoot.count + 1)), relative))
                    } else {
                        // A link out of the package or dangling: it may reach any file, as a listing may.
                        linked.append(("", relative))
                    }
                    continue
                }
                if FileSystem.isDirectory(absolute) {
                    if !name.hasSuffix(".docc") && !SourceTree.isSkipped(folder: name) { folders.append(relative) }
                } else {
                    found.append(relative)
                }
            }
        }
        return found
    }
}
