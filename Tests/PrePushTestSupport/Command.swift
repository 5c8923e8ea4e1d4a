import Foundation

/// The result of running a command to its end.
public struct CommandResult: Sendable, CustomStringConvertible {
    /// The exit status (or 128 + signal).
    public let status: Int32
    /// Everything it wrote to standard output.
    public let standardOutput: String
    /// Everything it wrote to standard error.
    public let standardError: String

    /// A result read back from a run inside the test process.
    public init(status: Int32, standardOutput: String, standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Both streams, for messages that may go to either.
    public var combined: String { standardOutput + standardError }

    public var description: String {
        "exit \(status)\n--- stdout\n\(standardOutput)\n--- stderr\n\(standardError)"
    }
}

/// Runs commands for tests. Output goes to files, not pipes, so a chatty child can never block
/// on a full pipe while the test waits for it.
public enum Command {
    /// Runs `executable` with `arguments` and waits for it.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String], standardInput: String? = nil
    ) throws -> CommandResult {
        let process = try start(executable, arguments, in: directory, environment: environment, standardInput: standardInput)
        return process.wait()
    }

    /// Runs `executable` with `arguments` and waits for it without holding a thread of the test
    /// run: an `async` test that spends its time waiting (a timeout, an ssh session) leaves the
    /// cores to the tests that compute. Swift Testing runs a synchronous test on one of the few
    /// threads of Swift's pool (one per core), and a test blocked on a child that sleeps holds it.
    public static func run(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String], standardInput: String? = nil
    ) async throws -> CommandResult {
        let process = try start(executable, arguments, in: directory, environment: environment, standardInput: standardInput)
        return await process.wait()
    }

    /// Starts a command without waiting, for tests that signal it while it runs.
    public static func start(
        _ executable: String, _ arguments: [String], in directory: String? = nil,
        environment: [String: String], standardInput: String? = nil
    ) throws -> RunningCommand {
        let scratch = try TemporaryDirectory(prefix: "prepush-cmd")
        let outPath = scratch.url("stdout"), errPath = scratch.url("stderr"), inPath = scratch.url("stdin")
        _ = FileManager.default.createFile(atPath: outPath, contents: nil)
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        _ = FileManager.default.createFile(atPath: inPath, contents: Data((standardInput ?? "").utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.contains("/") ? executable : "/usr/bin/env")
        process.arguments = executable.contains("/") ? arguments : [executable] + arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardInput = standardInput == nil ? FileHandle.nullDevice : try FileHandle(forReadingFrom: URL(fileURLWithPath: inPath))
        try process.run()
        return RunningCommand(process: process, scratch: scratch)
    }
}

/// A command started by `Command.start`.
public final class RunningCommand: @unchecked Sendable {
    /// The underlying process.
    public let process: Process
    private let scratch: TemporaryDirectory

    init(process: Process, scratch: TemporaryDirectory) {
        self.process = process
        self.scratch = scratch
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal` to the process.
    public func send(_ signal: Int32) {
        // Once reaped, the pid may be another process's.
        guard process.isRunning else { return }
        kill(process.processIdentifier, signal)
    }

    /// Output so far.
    public var standardOutputSoFar: String { scratch.read("stdout") ?? "" }

    /// Waits for the end and collects the output.
    public func wait() -> CommandResult {
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
        return CommandResult(status: status, standardOutput: scratch.read("stdout") ?? "", standardError: scratch.read("stderr") ?? "")
    }

    /// Waits at most `seconds` for the end. A child still running then is killed (SIGKILL) and
    /// reaped, and `DidNotEnd` is thrown with what it wrote: the test fails instead of hanging (a
    /// `.timeLimit` cannot end a wait that blocks its thread).
    public func wait(upTo seconds: Double) throws -> CommandResult {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        guard process.isRunning else { return wait() }
        kill(process.processIdentifier, SIGKILL)
        throw DidNotEnd(seconds: seconds, result: wait())
    }

    /// A command that did not end within its bound, killed.
    public struct DidNotEnd: Error, CustomStringConvertible {
        /// The bound, in seconds.
        public let seconds: Double
        /// What it wrote before it was killed.
        public let result: CommandResult

        public var description: String { "the command did not end within \(seconds) s and was killed; \(result)" }
    }

    /// Waits for the end on a thread of its own, so the waiting test holds none of Swift's pool.
    public func wait() async -> CommandResult {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: self.wait()) }.start()
        }
    }
}
