#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushRunner

/// Passing verdicts of earlier runs, so that a push of a tree that already passed with the same
/// inputs (a tag on a verified commit, the same commit to a second remote, a rebase that lands on
/// an identical tree) runs no stage again.
///
/// An entry is keyed by everything that decides a stage's result: the tested tree, the stage's
/// command, timeout, folder and `env`, the values of the variables it names in `cacheEnvironment`
/// (and `DEVELOPER_DIR`), the configuration file's bytes, where the stage runs (a remote Mac), and
/// the toolchain's identity (`swift --version`, `xcodebuild -version`). Only passes are stored.
/// Entries live in the common git folder (`.git/prepush/verdicts`), never in the working tree.
struct VerdictCache {
    /// Where entries and the toolchain memo live.
    let folder: String

    /// The store of a repository.
    init(repository: Repository) {
        folder = FilePath.join(repository.commonDirectory, "prepush")
    }

    init(folder: String) {
        self.folder = folder
    }

    var verdictsFolder: String { FilePath.join(folder, "verdicts") }

    /// One stored pass.
    struct Entry: Codable, Equatable {
        /// Format version; another value is a miss.
        var version = 1
        var key: String
        var stage: String
        var tree: String
        /// Seconds since 1970 when the stage passed.
        var passedAt: Double
        /// Seconds the stage took.
        var duration: Double
        /// The tests it showed, reported again when the verdict is reused.
        var tests: TestRun
    }

    /// What a lookup found.
    enum Lookup {
        case hit(Entry)
        case miss
        /// The entry exists and cannot be read: a warning, then a miss.
        case unreadable(path: String, reason: String)
    }

    /// The key of `stage` run on `tree` with prepush's `environment`.
    static func key(stage: StageSettings, tree: String, repositoryRoot: String, environment: [String: String],
                    configurationBytes: [UInt8]?, remote: String?, toolchain: String) -> String {
        var text = "prepush verdict key 1\n"
        text += "stage \(stage.kind.rawValue)\ntree \(tree)\n"
        text += "command \(stage.command)\ntimeout \(stage.timeout)\n"
        text += "folder \(FilePath.relative(stage.workingDirectory, to: repositoryRoot))\n"
        for entry in stage.environment { text += "env \(entry.name)=\(entry.value)\n" }
        for name in (stage.cacheEnvironment + ["DEVELOPER_DIR"]) {
            text += "input \(name)\(environment[name].map { "=\($0)" } ?? " unset")\n"
        }
        text += "configuration \(configurationBytes.map { Repository.contentHash($0) } ?? "none")\n"
        text += "remote \(remote ?? "none")\n"
        text += "toolchain\n\(toolchain)\n"
        return Repository.contentHash(Array(text.utf8))
    }

    private func entryPath(_ key: String) -> String { FilePath.join(verdictsFolder, "\(key).json") }

    /// The stored pass for `key`, if any.
    func lookup(_ key: String) -> Lookup {
        let path = entryPath(key)
        switch FileReading.read(path, limit: 256 * 1024 * 1024) {
        case .failure(let problem):
            if !FileManager.default.fileExists(atPath: path) && !RepositoryPath.isSymbolicLink(path) { return .miss }
            return .unreadable(path: path, reason: problem.description)
        case .success(let bytes):
            do {
                let entry = try JSONDecoder().decode(Entry.self, from: Data(bytes))
                guard entry.version == 1, entry.key == key else {
                    return .unreadable(path: path, reason: "it is not the entry of this key")
                }
                return .hit(entry)
            } catch {
                return .unreadable(path: path, reason: "not a verdict entry (\(ErrorText.describe(error)))")
            }
        }
    }

    /// Stores a pass; written whole to a temporary file and renamed, so a killed run leaves no half entry.
    /// Failures to write are returned for a warning: the cache never fails a run.
    func store(_ entry: Entry, own: OwnVerdicts? = nil) -> String? {
        do {
            try FileManager.default.createDirectory(atPath: verdictsFolder, withIntermediateDirectories: true)
            try AtomicFile.write(Array(try JSONEncoder().encode(entry)), to: entryPath(entry.key))
            if let own, let identity = FileSystem.identity(of: entryPath(entry.key)) { own.record("\(entry.key).json", identity) }
            removeOldEntries()
            return nil
        } catch {
            return "cannot store the verdict in \(verdictsFolder): \(ErrorText.describe(error))"
        }
    }


