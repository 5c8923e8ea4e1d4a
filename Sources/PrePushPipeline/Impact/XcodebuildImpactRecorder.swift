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
import PrePushResults
import PrePushRunner
import PrePushTestDiscovery

/// `prepush impact record` for an `xcodebuild test` stage of a Swift package (docs/selective-tests.md,
/// "xcodebuild stages"): builds the tests once with coverage into derived data of its own under
/// `.git/prepush/`, runs every test once to learn the names the result bundle gives them, then each
/// test alone (`test-without-building -only-testing:`), each into a result bundle whose coverage
/// `xccov` reports. Written for, and not yet run on, a Mac: the arguments (`XcodebuildImpact`) and
/// the report reader (`XccovReport`) are tested on Linux against captured output.
struct XcodebuildImpactRecorder {
    /// The stage, folders, environment and limits of this recording (a test's limit includes a
    /// simulator's start).
    let context: RecordingContext
    /// Where package graphs are cached (the common git folder's `prepush/packages`).
    let graphCache: String

    /// Recording's derived data: kept, so the next recording builds only what changed, and apart from
    /// Xcode's own, so the developer's builds stay valid.
    var derivedData: String { context.keptFolder("impact-xcode") }

    /// Each run's result bundle; removed at the end.
    var bundles: String { context.scratchFolder("impact-bundles") }

