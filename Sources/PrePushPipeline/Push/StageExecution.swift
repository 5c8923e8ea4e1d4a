#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
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
import PrePushResults
import PrePushRunner

/// How one stage ended.
package enum StageStatus: Sendable, Equatable {
    /// Exit status 0.
    case passed
    /// A non-zero exit status or a fatal signal.
    case failed(Termination)
    /// The timeout (seconds) ran out and the stage's process group was stopped.
    case timedOut(seconds: Int)
    /// prepush was interrupted by this signal and stopped the stage.
    case interrupted(signal: Int32)
    /// The command could not be started at all.
    case couldNotStart(String)
}

/// The result of one stage run.
package struct StageResult: Sendable, Equatable {
    /// Which stage.
    package let kind: StageKind
    /// How it ended.
    package let status: StageStatus
    /// Seconds it ran.
    package let duration: Double
    /// Absolute path of the stage's full log.
    package let logPath: String
    /// The tests the stage's output showed (none for a stage that runs no tests).
    package let tests: TestRun
    /// Tests that had started and not finished when the stage was stopped, with how long each had run (seconds).
    package var runningWhenStopped: [(identifier: String, seconds: Double)] = []
    /// When the stage was not run because it had passed on the same tree with the same inputs: when that was (seconds since 1970).
    package var cachedFrom: Double?
    /// How its tests' verdict is known: whether a runner said how its run ended (a closing summary
    /// on the console, or a results file it wrote), and how many compiler or tool errors were printed.
    /// Quarantine excuses a failed stage only on a runner's word with no error besides its tests.
    package var evidence = StageEvidence()

    package static func == (lhs: StageResult, rhs: StageResult) -> Bool {
        lhs.kind == rhs.kind && lhs.status == rhs.status && lhs.duration == rhs.duration && lhs.logPath == rhs.logPath
            && lhs.tests == rhs.tests && lhs.runningWhenStopped.map(\.identifier) == rhs.runningWhenStopped.map(\.identifier)
            && lhs.cachedFrom == rhs.cachedFrom
    }

    /// One line for the summary: `ui: timed out after 600 s`.
    package var summary: String {
        let name = kind.rawValue
        switch status {
        case .passed: return "\(name): passed in \(TextFormatting.duration(duration))"
        case .failed(.exited(let code)): return "\(name): failed (exit \(code)) after \(TextFormatting.duration(duration))"
        case .failed(.signaled(let signal)): return "\(name): failed (killed by signal \(signal)) after \(TextFormatting.duration(duration))"
        case .timedOut(let seconds): return "\(name): timed out after \(seconds) s"
        case .interrupted(let signal): return "\(name): interrupted by \(Self.signalName(signal)) after \(TextFormatting.duration(duration))"
        case .couldNotStart(let reason): return "\(name): could not start: \(reason)"
        }
    }


    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        default: return "signal \(number)"
        }
    }
}

/// What a stage's output says about why it ended, beyond its tests.
package struct StageEvidence: Sendable, Equatable {
    /// A runner said how its run ended: a closing summary was read, or the tests came from a
    /// results file the runner wrote (event stream, xunit, result bundle).
    package var runnerClosed = false
    /// Compiler diagnostics and tools' `error:` lines the stage printed.
    package var errorLines = 0
    /// The first of them.
    package var firstError: String?
    /// The first `FailureList.limit` of them, as printed: a red build's reports and annotations.
    package var compilerErrors: [String] = []
    /// The log's last lines when the stage failed without a test result (a red build's summary).
    package var logTail: [String] = []

    /// Evidence of nothing.
    package init() {}
}

/// Runs one stage: its process group under its timeout, its whole output to `<reports>/<stage>.log`
/// as it arrives, and to the terminal either live (`verbose`) or as a progress line plus the last
/// lines of a failing stage.
struct StageExecution {
    /// Lines of a failing stage's output shown on the terminal.
    static let tailLineCount = 20
    /// Bytes of output kept for that tail.
    static let tailByteLimit = 64 * 1024

