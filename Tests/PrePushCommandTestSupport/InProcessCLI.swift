import ArgumentParser
import Foundation
import PrePushCommands
import PrePushCore
import PrePushPipeline
import PrePushTestSupport

/// A `prepush` command line run inside the test process: parsed by the binary's own parser
/// (`Prepush.parseAsRoot`), validated, and run by the very command types the binary runs, with the
/// repository's folder, environment and standard input given in a `CommandContext` and the output
/// written to files and read back. The exit status is the binary's: a parse or validation error is 2
/// with the parser's message on standard error, as `Main` makes it.
///
/// What it cannot show is said where a test needs a process of its own (`/// Own process:`, checked by
/// OwnProcessTests): signals (a test process keeps its own handlers), a terminal, the hook's fast
/// path, `--version` and `--help`'s printing, anything that reads `CommandLine`, the process's own
/// folder or environment, and runs one after another in one checkout whose reports are read back (a
/// run holds the reports folder until its process ends, so a second run here writes to `runs/<pid>`).
public enum InProcessCLI {
    /// Runs `arguments` (without `prepush`) in `folder`.
    public static func run(_ arguments: [String], in folder: String, environment: [String: String],
                           standardInput: String? = nil) throws -> CommandResult {
        let scratch = try TemporaryDirectory(prefix: "prepush-cli")
        _ = try scratch.write(standardInput ?? "", to: "stdin")
        let output = open(scratch.url("stdout"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let errors = open(scratch.url("stderr"), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        let input = open(scratch.url("stdin"), O_RDONLY | O_CLOEXEC)
        defer { close(output); close(errors); close(input) }
        var console = Console(output: output, errors: errors, isTerminal: false, usesColour: false)
        console.neutralisesWorkflowCommands = environment["GITHUB_ACTIONS"] == "true"
        var context = CommandContext(environment: environment, currentDirectory: folder, console: console, standardInput: input,
                                     inputIsTerminal: false, handlesSignals: false)
        // A hook `install` writes calls the built binary, not the test process.
        context.executablePath = PrepushBinary.path
        let status = CommandContext.$current.withValue(context) { execute(arguments, console: console) }
        return CommandResult(status: status, standardOutput: scratch.read("stdout") ?? "", standardError: scratch.read("stderr") ?? "")
    }

    /// What `Main` does with a command line after its fast paths: parse, run, and one exit status.
    private static func execute(_ arguments: [String], console: Console) -> Int32 {
        do {
            var command = try Prepush.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = Prepush.exitCode(for: error)
            if code == .success { return 0 }
            if let exit = error as? ExitCode { return exit.rawValue }
            let message = Prepush.fullMessage(for: error)
            let diagnostics = Diagnostics(console: console)
            if message.hasPrefix("Error:") || message.hasPrefix("error:") { diagnostics.aside(message) } else { diagnostics.error(message) }
            return ExitStatus.usage.rawValue
        }
    }
}

extension InProcessCLI {
    /// What the pre-push hook decides for a push of `branch` to `origin`, run inside the test
    /// process: the ref line git would send (the local commit, the remote's or zeros) on standard
    /// input of `prepush hook pre-push origin URL`. Nothing is pushed: the remote never moves, so
    /// a test of the remote itself pushes with git.
    public static func hook(_ repo: GitRepository, branch: String = "main", environment extra: [String: String] = [:]) throws -> CommandResult {
        let local = try repo.git("rev-parse", branch)
        let remote = try repo.remoteHead(branch) ?? String(repeating: "0", count: local.count)
        let line = "refs/heads/\(branch) \(local) refs/heads/\(branch) \(remote)\n"
        return try run(["hook", "pre-push", "origin", repo.remotePath], in: repo.path, environment: repo.environment.merging(extra) { $1 },
                       standardInput: line)
    }
}
