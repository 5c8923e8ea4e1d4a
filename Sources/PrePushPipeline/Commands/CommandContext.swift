#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushGit
import PrePushRunner

/// What a command takes from the process that runs it: its environment, folder, console, standard
/// input and signals. The executable uses the process's own; a test runs the very same parsed
/// command inside its process with its own (`CommandContext.$current.withValue`), so the argument
/// parser, the commands' `run()` and everything below them are exercised without starting a binary.
package struct CommandContext: Sendable {
    /// The variables the command reads (the process's, or a test repository's isolated ones).
    package var environment: [String: String]
    /// The folder the command runs in; nil: the process's own.
    package var currentDirectory: String?
    /// Where the command writes.
    package var console: Console
    /// The descriptor standard input is read from.
    package var standardInput: Int32
    /// Whether standard input is a terminal (the hook then waits for no ref lines).
    package var inputIsTerminal: Bool
    /// Whether the command installs prepush's signal handlers: only a process of its own does (a
    /// test process keeps its own).
    package var handlesSignals: Bool
    /// The prepush binary hooks call (`install`, the demo); nil: this process's own executable.
    package var executablePath: String?

    /// Creates a context.
    package init(environment: [String: String], currentDirectory: String?, console: Console, standardInput: Int32,
                inputIsTerminal: Bool, handlesSignals: Bool) {
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.console = console
        self.standardInput = standardInput
        self.inputIsTerminal = inputIsTerminal
        self.handlesSignals = handlesSignals
    }

    /// The process's own: its environment and folder, the terminal's console, descriptor 0, signals handled.
    package static var process: CommandContext {
        CommandContext(environment: ProcessInfo.processInfo.environment, currentDirectory: nil, console: Console(), standardInput: 0,
                       inputIsTerminal: FileSystem.isTerminal(0), handlesSignals: true)
    }

    /// The context the running command uses; the process's unless a test set another.
    @TaskLocal package static var current: CommandContext?

    /// `current`, or the process's own.
    package static var now: CommandContext { current ?? process }

    /// The folder the command runs in, as a path.
    package var here: String { currentDirectory ?? FileManager.default.currentDirectoryPath }

    /// prepush's signal handlers, installed now, when this context handles signals.
    package func signals() -> SignalWatcher? {
        handlesSignals ? SignalWatcher.install() : nil
    }

    /// Everything on standard input (nil when it is a terminal: nobody will type ref lines).
    package func readStandardInput() -> [UInt8]? {
        inputIsTerminal ? nil : FileSystem.readAll(standardInput)
    }
}

extension CommandContext {
    /// The repository the command works in: found from `currentDirectory` when the context names
    /// one, else as git does in a hook (`GIT_DIR`, `GIT_WORK_TREE`, the process's folder).
    package func openRepository() throws(GitError) -> Repository {
        GitLibrary.initialize()
        if let currentDirectory { return try Repository.discover(from: currentDirectory) }
        return try Repository.openFromEnvironment()
    }
}