    var stage: StageSettings
    let reportsDirectory: String
    let baseEnvironment: [String: String]
    let verbose: Bool
    /// The stage's sink: the run's, or its own file's when it runs beside others.
    let diagnostics: Diagnostics
    var console: Console { diagnostics.console }
    let signals: SignalWatcher?
    let killGracePeriod: Double
    /// The repository's root: failure places are shown relative to it.
    var repositoryRoot: String = ""
    /// Set when the stage runs on a remote Mac.
    var remote: RemoteStageContext? = nil
    /// Set when other stages run at the same time (they share the signal pipe).
    var watchesSignalFlag = false
    /// The log's name without `.log` (a retry's: `unit.retry-1`); the stage's name when nil.
    var logName: String? = nil
    /// Where results the console named without their suite get their identity; nil: as read.
    var identities: IdentitySource? = nil
    /// The tests this run was asked to run (a retry's), by identifier: the only ones its results can be.
    var selectedTests: Set<String>? = nil
    /// What starts the command.
    var launcher: any StageLauncher = ProcessGroupLauncher()

    /// Runs the stage: syncs a remote tree, runs the command under its timeout with its output to
    /// the log (and the terminal), reads its tests, and says how it ended.
    func run() -> StageResult {
        let name = stage.kind.rawValue
        let logPath = FilePath.join(reportsDirectory, "\(logName ?? name).log")
        if let remote {
            do {
                let report = try remote.session.sync(tree: remote.tree, mode: remote.mode)
                if verbose { console.line("prepush ▸ \(name): \(report)") }
            } catch {
                let result = StageResult(kind: stage.kind, status: .couldNotStart("\(error)"), duration: 0, logPath: logPath, tests: TestRun())
                console.line("prepush ✘ \(result.summary)", tone: .bad)
                return result
            }
        }
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        defer { if log >= 0 { close(log) } }
        let tail = TailBuffer(limit: Self.tailByteLimit)
        let parsers = StreamParsers()
        let startedAt = Date()
        let ran = runCommand(log: log, tail: tail, parsers: parsers, startedAt: startedAt)
        let stoppedAt = Date().timeIntervalSince(startedAt)
        let resultFiles = StageResultFiles.named(inCommand: stage.command, workingDirectory: stage.workingDirectory)
        // What was running is read before the parsers finish (finishing closes every test).
        var running: [(identifier: String, seconds: Double)] = []
        switch ran.status {
        case .timedOut, .interrupted:
            running = Self.running(parsers: parsers, eventStream: resultFiles.eventStream, since: startedAt, stoppedAt: stoppedAt)
        default:
            break
        }
        var tests = readTests(parsers: parsers, files: resultFiles, startedAt: startedAt, status: ran.status)
        if let identities { tests.run = identities.resolve(tests.run, among: selectedTests) }
        var result = StageResult(kind: stage.kind, status: ran.status, duration: ran.duration, logPath: logPath, tests: tests.run)
        result.runningWhenStopped = running
        result.evidence.runnerClosed = parsers.runnerSummaries > 0 || tests.fromFiles
        result.evidence.errorLines = parsers.compilerErrorCount
        result.evidence.firstError = parsers.compilerErrors.first
        result.evidence.compilerErrors = Array(parsers.compilerErrors.prefix(FailureList.limit))
        if ran.status != .passed, tests.run.results.isEmpty { result.evidence.logTail = tail.lastLines(Self.tailLineCount) }
        say(result, leftovers: ran.leftovers)
        if ran.status != .passed {
            showFailure(of: result, tail: verbose ? nil : tail, compilerErrors: parsers.compilerErrors)
        }
        return result
    }

