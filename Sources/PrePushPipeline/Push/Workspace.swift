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
import PrePushResults
import PrePushTraceability

/// Where a push's stages run and write: the reports folder (claimed for this run, cleared of an
/// earlier run's reports), the export of the pushed commit for isolated and remote runs, and
/// whether the working tree holds the pushed commit. `cleanUp()` removes the export.
struct Workspace {
    /// The folder this run's logs and reports go to (a `runs/<pid>` folder inside the configured one
    /// when another run holds it).
    var reportsDirectory: String
    /// The export of the pushed commit (its tree is in `tree/`), for isolated and remote runs.
    var export: String?
    /// Whether the working tree holds exactly the pushed commit (checked only when a stage runs in it).
    var workingTreeMatches = true

    /// The folder the stages run in: the export's tree for an isolated run, else the repository.
    func treeRoot(isolated: Bool, repositoryRoot: String) -> String {
        isolated ? export.map { FilePath.join($0, "tree") } ?? repositoryRoot : repositoryRoot
    }

    /// Claims the reports folder and removes an earlier run's reports from it; says when another
    /// run holds the folder.
    static func claimReports(_ folder: String, diagnostics: Diagnostics, isTracked: (String) -> Bool) throws(PipelineError) -> Workspace {
        let claimed: (folder: String, busyWith: Int32??)
        do {
            try prepareReportsDirectory(folder, isTracked: isTracked)
            // Two pushes at once in one worktree must not splice each other's logs and reports.
            claimed = try ReportsFolderClaim.claim(folder)
        } catch {
            throw .reportsFolder(error.description)
        }
        if let other = claimed.busyWith {
            diagnostics.say("another prepush run\(other.map { " (pid \($0))" } ?? "") is writing to \(folder); this run's logs and reports go to \(claimed.folder)")
        }
        removeStaleReports(in: claimed.folder)
        return Workspace(reportsDirectory: claimed.folder)
    }

    /// What is tested is what is pushed: exports `commit` for an isolated or remote run; for a run in
    /// the working tree, notes how the tree differs from the commit.
    mutating func prepareTree(of commit: String, repository: Repository, exports: Bool, runsInWorkingTree: Bool,
                              cache: Bool, temporary: String, diagnostics: Diagnostics) throws(PipelineError) {
        if exports {
            // Only a run that exports lists the temporary folder (which can hold thousands of entries)
            // for the exports of killed runs.
            ExportFolder.removeLeftovers(in: temporary)
            let folder = ExportFolder.path(in: temporary)
            do {
                try repository.exportTree(of: commit, to: FilePath.join(folder, "tree"))
            } catch {
                throw .export(commit: commit, reason: ErrorText.describe(error))
            }
            export = folder
        }
        guard runsInWorkingTree else { return }
        // Only worth a status scan when a stage runs in the working tree.
        let differences = try? repository.workingTreeDifferences(from: commit)
        workingTreeMatches = differences?.isEmpty == true
        if let differences, !differences.isEmpty {
            let what = commit == "HEAD" ? "HEAD" : "the pushed commit \(commit.prefix(12))"
            // Which files, and that no verdict is used or kept: a stray untracked file otherwise reads as a cache that stopped working.
            let cached = cache ? ", and no cached verdict is used or kept" : ""
            diagnostics.note("the working tree differs from \(what) (\(differences.joined(separator: ", "))); local stages run in the working tree\(cached) (--isolated runs them on the commit)")
        }
    }

    /// Writes the files the plan gives the stages (a shard's test list).
    func write(_ files: [(path: String, contents: String)]) throws(PipelineError) {
        for (path, contents) in files {
            do {
                try ReportPublisher.writeWhole(contents, to: path)
            } catch {
                throw .shard("cannot write \(path): \(ErrorText.describe(error))")
            }
        }
    }

    /// Removes the export, if any.
    func cleanUp() {
        if let export { try? FileManager.default.removeItem(atPath: export) }
    }

    /// The first line of the `.gitignore` prepush writes into its reports folder; it marks the folder as prepush's.
    static let reportsFolderMark = "# Written by prepush: reports are build output."

    /// Why a reports folder is not used.
    struct ReportsFolderProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// Creates the reports folder; a `.gitignore` of `*` inside keeps reports out of `git status`
    /// without touching the user's own ignore files. A folder that is a symlink, or that already
    /// holds files prepush did not write (`Sources`, say), is refused: that `*` would hide the
    /// user's files from git, and the reports would overwrite theirs. A mark that git tracks is
    /// the repository's (a pull request can commit one), not prepush's: `isTracked` tells.
    static func prepareReportsDirectory(_ path: String, isTracked: (String) -> Bool) throws(ReportsFolderProblem) {
        if RepositoryPath.isSymbolicLink(path) {
            throw ReportsFolderProblem(description: "\(path) is a symbolic link; give the reports a real folder")
        }
        let ignore = FilePath.join(path, ".gitignore")
        if FileSystem.isDirectory(path) {
            var marked = (try? FileReading.read(ignore, limit: 4096).get())
                .map { String(decoding: $0, as: UTF8.self).hasPrefix(reportsFolderMark) } ?? false
            if marked, isTracked(ignore) {
                throw ReportsFolderProblem(description: "\(ignore) is tracked by git: the folder is the repository's, not one prepush made; give the reports a folder of their own")
            }
            marked = marked && !RepositoryPath.isSymbolicLink(ignore)
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            if !marked, !entries.isEmpty {
                let named = entries.sorted().prefix(3).joined(separator: ", ") + (entries.count > 3 ? ", …" : "")
                throw ReportsFolderProblem(description: "\(path) already holds files prepush did not write (\(named)); give the reports a new or empty folder")
            }
            if marked { return }
        } else if FileManager.default.fileExists(atPath: path) {
            throw ReportsFolderProblem(description: "\(path) is a file, not a folder")
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            try AtomicFile.write("\(reportsFolderMark)\n*\n", to: ignore)
        } catch {
            throw ReportsFolderProblem(description: "cannot create \(path): \(ErrorText.describe(error))")
        }
    }

