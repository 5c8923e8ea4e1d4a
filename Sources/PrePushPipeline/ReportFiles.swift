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
import PrePushCore
import PrePushGit
import PrePushResults

/// The files commands write and read back under a checkout, through its one confined layer
/// (`Checkout`), and the provenance that tells a report of this run from a file a pull request
/// committed or a stage left: `provenance.json` beside the reports lists what the run wrote, with
/// the SHA-256 of each file, and the run (commit, CI run, attempt, job) that wrote it.
enum ReportFiles {
    /// The checkout of `repository` (nil for a bare one): git's index says what is tracked.
    static func checkout(of repository: Repository) -> Checkout? {
        guard let root = repository.workingDirectory else { return nil }
        return Checkout(root: root) { repository.isTracked($0) }
    }

    /// The repository around `here` and its checkout, or nil outside a repository.
    static func checkout(around here: String) -> (repository: Repository, checkout: Checkout)? {
        GitLibrary.initialize()
        guard let repository = try? Repository.discover(from: here), let checkout = checkout(of: repository) else { return nil }
        return (repository, checkout)
    }

    /// This process's run: the checkout's HEAD and the CI system's run and job.
    static func provenance(of repository: Repository?, environment: [String: String]) -> RunProvenance {
        RunProvenance.current(commit: repository.flatMap { try? $0.commitID("HEAD") }, environment: environment)
    }

    /// Writes `provenance.json` into `folder` (absolute) listing `written` (absolute paths of files
    /// in that folder) with their digests. A manifest of the same run already there keeps its other
    /// entries (a merge job's `results` and then `report` into one folder) unless `replacing` (a
    /// push lists all it wrote at once); any other is replaced. With `onlyJoining` (a file named
    /// alone, anywhere) nothing is written unless such a manifest is there to join.
    static func recordManifest(folder: String, written: [String], provenance: RunProvenance, shard: String?,
                               checkout: Checkout?, replacing: Bool = false, onlyJoining: Bool = false) throws(Checkout.Problem) {
        let manifestPath = FilePath.join(folder, ReportManifest.fileName)
        var manifest = ReportManifest(provenance: provenance, shard: shard)
        var joined = false
        if !replacing, case .success(let bytes) = read(manifestPath, checkout: checkout, limit: 1 << 20),
           let earlier = ReportManifest.parse(bytes), earlier.provenance == provenance {
            manifest.files = earlier.files
            joined = true
        }
        if onlyJoining && !joined { return }
        for path in written where FilePath.parent(path) == FilePath.normalize(folder) {
            let name = String(path.split(separator: "/").last ?? "")
            guard name != ReportManifest.fileName else { continue }
            manifest.files[name] = digest(path, checkout: checkout)
        }
        let text = Array(manifest.render().utf8)
        try Checkout.write(to: manifestPath, in: checkout) { fd in text.withUnsafeBytes { FileSystem.write($0, to: fd) } }
    }

    /// The SHA-256 of the file at `path` (absolute), read a piece at a time: confined inside the
    /// checkout, as given outside it; nil when it cannot be read.
    static func digest(_ path: String, checkout: Checkout?) -> String? {
        if let checkout, let relative = checkout.relative(path, from: checkout.root) {
            return try? checkout.digest(relative, untrackedOnly: true).get()
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        return SHA256.hex(readingToEnd: fd)
    }

    /// The bytes of the file at `path` (absolute): confined and never a tracked file inside the
    /// checkout, as given outside it.
    static func read(_ path: String, checkout: Checkout?, limit: Int) -> Result<[UInt8], Checkout.Problem> {
        if let checkout, let relative = checkout.relative(path, from: checkout.root) {
            return checkout.read(relative, limit: limit, untrackedOnly: true)
        }
        switch FileReading.read(path, limit: limit) {
        case .success(let bytes): return .success(bytes)
        case .failure(.missing): return .failure(.missing(path))
        case .failure(.tooLarge(let bytes, let limit)): return .failure(.tooLarge(path, bytes: bytes, limit: limit))
        case .failure(let problem): return .failure(.system(path, reason: problem.description))
        }
    }

    /// The bytes of the report at `path` (absolute) when this run wrote it: listed in its folder's
    /// `provenance.json` with these very bytes' digest, by the run `reader` (with `sameJob`, the same
    /// job and attempt too). Otherwise why not, in words that name the file as `shown`.
    static func readOwnReport(_ path: String, shown: String, checkout: Checkout?, reader: RunProvenance, sameJob: Bool,
                              limit: Int) -> Result<[UInt8], RefusedReport> {
        // Nothing there at all (a report the run had no reason to write) is said apart from a refusal.
        let missing: Bool
        if let checkout, let relative = checkout.relative(path, from: checkout.root) {
            if case .missing? = checkout.problem(reading: relative) { missing = true } else { missing = false }
        } else {
            missing = !FileManager.default.fileExists(atPath: path)
        }
        if missing { return .failure(RefusedReport(file: shown, reason: "it does not exist", absent: true)) }
        let manifestPath = FilePath.join(FilePath.parent(path), ReportManifest.fileName)
        let manifest: ReportManifest
        switch read(manifestPath, checkout: checkout, limit: 1 << 20) {
        case .success(let bytes):
            guard let parsed = ReportManifest.parse(bytes) else {
                return .failure(RefusedReport(file: shown, reason: "its folder's \(ReportManifest.fileName) is not one prepush wrote"))
            }
            manifest = parsed
        case .failure(.missing):
            return .failure(RefusedReport(file: shown, reason: "its folder has no \(ReportManifest.fileName): no run of prepush wrote it"))
        case .failure(let problem):
            return .failure(RefusedReport(file: shown, reason: "its folder's \(ReportManifest.fileName): \(problem)"))
        }
        if let mismatch = manifest.provenance.mismatch(with: reader, sameJob: sameJob) {
            return .failure(RefusedReport(file: shown, reason: "it is not a report of this run: \(mismatch)"))
        }
        let name = String(path.split(separator: "/").last ?? "")
        guard let digest = manifest.files[name] else {
            return .failure(RefusedReport(file: shown, reason: "this run of prepush did not write it (\(ReportManifest.fileName) does not list it)",
                                          absent: true))
        }
        switch read(path, checkout: checkout, limit: limit) {
        case .success(let bytes):
            guard SHA256.hex(bytes) == digest else {
                return .failure(RefusedReport(file: shown, reason: "it changed after this run of prepush wrote it (its SHA-256 is not the one \(ReportManifest.fileName) lists)"))
            }
            return .success(bytes)
        case .failure(let problem):
            return .failure(RefusedReport(file: shown, reason: problem.description))
        }
    }

    /// A file refused as a report of this run, and why.
    struct RefusedReport: Error, CustomStringConvertible {
        let file: String
        let reason: String
        /// Nothing of this run is there: no file, or one the run's manifest does not list (a report
        /// the run had no reason to write, such as traceability.md without a catalog).
        var absent = false
        var description: String { "\(file) is refused: \(reason)" }
    }
}