    /// The command in its process group under the timeout: every byte to the log, whole lines at a
    /// time from each stream, and to the parsers; to the terminal live (`verbose`) or into the tail.
    private func runCommand(log: Int32, tail: TailBuffer, parsers: StreamParsers, startedAt: Date)
        -> (status: StageStatus, duration: Double, leftovers: [LeftoverProcess]) {
        let place = remote.map { " on \($0.session.target.destination):\($0.session.target.path)" } ?? ""
        let heading = "\(stage.kind.rawValue): \(stage.command)\(place) (timeout \(stage.timeout) s)"
        if verbose || !console.isTerminal {
            console.line("prepush ▸ \(heading)", tone: .quiet)
        } else {
            console.replaceLine(console.painted("prepush ▸ \(heading)", .quiet))
        }
        let console = self.console
        let verbose = self.verbose
        let logLines = InterleavedLog(fd: log)
        defer { logLines.finish() }
        var options = RunOptions(timeout: Double(stage.timeout), killGracePeriod: killGracePeriod, signals: signals) { channel, bytes in
            logLines.append(bytes, from: channel)
            parsers.consume(bytes, from: channel, at: Date().timeIntervalSince(startedAt))
            if verbose {
                console.passThrough(bytes, fromStandardError: channel == .standardError)
            } else {
                tail.append(bytes)
            }
        }
        options.watchesSignalFlag = watchesSignalFlag
        if !verbose && console.isTerminal {
            options.onTick = { elapsed in console.replaceLine(console.painted("prepush ▸ \(heading)  \(Int(elapsed)) s", .quiet)) }
        }
        // Line-buffered, so a timeout names the test that hangs rather than the last one a full buffer showed.
        let environment = LineBufferedOutput.applied(to: Self.environment(for: stage, base: baseEnvironment, reportsDirectory: reportsDirectory))
        var spec = ProcessSpec.shell(stage.command, environment: environment, workingDirectory: stage.workingDirectory)
        if let remote {
            let variables = [("PREPUSH_STAGE", stage.kind.rawValue)] + stage.environment.map { ($0.name, $0.value) }
            spec = remote.session.commandSpec(stage.command, environment: variables)
            // A timeout or Ctrl-C stops the command on the Mac too, not only the local ssh client.
            options.onStop = { _ in remote.session.stop() }
        }
        let outcome: RunOutcome
        do {
            outcome = try launcher.run(spec, options: options)
        } catch {
            return (.couldNotStart(error.description), 0, [])
        }
        switch outcome.stopReason {
        case .timedOut: return (.timedOut(seconds: stage.timeout), outcome.duration, outcome.leftovers)
        case .interrupted(let signal): return (.interrupted(signal: signal), outcome.duration, outcome.leftovers)
        case nil: return (outcome.termination == .exited(0) ? .passed : .failed(outcome.termination), outcome.duration, outcome.leftovers)
        }
    }

