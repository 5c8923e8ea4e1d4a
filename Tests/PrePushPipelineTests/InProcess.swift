import Foundation
import PrePushConfig
import PrePushCore
import PrePushPipeline
import PrePushRunner
import PrePushCommandTestSupport
import PrePushTestSupport

/// A push's steps run inside the test process, the way the CLI tests run the binary but without
/// starting it: the repository found from `folder` (a real one, in a temporary folder), the
/// output written to files and read back (never the test process's own streams), and stages
/// started by `launcher` (real processes unless a test plays a stage back).
enum InProcess {
    /// `prepush run` (with `--base` when given) in `folder`; `configure` sets anything else.
    static func run(in folder: String, environment: [String: String], base: String? = nil, flags: ConfigurationFlags = ConfigurationFlags(),
                    launcher: (any StageLauncher)? = nil, configure: (inout PipelineRequest) -> Void = { _ in }) throws -> CommandResult {
        var request = PipelineRequest(flags: flags, environment: environment, hook: nil)
        request.currentDirectory = folder
        request.checkRange = base.map { (base: $0, head: "HEAD") }
        if let launcher { request.launcher = launcher }
        configure(&request)
        return try captured { console in Pipeline.run(request, console: console, signals: nil) }
    }

    /// `prepush run|results|a11y ARGUMENTS` in `folder`, parsed and run by the binary's own
    /// command types (`InProcessCLI`); `standardInput` what `-` or `--stdin-path` reads.
    static func run(_ arguments: [String], in folder: String, environment: [String: String]) throws -> CommandResult {
        precondition(arguments.first == "run", "InProcess.run plays `prepush run` only")
        return try InProcessCLI.run(arguments, in: folder, environment: environment)
    }

    /// `prepush results ARGUMENTS` in `folder`.
    static func results(_ arguments: [String], in folder: String, environment: [String: String], standardInput: String? = nil) throws -> CommandResult {
        precondition(arguments.first == "results", "InProcess.results plays `prepush results` only")
        return try InProcessCLI.run(arguments, in: folder, environment: environment, standardInput: standardInput)
    }

    /// `prepush a11y ARGUMENTS` in `folder`.
    static func a11y(_ arguments: [String], in folder: String, environment: [String: String], standardInput: String? = nil) throws -> CommandResult {
        precondition(arguments.first == "a11y", "InProcess.a11y plays `prepush a11y` only")
        return try InProcessCLI.run(arguments, in: folder, environment: environment, standardInput: standardInput)
    }

    struct InProcessError: Error, CustomStringConvertible {
        let description: String
    }

    /// What `body` wrote to a console on two files, and the status it returned.
    static func captured(_ body: (Console) -> ExitStatus) throws -> CommandResult {
        let scratch = try TemporaryDirectory(prefix: "prepush-inprocess")
        let output = open(scratch.url("stdout"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(scratch.url("stderr"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        defer { close(output); close(errors) }
        let console = Console(output: output, errors: errors, isTerminal: false, usesColour: false)
        let status = body(console)
        return CommandResult(status: status.rawValue, standardOutput: (try? String(contentsOfFile: scratch.url("stdout"), encoding: .utf8)) ?? "",
                             standardError: (try? String(contentsOfFile: scratch.url("stderr"), encoding: .utf8)) ?? "")
    }
}

/// A stage played back: the output it prints and how it ends, with no process started. For
/// what a push makes of an ending (a timeout, a signal, a command that cannot start) without
/// waiting for one; the real ones are tested with real processes in PrePushRunnerTests and the CLI tests.
struct PlayedStage: StageLauncher {
    enum Ending: Sendable {
        case exited(Int32)
        case signalled(Int32)
        case timedOut
        case cannotStart
    }

    let output: String
    let ending: Ending

    func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome {
        let outcome: RunOutcome
        switch ending {
        case .cannotStart: throw RunnerError.spawnFailed(executable: "/bin/sh", errno: ENOENT)
        case .exited(let code): outcome = RunOutcome(termination: .exited(code), stopReason: nil, duration: 0.1)
        case .signalled(let signal): outcome = RunOutcome(termination: .signaled(signal), stopReason: nil, duration: 0.1)
        case .timedOut: outcome = RunOutcome(termination: .signaled(SIGINT), stopReason: .timedOut, duration: options.timeout ?? 0)
        }
        var text = output
        text.withUTF8 { options.onOutput(.standardOutput, UnsafeRawBufferPointer($0)) }
        return outcome
    }
}
