#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushTraceability

/// What every step of a push shares: the request, the repository, the diagnostics sink, and what
/// the push sends (its ref lines and changed files, read once).
final class PushContext {
    /// The run's request.
    let request: PipelineRequest
    /// The repository, opened as git would (`GIT_DIR` in hooks).
    let repository: Repository
    /// Notes, warnings and errors.
    let diagnostics: Diagnostics
    /// The repository's root (the current folder for a bare repository, which has none).
    let root: String

    init(request: PipelineRequest, repository: Repository, diagnostics: Diagnostics) {
        self.request = request
        self.repository = repository
        self.diagnostics = diagnostics
        root = repository.workingDirectory ?? request.here
    }

    /// Where the run writes.
    var console: Console { diagnostics.console }
    /// The one confined way the run writes under the checkout (nil for a bare repository).
    var checkout: Checkout? { ReportFiles.checkout(of: repository) }
    /// The run that writes this push's reports: the tested commit, and the CI run and job.
    var provenance: RunProvenance {
        RunProvenance.current(commit: try? repository.commitID(pushedCommit), environment: request.environment)
    }
    /// Whether git runs prepush as its pre-push hook (a push is refused) rather than `prepush run`.
    var isHook: Bool { request.hook != nil }
    /// The commit a run tests: the first pushed ref's, else HEAD.
    var pushedCommit: String { request.hook?.updates?.first { !$0.isDeletion }?.localObjectID ?? "HEAD" }

    /// Asks for the toolchain while the stages run, for the traceability report's stamp.
    private(set) var toolchainProbe: ToolchainProbe?

    /// Starts asking for the toolchain (a run with a scenario catalog).
    func probeToolchain() {
        if toolchainProbe == nil { toolchainProbe = ToolchainProbe(environment: request.environment) }
    }

    /// What the reports of this run describe: the pushed commit and branch, now, and the toolchain.
    func reportStamp() -> ReportStamp {
        let pushed = request.hook?.updates?.first { !$0.isDeletion }
        let branch = pushed.map { $0.localRef.hasPrefix("refs/heads/") ? String($0.localRef.dropFirst(11)) : $0.localRef } ?? repository.currentBranch
        return ReportStamp(commit: try? repository.commitID(pushedCommit), branch: branch, date: ReportStamp.now(),
                           toolchain: toolchainProbe?.toolchain, inPush: isHook)
    }

    /// The run history's file (the strips of the traceability report read it).
    var historyPath: String { RunHistory.path(commonDirectory: repository.commonDirectory) }

    private var changedFilesRead: [String]??

    /// Every file the push (or, for `prepush run`, a push of the current branch, or `--base`)
    /// changes, read once; nil when that cannot be told (a detached HEAD with no `--base`, an
    /// unreadable range).
    func changedFiles() -> [String]? {
        if let changedFilesRead { return changedFilesRead }
        let files = readChangedFiles()
        changedFilesRead = .some(files)
        return files
    }

    private func readChangedFiles() -> [String]? {
        if let checkRange = request.checkRange {
            return (try? repository.range(base: checkRange.base, head: checkRange.head, lineDetail: false))?.files.map(\.path)
        }
        guard let updates = pushedUpdates() else { return nil }
        var files: Set<String> = []
        for (remote, update) in updates where !update.isDeletion {
            guard let range = try? repository.pushRange(for: update, remote: remote, lineDetail: false) else { return nil }
            for file in range.files {
                files.insert(file.path)
                if let old = file.oldPath { files.insert(old) }
            }
        }
        return files.sorted()
    }

    /// The ref lines of the push; for `prepush run`, what `git push` of the current branch would
    /// send; nil when there is no current branch to push (an unborn or detached HEAD).
    func pushedUpdates() -> [(remote: String, update: PushUpdate)]? {
        if let hook = request.hook { return (hook.updates ?? []).map { (hook.remoteName, $0) } }
        guard let current = try? repository.pushUpdateForCurrentBranch() else { return nil }
        return [current]
    }

    /// The ranges the accessibility check reads: each ref line of a push; for `prepush run`, `--base`
    /// or what `git push` of the current branch would send.
    func accessibilityRanges(_ step: AccessibilityStep) throws(PipelineError) -> [PushRange] {
        let selecting: @Sendable (String) -> Bool = { step.selects($0) }
        if let checkRange = request.checkRange {
            do {
                return [try repository.range(base: checkRange.base, head: checkRange.head, selecting: selecting)]
            } catch {
                throw .range(base: checkRange.base, head: checkRange.head, reason: ErrorText.describe(error))
            }
        }
        let updates: [(remote: String, update: PushUpdate)]
        if let pushed = pushedUpdates() {
            updates = pushed
        } else {
            // An unborn branch has nothing to push; a detached HEAD has no upstream to compare with.
            if repository.isHeadDetached { diagnostics.note("HEAD is not on a branch; the accessibility check needs --base REF here") }
            updates = []
        }
        var ranges: [PushRange] = []
        var checked: Set<[String]> = []
        for (remote, update) in updates {
            // Several refs pushing the same commit from the same remote state are one check.
            guard checked.insert([update.localObjectID, update.remoteObjectID]).inserted else { continue }
            do {
                if let range = try repository.pushRange(for: update, remote: remote, selecting: selecting) { ranges.append(range) }
            } catch {
                diagnostics.warning("cannot compute what \(update.remoteRef) sends (\(ErrorText.describe(error))); the accessibility check skips it")
            }
        }
        return ranges
    }

    /// The accessibility check over the push's ranges: prints the findings (and GitHub annotations),
    /// returns the refusal when any has severity error.
    func checkAccessibility(_ step: AccessibilityStep, verbose: Bool) throws(PipelineError) -> Refusal? {
        var findings: [AccessibilityFinding] = []
        for range in try accessibilityRanges(step) {
            if verbose { diagnostics.say("accessibility: \(TextFormatting.count(range.commits.count, "commit")); base: \(range.baseDescription)") }
            let result = step.check(range, in: repository, allLines: request.flags.allLines)
            // Ranges of different refs can share files: each finding is reported once.
            findings += result.findings.filter { !findings.contains($0) }
            for note in result.notes { diagnostics.note(note) }
        }
        for note in step.identifiers.notes { diagnostics.note(note) }
        for finding in findings { console.line(AccessibilityStep.line(finding), tone: finding.severity == .error ? .bad : .warning) }
        if request.environment["GITHUB_ACTIONS"] == "true" {
            for finding in findings { console.command(AccessibilityStep.annotation(finding)) }
        }
        let blocking = findings.filter { $0.severity == .error }.count
        return blocking > 0 ? .accessibility(findings: blocking) : nil
    }
}