    /// The stage's tests from the best source there is: the console, unless the run wrote result
    /// files (Swift Testing's event stream, xunit), results brought back from a Mac, or a result bundle.
    private func readTests(parsers: StreamParsers, files: StageResultFiles, startedAt: Date, status: StageStatus) -> (run: TestRun, fromFiles: Bool) {
        let name = stage.kind.rawValue
        var tests = parsers.finish()
        var fromFiles = false
        if remote == nil {
            let fromConsole = tests
            tests = StageResultReading.preferringFiles(files, over: tests, writtenSince: startedAt, diagnostics: diagnostics)
            fromFiles = tests != fromConsole
            if parsers.passedByClosingLine > 0, tests == fromConsole {
                diagnostics.note("\(name): Swift Testing's console lost the end of \(TextFormatting.count(parsers.passedByClosingLine, "test")); its closing line says the run passed, so they count as passed (write its event stream for exact results: docs/reports.md)")
            }
            if status == .passed, tests == fromConsole, let (trusted, count) = Self.passedByExitStatus(tests, command: stage.command) {
                tests = trusted
                diagnostics.note("\(name): Swift Testing's console lost the end of \(TextFormatting.count(count, "test")) and its closing line; the runner exited 0, so they count as passed (write its event stream for exact results: docs/reports.md)")
            }
            if parsers.lostFromConsole > 0, tests == fromConsole {
                diagnostics.note("\(name): Swift Testing's console lost every line of \(TextFormatting.count(parsers.lostFromConsole, "test")); its closing line counts them in a run that passed, so the counts are its own (write its event stream to know them by name: docs/reports.md)")
            }
        }
        if let remote, !remote.results.isEmpty {
            let folder = FilePath.join(reportsDirectory, "remote")
            if let fetched = try? remote.session.fetch(remote.results, into: folder, mode: remote.mode) {
                if verbose { console.line("prepush ▸ \(name): brought back \(fetched.count) of \(remote.results.count) result paths into \(folder)") }
                let fetchedResults = fetched.compactMap { try? ResultsInput.parse(file: $0) }.filter { $0.kind != .console }.flatMap(\.run.results)
                if !fetchedResults.isEmpty {
                    tests = TestRun(results: fetchedResults)
                    fromFiles = true
                }
            }
        }
        // An xcodebuild stage's result bundle knows more than its console: read it when it exists.
        if let bundle = ResultBundleLocator.bundlePath(inCommand: stage.command, workingDirectory: stage.workingDirectory),
           FileManager.default.fileExists(atPath: bundle) {
            do {
                let fromBundle = try ResultBundleReader.read(bundle: bundle, attachmentsFolder: FilePath.join(reportsDirectory, "attachments"),
                                                             run: { Self.xcrun($0, environment: baseEnvironment) })
                if !fromBundle.results.isEmpty {
                    tests = fromBundle
                    fromFiles = true
                }
            } catch {
                diagnostics.warning("cannot read the result bundle \(FilePath.relative(bundle, to: stage.workingDirectory)) (\(error)); the results come from the console")
            }
        }
        return (tests, fromFiles)
    }

    /// Swift Testing tests left unfinished with nothing against them but the end of the output,
    /// counted as passed when the stage's exit status is the runner's (no `|` in the command) and
    /// it is 0. Swift Testing on Linux drops blocks of its console, its closing line with them at
    /// times (seen in 2 of 30 runs of 600 tests under load): the runner's exit status is then the
    /// verdict. A crash exits non-zero; a `swift test | tee log` keeps its unfinished tests.
    static func passedByExitStatus(_ run: TestRun, command: String) -> (TestRun, Int)? {
        guard !command.contains("|") else { return nil }
        var count = 0
        var trusted = run
        trusted.results = run.results.map { test in
            guard test.status == .unfinished, test.suite.isEmpty, test.failures.count == 1,
                  test.failures[0].message.hasPrefix("did not finish: the output ended") else { return test }
            count += 1
            return UITestResult(suite: test.suite, name: test.name, status: .passed, duration: test.duration, warnings: test.warnings ?? [])
        }
        return count > 0 && !trusted.hasFailures ? (trusted, count) : nil
    }

    /// The stage's own line (on a terminal only when it did not pass: the verdict names every
    /// stage with its time, so a passing push stays a few lines long; logs keep every line), what
    /// was running when it was stopped, and what it left running.
    private func say(_ result: StageResult, leftovers: [LeftoverProcess]) {
        if !verbose && console.isTerminal { console.clearLine() }
        let passed = result.status == .passed
        if !passed || verbose || !console.isTerminal {
            console.line("prepush \(passed ? "✔" : "✘") \(result.summary)", tone: passed ? .good : .bad)
        }
        if !result.runningWhenStopped.isEmpty {
            let shown = result.runningWhenStopped.prefix(5).map { "\($0.identifier) (\(Int($0.seconds.rounded())) s)" }
            let more = result.runningWhenStopped.count > 5 ? ", and \(result.runningWhenStopped.count - 5) more" : ""
            console.line("   running: \(shown.joined(separator: ", "))\(more)", tone: .bad)
        }
        if !leftovers.isEmpty {
            let names = leftovers.prefix(5).map(\.description).joined(separator: ", ") + (leftovers.count > 5 ? ", …" : "")
            diagnostics.note("stopped \(TextFormatting.count(leftovers.count, "process", plural: "processes")) the \(result.kind.rawValue) stage left running: \(names)")
        }
    }

