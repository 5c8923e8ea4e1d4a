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
import PrePushConfig
import PrePushCore

/// What a recording of one stage works with, whichever runner records it (`ImpactRecorder` for
/// `swift test`, `XcodebuildImpactRecorder` for `xcodebuild test`): the stage, where the map's paths
/// start, the checkout's git folder that holds the recording's scratch folders and lock, and how
/// long one test may take.
struct RecordingContext: Sendable {
    /// The stage recorded; its folder is the package.
    let stage: StageSettings
    /// The repository's working folder: map paths are relative to it.
    let repositoryRoot: String
    /// The checkout's own git folder (a worktree's under `.git/worktrees`): scratch folders, results
    /// and the lock live below it, so two worktrees never record into one folder.
    let gitDirectory: String
    /// The stage's environment.
    let environment: [String: String]
    /// Seconds one test may take.
    let testTimeout: Double
    /// Where notes and progress go.
    let diagnostics: Diagnostics

    /// The package's folder relative to the repository, `""` for the root (as `ImpactMap` keys it).
    var packageFolder: String { Self.packageFolder(stage.workingDirectory, repositoryRoot: repositoryRoot) }

    /// `""` for the root, else `folder` relative to the repository.
    static func packageFolder(_ folder: String, repositoryRoot: String) -> String {
        let relative = FilePath.relative(folder, to: repositoryRoot)
        return relative == "." ? "" : relative
    }

    /// A build folder kept between recordings (`prepush/impact-build/<package>`), so the next
    /// recording builds only what changed, apart from the developer's own build.
    func keptFolder(_ name: String) -> String {
        FilePath.join(FilePath.join(gitDirectory, "prepush/\(name)"), packageFolder.isEmpty ? "_root" : packageFolder)
    }

    /// A folder of this recording's passing files (profiles, result bundles), removed at the end.
    func scratchFolder(_ name: String) -> String { FilePath.join(gitDirectory, "prepush/\(name)") }

    /// The checkout's recording lock, held until the descriptor is closed: two recordings of one
    /// checkout would build into one scratch path and share the scratch folders.
    func lock() -> Result<Int32, ImpactError> {
        let lockPath = FilePath.join(gitDirectory, "prepush/impact-record.lock")
        try? FileManager.default.createDirectory(atPath: FilePath.parent(lockPath), withIntermediateDirectories: true)
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard lock >= 0, flock(lock, LOCK_EX | LOCK_NB) == 0 else {
            if lock >= 0 { close(lock) }
            return .failure(.busy(lockPath))
        }
        return .success(lock)
    }

    /// The map's header: what was recorded, at which commit with which toolchain, and how long it
    /// took since `clock` (its functions and tests are added by `ImpactMapBuilder`).
    func header(commit: String, toolchain: String, started: Double, since clock: ContinuousClock.Instant) -> ImpactMap {
        let elapsed = clock.duration(to: .now)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return ImpactMap(stage: stage.kind.rawValue, packageFolder: packageFolder, commit: commit, toolchain: toolchain,
                         recorded: started, seconds: seconds, functions: [], tests: [])
    }
}