    /// The entries in the folder now, by name, each with its `FileSystem.identity`.
    func snapshot() -> [String: String] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: verdictsFolder) else { return [:] }
        var entries: [String: String] = [:]
        for name in names {
            if let identity = FileSystem.identity(of: FilePath.join(verdictsFolder, name)) { entries[name] = identity }
        }
        return entries
    }

    /// Removes the entries that appeared or changed since `before` and that this run did not write
    /// itself (`own`): only prepush, after a stage passed, vouches for a tree, and a stage that wrote
    /// a pass of its own (`.git/prepush` is within its reach) must not be believed at the next push.
    /// Returns the names removed.
    func discardForeign(since before: [String: String], own: OwnVerdicts) -> [String] {
        var removed: [String] = []
        for (name, identity) in snapshot() where before[name] != identity && !own.wrote(name, identity) {
            unlink(FilePath.join(verdictsFolder, name))
            removed.append(name)
        }
        return removed.sorted()
    }

    /// The entries this process stored, with the identity each had right after: a parallel stage's
    /// pass is not taken for one another stage planted.
    final class OwnVerdicts: @unchecked Sendable {
        private let lock = Lock()
        private var written: [String: String] = [:]

        func record(_ name: String, _ identity: String) {
            lock.withLock { written[name] = identity }
        }

        func wrote(_ name: String, _ identity: String) -> Bool {
            lock.withLock { written[name] == identity }
        }
    }

    /// Entries older than this are removed when a new one is stored, so the folder does not grow without end.
    static let maximumAge: Double = 30 * 24 * 3600

    private func removeOldEntries() {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: verdictsFolder) else { return }
        let now = Date().timeIntervalSince1970
        for name in names {
            let path = FilePath.join(verdictsFolder, name)
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if now - Double(info.st_mtim.tv_sec) > Self.maximumAge { unlink(path) }
        }
    }

    /// Removes every entry and the toolchain memo; returns how many verdicts there were.
    func clear() throws -> Int {
        let count = ((try? FileManager.default.contentsOfDirectory(atPath: verdictsFolder)) ?? []).filter { $0.hasSuffix(".json") }.count
        if FileManager.default.fileExists(atPath: folder) { try FileManager.default.removeItem(atPath: folder) }
        return count
    }

    // MARK: - The toolchain's identity

    /// The tools whose version decides a Swift or Xcode project's test results.
    static let toolchainTools: [(name: String, versionArgument: String)] = [("swift", "--version"), ("xcodebuild", "-version")]

    /// What `swift --version` and `xcodebuild -version` print for the tools found on the stage's
    /// `PATH`. Running them costs a quarter of a second or more, so each output is remembered by
    /// the tool's resolved path, size, modification time and inode (and, for xcodebuild, the
    /// selected Xcode), and run again only when one of those changes.
    func toolchainIdentity(environment: [String: String]) -> String {
        var lines: [String] = []
        for tool in Self.toolchainTools {
            guard let path = ProgramLookup.executable(named: tool.name, path: environment["PATH"] ?? "/usr/bin:/bin") else { continue }
            let resolved = FileSystem.realPath(path) ?? path
            var info = stat()
            guard stat(resolved, &info) == 0 else { continue }
            var memoKey = "\(resolved) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec) \(info.st_ino)"
            if tool.name == "xcodebuild" {
                // /usr/bin/xcodebuild is a shim: the Xcode it runs is chosen by these.
                memoKey += " \(environment["DEVELOPER_DIR"] ?? "") \(FileSystem.realPath("/var/db/xcode_select_link") ?? "")"
            }
            let memo = FilePath.join(FilePath.join(folder, "toolchains"), Repository.contentHash(Array(memoKey.utf8)))
            if case .success(let bytes) = FileReading.read(memo, limit: 64 * 1024) {
                lines.append("\(tool.name): \(String(decoding: bytes, as: UTF8.self))")
                continue
            }
            guard let output = Self.versionOutput(path, argument: tool.versionArgument, environment: environment) else {
                lines.append("\(tool.name): \(memoKey)")
                continue
            }
            try? FileManager.default.createDirectory(atPath: FilePath.join(folder, "toolchains"), withIntermediateDirectories: true)
            try? AtomicFile.write(output, to: memo)
            lines.append("\(tool.name): \(output)")
        }
        return lines.joined(separator: "\n")
    }

    /// The tool's version output, or nil when it does not run or fails.
    private static func versionOutput(_ executable: String, argument: String, environment: [String: String]) -> String? {
        // swift-driver leaves a `TemporaryDirectory.*` folder in TMPDIR on every call: give it one of
        // its own and remove that, so the user's temporary folder does not fill up.
        let scratch = FilePath.join(environment["TMPDIR"] ?? "/tmp", "prepush-version-\(getpid())-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var environment = environment
        environment["TMPDIR"] = scratch
        let spec = ProcessSpec(executable: executable, arguments: [argument], environment: environment)
        guard let ran = try? CommandOutput.run(spec, timeout: 60, killGracePeriod: 1, outputLimit: 64 * 1024, errorLimit: 0),
              ran.succeeded else { return nil }
        return ran.text
    }

    // MARK: - Saying it

    /// `17:02` today, `2026-11-20 17:02` another day, in local time.
    static func time(_ secondsSince1970: Double, now: Double = Date().timeIntervalSince1970) -> String {
        func parts(_ seconds: Double) -> tm {
            var time = time_t(seconds)
            var parts = tm()
            localtime_r(&time, &parts)
            return parts
        }
        let then = parts(secondsSince1970)
        let today = parts(now)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(two(then.tm_hour)):\(two(then.tm_min))"
        if then.tm_year == today.tm_year && then.tm_yday == today.tm_yday { return clock }
        return "\(then.tm_year + 1900)-\(two(then.tm_mon + 1))-\(two(then.tm_mday)) \(clock)"
    }
}