    /// The tests running when the stage was stopped, one source for each: XCTest's from the console
    /// (line-buffered, so its last `started` line is the test that hangs), Swift Testing's from its
    /// event stream when this run wrote one (full ids, written as the runner goes), else from the
    /// console, which names them without their suite.
    static func running(parsers: StreamParsers, eventStream: String?, since start: Date, stoppedAt: Double) -> [(String, Double)] {
        let console = parsers.runningEntries
        let bytes = eventStream.flatMap { path -> Data? in
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                  modified >= start.addingTimeInterval(-1) else { return nil }
            return FileManager.default.contents(atPath: path)
        }
        guard let bytes else {
            return console.map { ($0.suite.isEmpty ? $0.name : "\($0.suite).\($0.name)", max(0, stoppedAt - $0.startedAt)) }
        }
        let now = Date().timeIntervalSince1970
        let xctest = console.filter { !$0.suite.isEmpty }.map { ("\($0.suite).\($0.name)", max(0, stoppedAt - $0.startedAt)) }
        let swiftTesting = SwiftTestingEventStream.running(Array(bytes)).map { ($0.identifier, $0.startedAt > 0 ? max(0, now - $0.startedAt) : stoppedAt) }
        // Longest-running first within each: the one that hangs has run the longest.
        return (xctest + swiftTesting).sorted { $0.1 > $1.1 }
    }

    /// What a failed stage shows: its failing tests first (name, place from the repository root,
    /// first message line); the log's last lines only when no test failure explains it, and then
    /// the compiler's `error:` lines of a failed build before them.
    private func showFailure(of result: StageResult, tail: TailBuffer?, compilerErrors: [String]) {
        let failing = result.tests.failing
        let places = SourcePlaces(root: repositoryRoot)
        FailureList.show(failing, places: places, console: console)
        if failing.isEmpty, let tail {
            // Each error once, from the repository root as test failures are; the log's tail then
            // gives the context around them (the source line the compiler quotes), without them again.
            let shown = compilerErrors.prefix(FailureList.limit)
            for line in shown { console.line("   \(Self.placed(line, places))", tone: .bad) }
            let last = tail.lastLines(Self.tailLineCount)
            for line in last where !shown.contains(line) { console.line("   │ \(line)") }
            if result.status == .failed(.exited(127)), let hint = Self.appleToolHint(last, stage: result.kind.rawValue) {
                diagnostics.note(hint)
            }
        }
        if tail != nil || !failing.isEmpty { console.line("   └ full log: \(result.logPath)") }
    }

    /// A compiler's error line with its file from the repository root (`Tests/A.swift:9:17: error: …`).
    static func placed(_ line: String, _ places: SourcePlaces) -> String {
        let error = BuildErrors.failure(fromLine: line)
        guard let location = error.location, let marker = line.firstRange(of: ": error: ") else { return line }
        return places.describe(location) + ": error: " + line[marker.upperBound...]
    }

    /// What to do when a stage's shell found no `xcodebuild` (or `xcrun`), exit 127: on Linux a UI
    /// stage otherwise says only `/bin/sh: 1: xcodebuild: not found`.
    static func appleToolHint(_ lines: [String], stage: String) -> String? {
        guard let tool = ["xcodebuild", "xcrun"].first(where: { tool in
            lines.contains { $0.hasSuffix("\(tool): not found") || $0.hasSuffix("\(tool): command not found") }
        }) else { return nil }
        let skip = stage == "ui" ? "SKIP=ui or --skip-ui-tests" : "SKIP=\(stage)"
        return "\(tool) is not on this machine: it needs macOS with Xcode. Here, skip the \(stage) stage (\(skip)); "
            + "or run it on a Mac with remote: in .prepush.yml (docs/remote-testing.md)"
    }

