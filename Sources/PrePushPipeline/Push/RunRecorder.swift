#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushTraceability

/// Step 7b of a push: every stage that ran is remembered in `.git/prepush/history.sqlite` (its tree,
/// commit, status, time, and each test's status, duration and attempts), for `prepush flaky`,
/// `prepush history` and shard timings. A history that cannot be written is a warning, never a
/// failed push; `PREPUSH_HISTORY=0` turns it off.
enum RunRecorder {
    static func record(_ results: [StageResult], context: PushContext, workspace: Workspace, identities: IdentitySource,
                       diagnostics: Diagnostics) {
        let ran = results.filter { $0.cachedFrom == nil }
        guard !ran.isEmpty, BooleanWord.parse(context.request.environment["PREPUSH_HISTORY"] ?? "1") != false else { return }
        let commit = try? context.repository.commitID(context.pushedCommit)
        // The tree is known only when the stages tested exactly the commit.
        let tree = workspace.workingTreeMatches ? try? context.repository.treeID(of: context.pushedCommit) : nil
        let now = Date().timeIntervalSince1970
        let path = RunHistory.path(commonDirectory: context.repository.commonDirectory)
        do {
            let history = try RunHistory(path: path)
            // Rows an older prepush recorded under the console's names take their test's one identity, once.
            if history.namesNeedMigration { try history.migrateNames(identities.identities.identityOfShortName) }
            for result in ran {
                try history.record(RecordedRun(started: now - result.duration, tree: tree, commit: commit, stage: result.kind.rawValue,
                                               status: result.status == .passed ? "passed" : "failed", duration: result.duration,
                                               origin: context.isHook ? "push" : "run", tests: recorded(result.tests)))
            }
            for note in history.notes { diagnostics.note(note) }
        } catch {
            diagnostics.warning("the run history \(path) was not written: \(error)")
        }
    }

    /// The tests of a run as the history keeps them.
    static func recorded(_ run: TestRun) -> [RecordedTest] {
        run.results.map {
            RecordedTest(identifier: $0.testIdentifier, status: $0.recordedStatus, duration: $0.duration, attempts: $0.attempts)
        }
    }
}
