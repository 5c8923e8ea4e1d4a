#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushCore

/// Every test of a recording run alone, in parallel up to the cores, each reduced to the names of
/// the functions it executed as soon as it ends (its raw profiles are then removed: 549 tests'
/// profiles would take gigabytes).
///
/// A test that starts one of the package's executables with an environment of its own drops
/// `LLVM_PROFILE_FILE`: the child writes `default.profraw` into its working folder, the package
/// root, where it would dirty the checkout and its coverage would be lost. Runs in parallel cannot
/// tell whose it is, so every test that was running when one appeared runs again afterwards, alone,
/// and the file its run leaves is moved into that test's own profiles. Only a file recording made
/// is removed: one that was there before is left as it is (and its children's coverage is then lost).
final class TestRuns: @unchecked Sendable {
    let launcher: TestLauncher
    /// Reads each test's raw profiles, in-process where it can (the toolchain's tools otherwise).
    let profileNames: RawProfileNames
    /// Each test's profiles go to `folder/<index>`.
    let folder: String
    let diagnostics: Diagnostics
    /// Where a child that dropped the profile settings writes its profile.
    let droppedProfile: String
    /// A `default.profraw` was in the package root before recording began: it is not recording's to move.
    let droppedProfileWasThere: Bool

    private let lock = Lock()
    private var running: Set<Int> = []
    private var suspects: Set<Int> = []
    private var finished = 0
    /// One raw profile of the test bundle, kept for `llvm-cov export` (the mapping it needs is in the
    /// binaries; any profile of them will do).
    private(set) var referenceProfile: String?

    init(launcher: TestLauncher, tools: CoverageTools, folder: String, packageRoot: String, diagnostics: Diagnostics) {
        self.launcher = launcher
        profileNames = RawProfileNames(tools: tools, environment: launcher.environment)
        self.folder = folder
        self.diagnostics = diagnostics
        droppedProfile = FilePath.join(packageRoot, "default.profraw")
        droppedProfileWasThere = FileManager.default.fileExists(atPath: droppedProfile)
    }

    /// Runs every test and returns each one's outcome, in the order of `tests`.
    func runAll(_ tests: [ListedTest]) -> [ImpactRecorder.TestOutcome] {
        if droppedProfileWasThere {
            diagnostics.warning("impact: \(droppedProfile) was there before recording: it is left as it is, and the coverage of executables a test starts with an environment of its own is not recorded")
        }
        diagnostics.say("impact: running \(TextFormatting.count(tests.count, "test")) one by one, \(Self.width) at a time", tone: .quiet)
        var outcomes = Concurrently.map(Array(tests.indices)) { index in
            self.run(tests[index], index: index, total: tests.count, watching: !self.droppedProfileWasThere)
        }
        if diagnostics.console.errorsAreTerminal { diagnostics.progress("") }
        let again = lock.withLock { suspects.sorted() }
        if !again.isEmpty {
            let which = again.count == 1 ? "it" : "them"
            diagnostics.say("impact: \(TextFormatting.count(again.count, "test")) ran while a child wrote \(droppedProfile) (an environment without LLVM_PROFILE_FILE): running \(which) again, one at a time", tone: .quiet)
            lock.withLock { finished = 0 }
            for index in again { outcomes[index] = run(tests[index], index: index, total: again.count, watching: false, alone: true) }
        }
        // Runs beside others have been seen to end by a signal (SIGINT) or with a profile that cannot
        // be read, tests that pass alone: given one more run alone, so they are mapped, not unknown.
        let retried = outcomes.indices.filter { outcomes[$0].worthRunningAlone && !again.contains($0) }
        if !retried.isEmpty {
            if diagnostics.console.errorsAreTerminal { diagnostics.progress("") }
            diagnostics.say("impact: \(TextFormatting.count(retried.count, "test")) ended by a signal or with an unreadable profile beside others: running \(retried.count == 1 ? "it" : "them") again alone", tone: .quiet)
            lock.withLock { finished = 0 }
            for index in retried { outcomes[index] = run(tests[index], index: index, total: retried.count, watching: false, alone: true) }
        }
        if diagnostics.console.errorsAreTerminal { diagnostics.progress("") }
        return outcomes
    }

    /// Tests at a time: one per core, as `Concurrently` runs them.
    static var width: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    private func run(_ test: ListedTest, index: Int, total: Int, watching: Bool, alone: Bool = false) -> ImpactRecorder.TestOutcome {
        let own = FilePath.join(folder, String(index))
        try? FileManager.default.removeItem(atPath: own)
        try? FileManager.default.createDirectory(atPath: own, withIntermediateDirectories: true)
        if watching { lock.withLock { _ = running.insert(index) } }
        var unknown = launcher.run(test, folder: own)
        var worthRunningAlone = unknown?.hasPrefix(TestLauncher.crashed) == true
        if watching {
            lock.withLock {
                running.remove(index)
                // Written by this test's child or by one of a test still running: all of them run again alone.
                if FileManager.default.fileExists(atPath: droppedProfile) {
                    suspects.formUnion(running)
                    suspects.insert(index)
                    try? FileManager.default.removeItem(atPath: droppedProfile)
                }
            }
        }
        if alone, !droppedProfileWasThere, FileManager.default.fileExists(atPath: droppedProfile) {
            _ = rename(droppedProfile, FilePath.join(own, "dropped-environment.profraw"))
        }
        let profiles = ((try? FileManager.default.contentsOfDirectory(atPath: own)) ?? []).filter { $0.hasSuffix(".profraw") }.sorted()
            .map { FilePath.join(own, $0) }
        var executed: Set<String> = []
        if profiles.isEmpty {
            unknown = unknown ?? "wrote no profile"
        } else if let names = profileNames.executedFunctions(in: profiles) {
            executed = names
            keepReference(profiles, of: own)
        } else {
            worthRunningAlone = worthRunningAlone || unknown == nil
            unknown = unknown ?? "its profile could not be read by llvm-profdata"
        }
        for profile in profiles { try? FileManager.default.removeItem(atPath: profile) }
        let done = lock.withLock { finished += 1; return finished }
        // Rewritten in place on a terminal only: in a log, 549 lines of progress would bury the summary.
        if diagnostics.console.errorsAreTerminal { diagnostics.progress("impact: \(done) of \(total) tests") }
        return ImpactRecorder.TestOutcome(unknown: unknown, executed: executed, worthRunningAlone: worthRunningAlone && !alone)
    }

    /// Keeps the first readable profile of the test bundle (the largest file of the first test: the
    /// bundle's, not a small tool's) as the reference for `llvm-cov export`.
    private func keepReference(_ profiles: [String], of own: String) {
        lock.withLock {
            guard referenceProfile == nil,
                  let largest = profiles.max(by: { (FileReading.size(of: $0) ?? 0) < (FileReading.size(of: $1) ?? 0) }) else { return }
            let kept = FilePath.join(folder, "reference.profraw")
            if rename(largest, kept) == 0 { referenceProfile = kept }
        }
    }
}