    /// Runs `xcrun` (or `PREPUSH_XCRUN`) with an argv array under a timeout, its whole output kept.
    static func xcrun(_ arguments: [String], environment: [String: String]) -> ToolOutput? {
        let spec = ProcessSpec(executable: environment["PREPUSH_XCRUN"] ?? "xcrun", arguments: arguments, environment: environment)
        // xcresulttool on a large bundle takes seconds; minutes mean something is wrong.
        guard let ran = try? CommandOutput.run(spec, timeout: 300) else { return nil }
        let status: Int32
        switch ran.outcome.termination {
        case .exited(let code): status = code
        default: status = -1
        }
        return ToolOutput(status: ran.outcome.stopReason == nil ? status : -1, standardOutput: ran.standardOutput,
                          standardError: String(decoding: ran.standardError, as: UTF8.self))
    }

    /// The stage's environment: prepush's own, without the variables git sets for hooks (they
    /// point git commands inside the stage, including test suites' own repositories, at this
    /// repository), plus `PREPUSH_STAGE`, `PREPUSH_REPORTS_DIR`, `PREPUSH_BIN` (this prepush, for
    /// `prepush destination` in a stage when prepush is not on `PATH`) and the stage's `env`.
    static func environment(for stage: StageSettings, base: [String: String], reportsDirectory: String) -> [String: String] {
        var environment = base.filter { key, _ in !isHookLocalGitVariable(key) }
        environment["PREPUSH_STAGE"] = stage.kind.rawValue
        environment["PREPUSH_REPORTS_DIR"] = reportsDirectory
        environment["PREPUSH_BIN"] = ExecutablePath.current()
        for entry in stage.environment { environment[entry.name] = entry.value }
        return environment
    }

    /// The same rule pre-commit follows: drop `GIT_*` except what configures transport and config.
    static func isHookLocalGitVariable(_ name: String) -> Bool {
        guard name.hasPrefix("GIT_") else { return false }
        if name.hasPrefix("GIT_CONFIG_KEY_") || name.hasPrefix("GIT_CONFIG_VALUE_") { return false }
        return !keptGitVariables.contains(name)
    }

    static let keptGitVariables: Set<String> = [
        "GIT_EXEC_PATH", "GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSL_CAINFO", "GIT_SSL_NO_VERIFY",
        "GIT_CONFIG_COUNT", "GIT_HTTP_PROXY_AUTHMETHOD", "GIT_ALLOW_PROTOCOL", "GIT_ASKPASS",
    ]
}

/// What a stage that runs on a remote Mac needs.
struct RemoteStageContext {
    /// The connection.
    let session: RemoteSession
    /// How the tree goes there and results come back.
    let mode: SyncMode
    /// The exported tree of the pushed commit.
    let tree: String
    /// Result paths to bring back, relative to the remote folder.
    let results: [String]
}

/// One test-output parser per stream, fed as the output arrives: stdout and stderr are parsed apart
/// so a line split across chunks of one stream is never mixed with the other.
final class StreamParsers: @unchecked Sendable {
    private var standardOutput = ConsoleTestParser()
    private var standardError = ConsoleTestParser()

    /// Feeds a chunk that arrived `seconds` after the stage started.
    func consume(_ bytes: UnsafeRawBufferPointer, from channel: OutputChannel, at seconds: Double) {
        if channel == .standardOutput {
            standardOutput.clock = seconds
            standardOutput.consume(bytes)
        } else {
            standardError.clock = seconds
            standardError.consume(bytes)
        }
    }

    /// Tests started and not finished, oldest first, with the stage's second they started at.
    var runningEntries: [(suite: String, name: String, startedAt: Double)] {
        (standardOutput.runningTestEntries + standardError.runningTestEntries).sorted { $0.startedAt < $1.startedAt }
    }

    /// The compiler's `error:` lines seen so far (a failed build).
    var compilerErrors: [String] { standardOutput.compilerErrors + standardError.compilerErrors }
    /// How many compiler and tool error lines were seen in all.
    var compilerErrorCount: Int { standardOutput.compilerErrorCount + standardError.compilerErrorCount }
    /// How many runner closing summaries were read.
    var runnerSummaries: Int { standardOutput.runnerSummaries + standardError.runnerSummaries }

