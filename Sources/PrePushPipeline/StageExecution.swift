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
public enum StageStatus: Sendable, Equatable {
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
public struct StageResult: Sendable, Equatable {
    /// Which stage.
    public let kind: StageKind
    /// How it ended.
    public let status: StageStatus
    /// Seconds it ran.
    public let duration: Double
    /// Absolute path of the stage's full log.
    public let logPath: String
    /// The tests the stage's output showed (none for a stage that runs no tests).
    public let tests: TestRun

    /// One line for the summary: `ui: timed out after 600 s`.
    public var summary: String {
        let name = kind.rawValue
        switch status {
        case .passed: return "\(name): passed in \(Self.seconds(duration))"
        case .failed(.exited(let code)): return "\(name): failed (exit \(code)) after \(Self.seconds(duration))"
        case .failed(.signaled(let signal)): return "\(name): failed (killed by signal \(signal)) after \(Self.seconds(duration))"
        case .timedOut(let seconds): return "\(name): timed out after \(seconds) s"
        case .interrupted(let signal): return "\(name): interrupted by \(Self.signalName(signal)) after \(Self.seconds(duration))"
        case .couldNotStart(let reason): return "\(name): could not start: \(reason)"
        }
    }

    /// Seconds with one decimal below a minute, then minutes and seconds.
    static func seconds(_ value: Double) -> String {
        TextFormatting.duration(value)
    }

    static func signalName(_ number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        default: return "signal \(number)"
        }
    }
}

/// Runs one stage: its process group under its timeout, its whole output to `<reports>/<stage>.log`
/// as it arrives, and to the terminal either live (`verbose`) or as a progress line plus the last
/// lines of a failing stage.
struct StageExecution {
    /// Lines of a failing stage's output shown on the terminal.
    static let tailLineCount = 20
    /// Bytes of output kept for that tail.
    static let tailByteLimit = 64 * 1024

    let stage: StageSettings
    let reportsDirectory: String
    let baseEnvironment: [String: String]
    let verbose: Bool
    let console: Console
    let signals: SignalWatcher?
    let killGracePeriod: Double
    /// Set when the stage runs on a remote Mac.
    var remote: RemoteStageContext? = nil

    func run() -> StageResult {
        let name = stage.kind.rawValue
        let logPath = FilePath.join(reportsDirectory, "\(name).log")
        let log = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        defer { if log >= 0 { close(log) } }
        let tail = TailBuffer(limit: Self.tailByteLimit)
        let parsers = StreamParsers()

        let place = remote.map { " on \($0.session.target.destination):\($0.session.target.path)" } ?? ""
        let heading = "\(name): \(stage.command)\(place) (timeout \(stage.timeout) s)"
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
        if verbose || !console.isTerminal {
            console.line("prepush ▸ \(heading)", tone: .quiet)
        } else {
            console.replaceLine(console.painted("prepush ▸ \(heading)", .quiet))
        }
        let console = self.console
        let verbose = self.verbose
        var options = RunOptions(timeout: Double(stage.timeout), killGracePeriod: killGracePeriod, signals: signals) { channel, bytes in
            if log >= 0 { _ = bytes.withMemoryRebound(to: UInt8.self) { write(log, $0.baseAddress, $0.count) } }
            parsers.consume(bytes, from: channel)
            if verbose {
                console.passThrough(bytes, fromStandardError: channel == .standardError)
            } else {
                tail.append(bytes)
            }
        }
        if !verbose && console.isTerminal {
            options.onTick = { elapsed in console.replaceLine(console.painted("prepush ▸ \(heading)  \(Int(elapsed)) s", .quiet)) }
        }

        var spec = ProcessSpec.shell(stage.command, environment: Self.environment(for: stage, base: baseEnvironment, reportsDirectory: reportsDirectory),
                                     workingDirectory: stage.workingDirectory)
        if let remote {
            let variables = [("PREPUSH_STAGE", stage.kind.rawValue)] + stage.environment.map { ($0.name, $0.value) }
            spec = remote.session.commandSpec(stage.command, environment: variables)
            // A timeout or Ctrl-C stops the command on the Mac too, not only the local ssh client.
            options.onStop = { _ in remote.session.stop() }
        }
        let status: StageStatus
        let duration: Double
        do {
            let outcome = try ProcessGroupRunner.run(spec, options: options)
            duration = outcome.duration
            switch outcome.stopReason {
            case .timedOut: status = .timedOut(seconds: stage.timeout)
            case .interrupted(let signal): status = .interrupted(signal: signal)
            case nil: status = outcome.termination == .exited(0) ? .passed : .failed(outcome.termination)
            }
        } catch {
            duration = 0
            status = .couldNotStart(error.description)
        }
        var tests = parsers.finish()
        if let remote, !remote.results.isEmpty {
            let folder = FilePath.join(reportsDirectory, "remote")
            if let fetched = try? remote.session.fetch(remote.results, into: folder, mode: remote.mode) {
                if verbose { console.line("prepush ▸ \(name): brought back \(fetched.count) of \(remote.results.count) result paths into \(folder)") }
                let fromFiles = fetched.compactMap { try? ResultsInput.parse(file: $0) }.filter { $0.kind != .console }.flatMap(\.run.results)
                if !fromFiles.isEmpty { tests = TestRun(results: fromFiles) }
            }
        }
        #if os(macOS)
        // An xcodebuild stage's result bundle knows more than its console: read it when it exists.
        if let bundle = ResultBundleLocator.bundlePath(inCommand: stage.command, workingDirectory: stage.workingDirectory),
           FileManager.default.fileExists(atPath: bundle),
           let fromBundle = try? ResultBundleReader.read(bundle: bundle, attachmentsFolder: FilePath.join(reportsDirectory, "attachments")),
           !fromBundle.results.isEmpty {
            tests = fromBundle
        }
        #endif
        let result = StageResult(kind: stage.kind, status: status, duration: duration, logPath: logPath, tests: tests)
        if !verbose && console.isTerminal { console.clearLine() }
        console.line("prepush \(status == .passed ? "✔" : "✘") \(result.summary)", tone: status == .passed ? .good : .bad)
        if status != .passed && !verbose {
            for line in tail.lastLines(Self.tailLineCount) { console.line("   │ \(line)") }
            console.line("   └ full log: \(logPath)")
        }
        return result
    }

    /// The stage's environment: prepush's own, without the variables git sets for hooks (they
    /// point git commands inside the stage, including test suites' own repositories, at this
    /// repository), plus `PREPUSH_STAGE`, `PREPUSH_REPORTS_DIR` and the stage's `env`.
    static func environment(for stage: StageSettings, base: [String: String], reportsDirectory: String) -> [String: String] {
        var environment = base.filter { key, _ in !isHookLocalGitVariable(key) }
        environment["PREPUSH_STAGE"] = stage.kind.rawValue
        environment["PREPUSH_REPORTS_DIR"] = reportsDirectory
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

    func consume(_ bytes: UnsafeRawBufferPointer, from channel: OutputChannel) {
        if channel == .standardOutput { standardOutput.consume(bytes) } else { standardError.consume(bytes) }
    }

    func finish() -> TestRun {
        TestRun(results: standardOutput.finish().run.results + standardError.finish().run.results)
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