    /// Report files of an earlier run, which must not pass for this run's.
    static func removeStaleReports(in folder: String) {
        for format in ReportFormat.pushFormats {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, format.fileName))
        }
        // A stage's log from an earlier run would pass for this run's when the stage does not run now.
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where entry.hasSuffix(".log") {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, entry))
        }
        for format in TraceabilityFormat.allCases {
            try? FileManager.default.removeItem(atPath: FilePath.join(folder, "traceability.\(format.fileExtension)"))
        }
    }
}

/// The right to write a reports folder, held (with `flock`) until the process ends. A second run in
/// the same worktree does not wait for the first: it writes into `runs/<pid>` inside the folder and
/// says so, so each run's log path holds its own output.
enum ReportsFolderClaim {
    /// Lock files kept open for the life of the process: closing one would release its lock. Only
    /// the pipeline's own thread claims folders, once per run, so this needs no lock of its own.
    nonisolated(unsafe) private static var held: [Int32] = []

    /// The folder this run writes, and the pid of the run that holds `folder` when it is not this one.
    static func claim(_ folder: String) throws(Workspace.ReportsFolderProblem) -> (folder: String, busyWith: Int32??) {
        if try lock(folder) {
            removeFinishedRuns(in: FilePath.join(folder, "runs"))
            return (folder, nil)
        }
        let holder = (try? FileReading.read(FilePath.join(folder, ".lock"), limit: 64).get())
            .flatMap { Int32(TextFormatting.trimmed(String(decoding: $0, as: UTF8.self))) }
        let runs = FilePath.join(folder, "runs")
        guard !RepositoryPath.isSymbolicLink(runs) else {
            throw Workspace.ReportsFolderProblem(description: "\(runs) is a symbolic link; prepush writes only into folders it made")
        }
        let own = FilePath.join(runs, String(getpid()))
        try Workspace.prepareReportsDirectory(own, isTracked: { _ in false })
        _ = try lock(own)
        return (own, .some(holder))
    }

    /// Takes the folder's lock without waiting; false when another process holds it.
    private static func lock(_ folder: String) throws(Workspace.ReportsFolderProblem) -> Bool {
        let path = FilePath.join(folder, ".lock")
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else {
            throw Workspace.ReportsFolderProblem(description: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return false
        }
        _ = ftruncate(fd, 0)
        FileSystem.write("\(getpid())\n", to: fd)
        held.append(fd)
        return true
    }

    /// Removes the folders of earlier concurrent runs that have ended (their lock is free). `runs`
    /// and each folder in it are looked at with `lstat` and never followed: a symbolic link there
    /// (a pull request can commit one) would point the removal anywhere.
    private static func removeFinishedRuns(in runs: String) {
        guard isRealDirectory(runs), let entries = try? FileManager.default.contentsOfDirectory(atPath: runs) else { return }
        for entry in entries where Int32(entry) != nil && Int32(entry) != getpid() {
            let folder = FilePath.join(runs, entry)
            guard isRealDirectory(folder) else { continue }
            let fd = open(FilePath.join(folder, ".lock"), O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            if flock(fd, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: folder) }
        }
    }
}

/// Whether `path` itself (not followed) is a directory.
private func isRealDirectory(_ path: String) -> Bool {
    var info = stat()
    return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
}

/// The export of the pushed commit for isolated and remote runs, named after the run's pid so that
/// the next run can remove one a killed run left behind.
enum ExportFolder {
    static let prefix = "prepush-export-"

    /// A new export folder's path in `temporary`.
    static func path(in temporary: String) -> String {
        FilePath.join(temporary, "\(prefix)\(getpid())-\(UUID().uuidString.prefix(8))")
    }

    /// Removes export folders whose run is no longer alive (`kill -9`, a crash); a folder of a live
    /// run, or one whose pid cannot be told, is left alone.
    static func removeLeftovers(in temporary: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: temporary) else { return }
        for entry in entries where entry.hasPrefix(prefix) {
            let rest = entry.dropFirst(prefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0, pid != getpid() else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                try? FileManager.default.removeItem(atPath: FilePath.join(temporary, entry))
            }
        }
    }
}