    /// Swift Testing tests the console showed start but not end in a run its closing line says passed.
    private(set) var passedByClosingLine = 0
    /// Swift Testing tests of which that console showed no line at all; the closing line counts them.
    private(set) var lostFromConsole = 0

    func finish() -> TestRun {
        let out = standardOutput.finish(), err = standardError.finish()
        passedByClosingLine = out.passedByClosingLine + err.passedByClosingLine
        lostFromConsole = out.lostFromConsole + err.lostFromConsole
        var run = TestRun(results: out.run.results + err.run.results, runFailures: out.run.runFailures + err.run.runFailures)
        run.incomplete = out.run.incomplete ?? err.run.incomplete
        if lostFromConsole > 0 {
            run.counted = TestCounts(tests: run.results.count + lostFromConsole, failed: run.failing.count, skipped: run.count(.skipped))
        }
        return run
    }
}

/// A stage's log, with its standard output and standard error interleaved a whole line at a time:
/// a chunk of one stream ends mid-line whenever the pipe was read then, and writing it as it came
/// spliced a line of the other stream into the middle of it. Each stream's unfinished line waits
/// (up to `pendingLimit` bytes, so one endless line costs no more) for its end or for the stage's.
final class InterleavedLog: @unchecked Sendable {
    static let pendingLimit = 64 * 1024
    private let fd: Int32
    private var pending: [OutputChannel: [UInt8]] = [:]

    init(fd: Int32) { self.fd = fd }

    func append(_ bytes: UnsafeRawBufferPointer, from channel: OutputChannel) {
        guard fd >= 0, !bytes.isEmpty else { return }
        let waiting = pending[channel, default: []]
        guard let lastBreak = bytes.lastIndex(of: 10) else {
            if waiting.count + bytes.count > Self.pendingLimit {
                write(waiting)
                FileSystem.write(bytes, to: fd)
                pending[channel] = []
            } else {
                pending[channel] = waiting + bytes
            }
            return
        }
        write(waiting)
        FileSystem.write(UnsafeRawBufferPointer(rebasing: bytes[..<(lastBreak + 1)]), to: fd)
        pending[channel] = Array(bytes[(lastBreak + 1)...])
    }

    /// Writes what each stream left without a line break, standard output first.
    func finish() {
        for channel in [OutputChannel.standardOutput, .standardError] { write(pending[channel] ?? []) }
        pending.removeAll()
    }

    private func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { FileSystem.write($0, to: fd) }
    }
}

/// The last bytes of a stage's output, for showing the end of a failure without keeping it all.
final class TailBuffer: @unchecked Sendable {
    private var bytes: [UInt8] = []
    private let limit: Int

    init(limit: Int) { self.limit = limit }

    func append(_ chunk: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: chunk)
        if bytes.count > limit * 2 { bytes.removeFirst(bytes.count - limit) }
    }

    /// The last `count` non-empty lines, invalid UTF-8 replaced, carriage-return progress collapsed.
    func lastLines(_ count: Int) -> [String] {
        let text = String(decoding: bytes.suffix(limit), as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true).map { line -> String in
            String(line.split(separator: "\r", omittingEmptySubsequences: true).last ?? "")
        }
        return Array(lines.filter { !$0.allSatisfy(\.isWhitespace) }.suffix(count))
    }
}

/// What starts a stage's command and waits for it: the seam between a push's logic and real
/// processes. `ProcessGroupLauncher` runs a process group under the stage's timeout; a test gives
/// one that plays an output and an ending back, to check what the push makes of them.
package protocol StageLauncher: Sendable {
    /// Runs `spec` under `options` (its timeout, its output callback) and says how it ended.
    func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome
}

/// The real launcher: the command in its own process group, killed as a tree when time runs out.
package struct ProcessGroupLauncher: StageLauncher {
    package init() {}

    package func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome {
        try ProcessGroupRunner.run(spec, options: options)
    }
}
