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
import PrePushRunner

/// `prepush impact record`: builds a `swift test` stage's tests with coverage in a scratch path
/// of its own (inside `.git`, so the developer's `.build` stays valid and nothing lands in the
/// checkout), runs each test alone with its own profile, in parallel up to the cores, and keeps
/// per test the functions it executed (docs/selective-tests.md, "Recording").
struct ImpactRecorder {
    /// The stage, folders, environment and limits of this recording.
    let context: RecordingContext

    /// The build folder of recording: kept between recordings, so the next one builds only what changed.
    var scratchPath: String { context.keptFolder("impact-build") }

    /// Each test's profiles while recording; removed at the end.
    var profilesFolder: String { context.scratchFolder("impact-profiles") }

    /// What one test's run left: why it does not count (nil: it passed alone), and the names of
    /// the functions its processes executed (nil when the profile could not be read).
    struct TestOutcome: Sendable {
        var unknown: String?
        var executed: Set<String>
        /// It was ended by a signal or left a profile that cannot be read, without failing: worth one
        /// more run alone (runs beside others have been seen to end so, and alone they pass).
        var worthRunningAlone = false
    }

    /// Records the map of the tree at `commit`; `started` is when the command began (seconds since 1970).
    func record(commit: String, toolchain: String, started: Double) -> Result<ImpactMap, ImpactError> {
        let clock = ContinuousClock.now
        let lock: Int32
        switch context.lock() {
        case .success(let held): lock = held
        case .failure(let error): return .failure(error)
        }
        defer { close(lock) }
        let tools: CoverageTools
        switch CoverageTools.locate(environment: context.environment) {
        case .success(let found): tools = found
        case .failure(let error): return .failure(error)
        }
        if let problem = build() { return .failure(problem) }
        try? FileManager.default.removeItem(atPath: profilesFolder)
        defer { try? FileManager.default.removeItem(atPath: profilesFolder) }
        let tests: [ListedTest]
        switch list() {
        case .success(let listed): tests = listed
        case .failure(let error): return .failure(error)
        }
        guard let bundle = BuiltProducts.testBundle(in: scratchPath) else {
            return .failure(.list("no test bundle (*PackageTests.xctest) in \(FilePath.join(scratchPath, "debug"))"))
        }
        let launcher = TestLauncher(bundle: bundle, scratchPath: scratchPath, packageRoot: context.stage.workingDirectory,
                                    environment: context.environment, timeout: context.testTimeout)
        let runs = TestRuns(launcher: launcher, tools: tools, folder: profilesFolder, packageRoot: context.stage.workingDirectory, diagnostics: context.diagnostics)
        let outcomes = runs.runAll(tests)
        guard let reference = runs.referenceProfile else {
            return .failure(.tools("no test wrote a profile that llvm-profdata could read"))
        }
        let binaries = [BuiltProducts.binary(ofBundle: bundle)] + BuiltProducts.executables(in: scratchPath)
        var exported = tools.functions(binaries: binaries, profile: reference, scratch: profilesFolder, environment: context.environment)
        if case .failure = exported, binaries.count > 1 {
            // An executable without coverage mapping fails the whole export: its children's functions are then not known.
            context.diagnostics.note("impact: llvm-cov could not read the package's executables; their code is mapped only where the tests run it in-process")
            exported = tools.functions(binaries: [binaries[0]], profile: reference, scratch: profilesFolder, environment: context.environment)
        }
        let functions: [ExportedFunction]
        switch exported {
        case .success(let found): functions = found
        case .failure(let error): return .failure(error)
        }
        let files = TestFiles(repositoryRoot: context.repositoryRoot)
        var map = ImpactMapBuilder.map(tests: tests, outcomes: outcomes, functions: functions, repositoryRoot: context.repositoryRoot,
                                       testFile: files.file(of:),
                                       header: context.header(commit: commit, toolchain: toolchain, started: started, since: clock))
        let names = tools.demangled(map.functions.map(\.name), scratch: profilesFolder, environment: context.environment)
        for index in map.functions.indices { map.functions[index].name = names[index] }
        return .success(map)
    }

    /// `swift build --build-tests --enable-code-coverage` in the scratch path; nil when it built.
    private func build() -> ImpactError? {
        context.diagnostics.say("impact: building the tests with coverage in \(FilePath.shown(scratchPath, from: context.repositoryRoot))", tone: .quiet)
        let spec = ProcessSpec(executable: "swift", arguments: ["build", "--build-tests", "--enable-code-coverage", "--scratch-path", scratchPath],
                               environment: context.environment, workingDirectory: context.stage.workingDirectory)
        guard let built = try? CommandOutput.run(spec, timeout: Double(max(context.stage.timeout, 3600)), outputLimit: 8 * 1024 * 1024,
                                                 mergingStandardError: true) else {
            return .build(tail: "swift could not be started")
        }
        guard built.succeeded else {
            let lines = built.text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30)
            return .build(tail: lines.joined(separator: "\n"))
        }
        return nil
    }

    /// `swift test list` of what was built, without building again.
    private func list() -> Result<[ListedTest], ImpactError> {
        // Listing runs the instrumented bundle: without a profile setting it writes `default.profraw` into the package root.
        var environment = context.environment
        environment["LLVM_PROFILE_FILE"] = TestLauncher.profilePattern(in: FilePath.join(profilesFolder, "list"))
        let spec = ProcessSpec(executable: "swift", arguments: ["test", "list", "--skip-build", "--scratch-path", scratchPath],
                               environment: environment, workingDirectory: context.stage.workingDirectory)
        guard let listed = try? CommandOutput.run(spec, timeout: 600) else { return .failure(.list("swift could not be started")) }
        guard listed.succeeded else {
            return .failure(.list(listed.errorText.split(separator: "\n").last.map(String.init) ?? "swift test list ended with \(listed.outcome.termination)"))
        }
        let tests = ListedTest.parse(String(decoding: listed.standardOutput, as: UTF8.self))
        return tests.isEmpty ? .failure(.list("swift test list printed no test")) : .success(tests)
    }
}
