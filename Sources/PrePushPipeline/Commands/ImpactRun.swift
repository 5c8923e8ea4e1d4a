#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushHistory

/// `prepush impact record|show|export|import`: the per-test coverage map `selective: tests` reads
/// (docs/selective-tests.md). Exit status: 0 done; 1 recording failed, or no map is stored; 2 not
/// in a repository, no such `swift test` stage, or a file to import that is not a map.
package enum ImpactRun {
    /// Records the map of `stage` (a `swift test` stage) for the tree checked out, each test under
    /// `testTimeout` seconds, and stores it beside the run history.
    package static func record(stage name: String, testTimeout: Int, flags: ConfigurationFlags, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        guard let (repository, root, stage) = stage(named: name, flags: flags, diagnostics: diagnostics) else { return .usage }
        let started = Date().timeIntervalSince1970
        var environment = StageExecution.environment(for: stage, base: CommandContext.now.environment, reportsDirectory: "")
        environment["PREPUSH_REPORTS_DIR"] = nil
        // Each test's runs set their own; one of the caller's would send every profile to one file.
        environment["LLVM_PROFILE_FILE"] = nil
        let probe = ToolchainProbe(environment: environment)
        guard let commit = try? repository.commitID("HEAD") else {
            diagnostics.error("the repository has no commit to record a map of")
            return .usage
        }
        // The map is stored as HEAD's: a tree with changes of its own would place their lines wrongly.
        let before = (try? repository.workingTreeDifferences(from: "HEAD", limit: 100)) ?? []
        if !before.isEmpty {
            diagnostics.warning("impact: the working tree differs from HEAD (\(before.prefix(3).joined(separator: ", "))\(before.count > 3 ? ", …" : "")): the map is of the tree as it is, stored as \(commit.prefix(7))'s; record on a clean checkout (CI) for a map a push can trust")
        }
        let map: ImpactMap
        switch recording(stage, root: root, repository: repository, environment: environment, testTimeout: testTimeout, diagnostics: diagnostics)(
            commit, probe.toolchain ?? "unknown", started) {
        case .success(let recorded): map = recorded
        case .failure(let error):
            diagnostics.error("impact: \(error)")
            return .failure
        }
        do {
            let store = try ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory))
            for note in store.notes { diagnostics.note(note) }
            try store.save(map)
        } catch {
            diagnostics.error("impact: the map was recorded but not stored: \(ErrorText.describe(error))")
            return .failure
        }
        // What the tests themselves wrote into the checkout is theirs; said, so it is not mistaken for recording's.
        let left = ((try? repository.workingTreeDifferences(from: "HEAD", limit: 100)) ?? []).filter { !before.contains($0) }
        if !left.isEmpty {
            diagnostics.warning("impact: the tests left \(TextFormatting.count(left.count, "change")) in the checkout (\(left.prefix(3).joined(separator: ", "))\(left.count > 3 ? ", …" : ""))")
        }
        let unknown = map.tests.filter { $0.unknown != nil }
        console.line(summary(map))
        for test in unknown.prefix(20) { console.line("  \(test.identifier): \(test.unknown ?? "")") }
        if unknown.count > 20 { console.line("  … and \(unknown.count - 20) more (prepush impact export FILE has them all)") }
        return unknown.count == map.tests.count ? .failure : .success
    }

    /// The recording of `stage`: a `swift test` stage's (`ImpactRecorder`), or an `xcodebuild test`
    /// stage's (`XcodebuildImpactRecorder`, on a Mac: elsewhere it says so).
    private static func recording(_ stage: StageSettings, root: String, repository: Repository, environment: [String: String],
                                  testTimeout: Int, diagnostics: Diagnostics) -> (String, String, Double) -> Result<ImpactMap, ImpactError> {
        let context = RecordingContext(stage: stage, repositoryRoot: root, gitDirectory: repository.gitDirectory, environment: environment,
                                       testTimeout: Double(testTimeout), diagnostics: diagnostics)
        guard !runsSwiftTest(stage.command), XcodebuildRetry.invocation(in: stage.command) != nil else {
            let recorder = ImpactRecorder(context: context)
            return { recorder.record(commit: $0, toolchain: $1, started: $2) }
        }
        #if os(macOS)
        let recorder = XcodebuildImpactRecorder(context: context, graphCache: FilePath.join(repository.commonDirectory, "prepush/packages"))
        return { recorder.record(commit: $0, toolchain: $1, started: $2) }
        #else
        // xcodebuild and xcrun exist only with Xcode: said before anything is built.
        return { _, _, _ in .failure(.xcodebuild("xcodebuild stages are recorded on a Mac with Xcode; record on the Mac (or its CI) and prepush impact import the map here")) }
        #endif
    }

    /// `impact: mapped 540 of 549 tests (9 unknown: a, b, c, …) in 3m12s, map of abc1234`.
    static func summary(_ map: ImpactMap) -> String {
        let unknown = map.tests.filter { $0.unknown != nil }.map(\.identifier)
        let shown = unknown.prefix(3).joined(separator: ", ") + (unknown.count > 3 ? ", …" : "")
        let said = unknown.isEmpty ? "" : " (\(unknown.count) unknown: \(shown))"
        return "prepush: impact: mapped \(map.tests.count - unknown.count) of \(TextFormatting.count(map.tests.count, "test"))\(said) in "
            + "\(TextFormatting.duration(map.seconds)), \(TextFormatting.count(map.functions.count, "function")), map of \(map.commit.prefix(7))"
    }

    /// Prints the tests that cover `path` (a file, relative to the current folder), one identifier a line.
    package static func show(path: String, stage name: String, flags: ConfigurationFlags, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let (repository, root, stage) = stage(named: name, flags: flags, diagnostics: diagnostics) else { return .usage }
        guard let map = latest(repository, stage: stage, root: root, diagnostics: diagnostics) else { return .failure }
        let relative = FilePath.relative(FilePath.normalize(FilePath.absolute(path, base: CommandContext.now.here)), to: root)
        let tests = map.tests(covering: relative)
        if tests.isEmpty { diagnostics.note("no test of the map of \(map.commit.prefix(7)) covers \(relative)") }
        for test in tests { console.line(test) }
        return .success
    }

    /// Writes the stored map of the stage to `file` (JSON), whole or not at all.
    package static func export(file: String, stage name: String, flags: ConfigurationFlags, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        guard let (repository, root, stage) = stage(named: name, flags: flags, diagnostics: diagnostics) else { return .usage }
        guard let map = latest(repository, stage: stage, root: root, diagnostics: diagnostics) else { return .failure }
        let target = FilePath.absolute(file, base: CommandContext.now.here)
        do {
            let bytes = try map.exported()
            try Checkout.makeFolder(FilePath.parent(target), in: ReportFiles.checkout(of: repository))
            try Checkout.write(to: target, in: ReportFiles.checkout(of: repository)) { fd in bytes.withUnsafeBytes { FileSystem.write($0, to: fd) } }
        } catch {
            diagnostics.error("impact: \(ImpactError.file(path: file, reason: ErrorText.describe(error)))")
            return .failure
        }
        console.line("prepush: impact: wrote the map of \(map.commit.prefix(7)) (\(TextFormatting.count(map.tests.count, "test"))) to \(file)")
        return .success
    }

    /// Stores the map in `file` (what `export` wrote, on any machine) as the newest of its stage.
    package static func importMap(file: String, console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        guard let repository = diagnostics.repositoryHere() else { return .usage }
        let map: ImpactMap
        switch FileReading.read(FilePath.absolute(file, base: CommandContext.now.here), limit: ImpactStore.byteLimit) {
        case .failure(let problem):
            diagnostics.error("impact: \(ImpactError.file(path: file, reason: problem.description))")
            return .usage
        case .success(let bytes):
            switch ImpactMap.imported(bytes) {
            case .success(let read): map = read
            case .failure(let problem):
                diagnostics.error("impact: \(ImpactError.file(path: file, reason: problem.description))")
                return .usage
            }
        }
        do {
            let store = try ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory))
            for note in store.notes { diagnostics.note(note) }
            try store.save(map)
        } catch {
            diagnostics.error("impact: \(ImpactError.store(ErrorText.describe(error)))")
            return .failure
        }
        let package = map.packageFolder.isEmpty ? "" : " of \(map.packageFolder)"
        console.line("prepush: impact: imported the map of stage \(map.stage)\(package) (\(TextFormatting.count(map.tests.count, "test")), map of \(map.commit.prefix(7)), \(map.toolchain))")
        return .success
    }

    /// The repository, its working folder and the `swift test` stage called `name`; nil, said, otherwise.
    private static func stage(named name: String, flags: ConfigurationFlags,
                              diagnostics: Diagnostics) -> (Repository, String, StageSettings)? {
        guard let repository = diagnostics.repositoryHere() else { return nil }
        guard let root = repository.workingDirectory else {
            diagnostics.error("impact: a bare repository has no tree to record")
            return nil
        }
        let configuration: ResolvedConfiguration
        do {
            configuration = try Pipeline.resolveConfiguration(flags: flags, environment: CommandContext.now.environment, repository: repository)
        } catch {
            diagnostics.error(describing: error)
            return nil
        }
        let stages = [configuration.unitStage, configuration.uiStage].compactMap { $0 } + configuration.customStages
        guard let stage = stages.first(where: { $0.kind.rawValue == name }) else {
            diagnostics.error("impact: \(ImpactError.stage("no stage named \"\(name)\"; the stages are \(TextFormatting.list(stages.map(\.kind.rawValue)))"))")
            return nil
        }
        guard runsSwiftTest(stage.command) || XcodebuildRetry.invocation(in: stage.command) != nil else {
            diagnostics.error("impact: \(ImpactError.stage("stage \(name) runs neither swift test nor xcodebuild test (\(stage.command)); impact maps are recorded for those stages"))")
            return nil
        }
        return (repository, root, stage)
    }

    /// Whether a step of `command` (`a && b`) is `swift test`.
    static func runsSwiftTest(_ command: String) -> Bool {
        command.components(separatedBy: "&&").contains { step in
            let words = step.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            return words.count >= 2 && words[0] == "swift" && words[1] == "test"
        }
    }

    /// The newest stored map of `stage`; nil, said, when there is none or it cannot be read.
    private static func latest(_ repository: Repository, stage: StageSettings, root: String, diagnostics: Diagnostics) -> ImpactMap? {
        let folder = RecordingContext.packageFolder(stage.workingDirectory, repositoryRoot: root)
        let path = ImpactStore.path(commonDirectory: repository.commonDirectory)
        do {
            let store = try ImpactStore(path: path)
            for note in store.notes { diagnostics.note(note) }
            guard let map = try store.latest(stage: stage.kind.rawValue, packageFolder: folder) else {
                diagnostics.error("impact: \(ImpactError.noMap(stage: stage.kind.rawValue, packageFolder: folder))")
                return nil
            }
            return map
        } catch {
            diagnostics.error("impact: \(ImpactError.store(ErrorText.describe(error)))")
            return nil
        }
    }
}