    /// Records the map of the tree at `commit`; `started` is when the command began (seconds since 1970).
    func record(commit: String, toolchain: String, started: Double) -> Result<ImpactMap, ImpactError> {
        let clock = ContinuousClock.now
        let lock: Int32
        switch context.lock() {
        case .success(let held): lock = held
        case .failure(let error): return .failure(error)
        }
        defer { close(lock) }
        let command: XcodebuildImpact
        switch XcodebuildImpact.parse(context.stage.command) {
        case .success(let parsed): command = parsed
        case .failure(let error): return .failure(error)
        }
        // The map's names and files come from the package's targets, as a push reads them.
        guard case .success(let graph) = PackageGraph.load(packageRoot: context.stage.workingDirectory, cacheFolder: graphCache, environment: context.environment) else {
            return .failure(.xcodebuild("no Swift package in \(FilePath.shown(context.stage.workingDirectory, from: context.repositoryRoot)) (swift package describe failed); an .xcodeproj's test targets are not read yet"))
        }
        try? FileManager.default.removeItem(atPath: bundles)
        try? FileManager.default.createDirectory(atPath: bundles, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: bundles) }
        context.diagnostics.say("impact: building the tests with coverage in \(FilePath.shown(derivedData, from: context.repositoryRoot))", tone: .quiet)
        let built = xcodebuild(command.buildForTesting(derivedData: derivedData), timeout: Double(max(context.stage.timeout, 3600)))
        guard built.status == 0 else { return .failure(.build(tail: built.tail)) }
        let tests: [ListedTest]
        switch list(command, graph: graph) {
        case .success(let listed): tests = listed
        case .failure(let error): return .failure(error)
        }
        var outcomes: [ImpactRecorder.TestOutcome] = []
        var reference: [XccovFunction]?
        for (index, test) in tests.enumerated() {
            if context.diagnostics.console.errorsAreTerminal { context.diagnostics.progress("impact: \(index + 1) of \(tests.count) tests") }
            let (outcome, functions) = run(test.listed, index: index, command: command)
            outcomes.append(outcome)
            if reference == nil, outcome.unknown == nil { reference = functions }
        }
        if context.diagnostics.console.errorsAreTerminal { context.diagnostics.progress("") }
        guard let reference else { return .failure(.tools("no test's result bundle held a coverage report xccov could read")) }
        let prefix = context.packageFolder.isEmpty ? "" : context.packageFolder + "/"
        let sources = TestDiscovery.files(under: context.repositoryRoot, include: graph.targets.map { Glob("\(prefix)\($0.path)/**/*.swift") })
        let standIns = XccovReport.standIns(sources: sources, report: reference, repositoryRoot: context.repositoryRoot)
        if !standIns.isEmpty {
            context.diagnostics.note("impact: \(TextFormatting.count(standIns.count, "source")) of the package's targets are not in the coverage report (the scheme or test plan gathers coverage for some targets only): a change to one runs every test")
            let names = Set(standIns.map(\.key))
            for index in outcomes.indices where outcomes[index].unknown == nil { outcomes[index].executed.formUnion(names) }
        }
        let files = TestFiles(repositoryRoot: context.repositoryRoot)
        let header = context.header(commit: commit, toolchain: toolchain, started: started, since: clock)
        return .success(ImpactMapBuilder.map(tests: tests, outcomes: outcomes, functions: XccovReport.placed(reference) + standIns,
                                             repositoryRoot: context.repositoryRoot, testFile: files.file(of:), header: header))
    }

    /// The tests to record: those the sources hold (the names a push reads, `ImpactStep.currentTests`)
    /// that the stage runs (its own `-only-testing`/`-skip-testing`; and, when one run of every test
    /// passed, a target that run showed), and any other that run's result bundle shows (an inherited
    /// test method, one a macro makes), named from its selector.
    private func list(_ command: XcodebuildImpact, graph: PackageGraph) -> Result<[ListedTest], ImpactError> {
        let discovered = ImpactStep.currentTests(graph: graph, packageFolder: context.packageFolder, root: context.repositoryRoot).map(\.listed)
        let bundle = FilePath.join(bundles, "all.xcresult")
        let ran = xcodebuild(command.testWithoutBuilding(onlyTesting: [], derivedData: derivedData, resultBundle: bundle),
                             timeout: Double(max(context.stage.timeout, 3600)))
        // Failing tests end xcodebuild with 65 and are listed all the same; no bundle means it did not run.
        let results: [UITestResult]
        do {
            results = try ResultBundleReader.read(bundle: bundle, attachmentsFolder: FilePath.join(bundles, "attachments"),
                                                  run: { StageExecution.xcrun($0, environment: context.environment) }).results
        } catch {
            return .failure(.list("one run of every test (xcodebuild exited \(ran.status)) left no result bundle prepush can read: \(error)\n\(ran.tail)"))
        }
        // A clean run of every test shows every target the scheme tests: a target it did not show is not the stage's.
        let shownTargets: Set<String>? = ran.status == 0 ? Set(results.compactMap { $0.selector?.split(separator: "/").first.map(String.init) }) : nil
        let inStage = discovered.filter { listed in
            XcodebuildImpact.scope(of: context.stage.command)?.runs(listed) ?? true
                && (shownTargets?.contains(String(listed.prefix { $0 != "." })) ?? true)
        }
        let (tests, unseen) = Self.tests(discovered: inStage, results: results)
        for name in unseen.prefix(5) {
            context.diagnostics.note("impact: \(name) ran, and prepush's test discovery does not see it in the sources: it is recorded by the name its result bundle gives")
        }
        return tests.isEmpty ? .failure(.list("neither the sources nor a run of every test showed a test")) : .success(tests)
    }

    /// The discovered tests, then each result no discovered test stands for (by `TestIdentifierKey`),
    /// named from its selector; and those results' names.
    static func tests(discovered: [String], results: [UITestResult]) -> (tests: [ListedTest], unseen: [String]) {
        var tests = discovered.map { ListedTest(listed: $0, framework: $0.hasSuffix(")") ? .swiftTesting : .xctest) }
        var keys = Set(discovered.map { TestIdentifierKey.key($0) })
        var unseen: [String] = []
        for result in results where keys.insert(TestIdentifierKey.key(result.testIdentifier)).inserted {
            let listed = result.selector.map { XcodebuildImpact.listed(selector: $0, xctest: false) } ?? result.testIdentifier
            tests.append(ListedTest(listed: listed, framework: listed.hasSuffix(")") ? .swiftTesting : .xctest))
            unseen.append(listed)
        }
        return (tests, unseen)
    }

    /// The results of one parameterized test (one per argument, all with its function's selector) as
    /// one: the first that did not pass, else the first. Results of different tests stay as they are.
    static func collapsed(_ results: [UITestResult]) -> [UITestResult] {
        guard results.count > 1, let selector = results[0].selector, results.allSatisfy({ $0.selector == selector }) else { return results }
        let rank: (UITestResult) -> Int = { result in
            switch result.status {
            case .failed: return 0
            case .unfinished: return 1
            case .skipped: return 2
            case .passed, .expectedFailure: return 3
            }
        }
        return [results.min { rank($0) < rank($1) } ?? results[0]]
    }

    /// Runs one test alone and reads its bundle: why it does not count (nil: it passed alone), the
    /// functions it executed, and every function of the report (for their places).
    private func run(_ listed: String, index: Int, command: XcodebuildImpact) -> (ImpactRecorder.TestOutcome, [XccovFunction]) {
        let test = ListedTest(listed: listed, framework: listed.hasSuffix(")") ? .swiftTesting : .xctest)
        let bundle = FilePath.join(bundles, "\(index).xcresult")
        defer { try? FileManager.default.removeItem(atPath: bundle) }
        let ran = xcodebuild(command.testWithoutBuilding(onlyTesting: XcodebuildRetry.forms(of: XcodebuildImpact.selector(listed: listed)),
                                                         derivedData: derivedData, resultBundle: bundle), timeout: context.testTimeout)
        let unknown: (String) -> (ImpactRecorder.TestOutcome, [XccovFunction]) = { (ImpactRecorder.TestOutcome(unknown: $0, executed: []), []) }
        guard let outcome = ran.outcome else { return unknown(ran.tail) }
        if ran.timedOut { return unknown("timed out after \(TextFormatting.duration(context.testTimeout))") }
        let results: [UITestResult]
        do {
            results = try ResultBundleReader.read(bundle: bundle, attachmentsFolder: FilePath.join(bundles, "attachments"),
                                                  run: { StageExecution.xcrun($0, environment: context.environment) }).results
        } catch {
            return unknown("left no result bundle prepush can read (xcodebuild exited \(ran.status)): \(error)")
        }
        if let why = TestLauncher.judge(Self.collapsed(results), test: test, outcome: outcome) { return unknown(why) }
        guard let report = StageExecution.xcrun(XcodebuildImpact.coverageReport(bundle: bundle), environment: context.environment), report.status == 0 else {
            return unknown("its result bundle holds no coverage report (xccov view --report failed)")
        }
        switch XccovReport.parse(report.standardOutput, source: bundle) {
        case .success(let functions): return (Self.outcome(of: functions), functions)
        case .failure(let error): return unknown("\(error)")
        }
    }

    /// What a passing test's coverage report says it executed. A report in which it executed
    /// nothing, not even its own method, is a report of no coverage (not gathered for this run or
    /// these targets), not of a test that reaches no code: mapped so, the test would run only when
    /// its own file changes, so it is unknown instead and always runs.
    static func outcome(of report: [XccovFunction]) -> ImpactRecorder.TestOutcome {
        let executed = XccovReport.executed(report)
        guard !executed.isEmpty else {
            return ImpactRecorder.TestOutcome(unknown: "its coverage report shows no function executed (is coverage gathered for its targets?)", executed: [])
        }
        return ImpactRecorder.TestOutcome(unknown: nil, executed: executed)
    }

    /// What one `xcodebuild` run ended with (nil: it could not be started) and its last lines.
    private struct Ran {
        var outcome: RunOutcome?
        var tail: String
        var status: Int32 {
            if case .exited(let code)? = outcome?.termination { return code }
            return -1
        }
        var timedOut: Bool { outcome?.stopReason == .timedOut }
    }

    private func xcodebuild(_ arguments: [String], timeout: Double) -> Ran {
        let spec = ProcessSpec(executable: "xcodebuild", arguments: arguments, environment: context.environment, workingDirectory: context.stage.workingDirectory)
        guard let ran = try? CommandOutput.run(spec, timeout: timeout, outputLimit: 8 * 1024 * 1024, mergingStandardError: true) else {
            return Ran(outcome: nil, tail: "xcodebuild could not be started (it needs macOS with Xcode)")
        }
        return Ran(outcome: ran.outcome, tail: ran.text.split(separator: "\n", omittingEmptySubsequences: false).suffix(30).joined(separator: "\n"))
    }
}
