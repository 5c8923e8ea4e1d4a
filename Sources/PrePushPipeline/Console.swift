#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushCore

/// Where prepush talks to the person (or CI log) running it. Unbuffered writes to file descriptors,
/// so prepush's lines and a stage's streamed output stay in order.
package struct Console: Sendable {
    /// Descriptor for normal output.
    package let output: Int32
    /// Descriptor for errors.
    package let errors: Int32
    /// Whether `output` is a terminal: progress lines are then updated in place.
    package let isTerminal: Bool
    /// Whether lines are coloured: on a terminal, unless `NO_COLOR` is set to anything (no-color.org)
    /// or `TERM` is `dumb`. Logs and pipes get plain text.
    package let usesColour: Bool

    /// How a line reads at a glance.
    package enum Tone: Sendable {
        /// Passed, done.
        case good
        /// Failed, refused, an error.
        case bad
        /// A warning.
        case warning
        /// Secondary: what is about to happen.
        case quiet
        /// The run's passing verdict: shown even with `--quiet`.
        case verdict
    }

    /// `--quiet` (or `PREPUSH_QUIET`): only the verdict, failures, warnings and their details
    /// (indented lines) are written; progress and passing stages are not.
    package var quiet = false

    /// In GitHub Actions (`GITHUB_ACTIONS=true`) every line is written so that the runner cannot read
    /// it as a workflow command (`WorkflowCommand.neutralised`): test names, messages, paths and
    /// descriptions come from the pull request. prepush's own annotations go through `command`.
    package var neutralisesWorkflowCommands = getenv("GITHUB_ACTIONS").map { String(cString: $0) == "true" } ?? false

    /// A console on the given descriptors; `isTerminal` defaults to what `isatty` says of `output`,
    /// and colour to the terminal and the environment (`NO_COLOR`, `TERM`).
    package init(output: Int32 = 1, errors: Int32 = 2, isTerminal: Bool? = nil, environment: [String: String]? = nil) {
        self.output = output
        self.errors = errors
        let terminal = isTerminal ?? (isatty(output) == 1)
        self.isTerminal = terminal
        func variable(_ name: String) -> String? {
            if let environment { return environment[name] }
            return getenv(name).map { String(cString: $0) }
        }
        usesColour = terminal && variable("NO_COLOR").map(\.isEmpty) != false && variable("TERM") != "dumb"
        neutralisesWorkflowCommands = variable("GITHUB_ACTIONS") == "true"
    }

    /// A console on the given descriptors with the terminal and colour decided by the caller: a
    /// stage running beside others writes into a file that is shown on the terminal later.
    package init(output: Int32, errors: Int32, isTerminal: Bool, usesColour: Bool) {
        self.output = output
        self.errors = errors
        self.isTerminal = isTerminal
        self.usesColour = usesColour
    }

    /// Writes a line to the output.
    package func line(_ text: String) {
        if quiet && !text.hasPrefix("   ") { return }
        send(safe(text) + "\n", to: output)
    }

    /// Writes a line to the output in a tone (coloured on a terminal).
    package func line(_ text: String, tone: Tone) {
        if quiet && (tone == .good || tone == .quiet) { return }
        send(painted(safe(text), tone) + "\n", to: output)
    }

    /// Writes a line to the error stream: `Diagnostics`' alone, the one sink for what is not output.
    func standardError(_ text: String) { send(safe(text) + "\n", to: errors) }

    /// Writes one of prepush's own workflow commands (`WorkflowCommand.line`), as it is.
    package func command(_ line: String) {
        send(line + "\n", to: output)
    }

    /// Text as it may reach the terminal or log: control characters escaped everywhere, and workflow
    /// commands defused under GitHub Actions.
    private func safe(_ text: String) -> String {
        neutralisesWorkflowCommands ? WorkflowCommand.neutralised(text) : WorkflowCommand.escapedControls(text)
    }

    /// `text` wrapped in the ANSI colour of `tone`, or as it is without colour.
    package func painted(_ text: String, _ tone: Tone) -> String {
        guard usesColour else { return text }
        let code: String
        switch tone {
        case .good, .verdict: code = "32"
        case .bad: code = "1;31"
        case .warning: code = "33"
        case .quiet: code = "2"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    /// Rewrites the current terminal line (no newline), for progress.
    func replaceLine(_ text: String) { if !quiet { send("\r\u{1B}[2K" + text, to: output) } }

    /// Clears the line `replaceLine` wrote.
    func clearLine() { if !quiet { send("\r\u{1B}[2K", to: output) } }

    /// prepush's own workflow commands (annotations), as they are, on the error stream: for a
    /// command whose standard output is a report.
    func commandsOnStandardError(_ text: String) { send(text, to: errors) }

    /// Rewrites the error stream's current line (no newline), for progress there while standard
    /// output carries a report; an empty `text` clears it.
    func replaceErrorLine(_ text: String) { send("\r\u{1B}[2K" + safe(text), to: errors) }

    /// Whether the error stream is a terminal (progress is rewritten in place only there).
    var errorsAreTerminal: Bool { isatty(errors) == 1 }

    /// A report's bytes on standard output, as its writer made them: the one way a payload (JSON,
    /// JUnit, SARIF, Markdown, annotations) reaches standard output. Never escaped here, because
    /// each format's writer escapes for its own language; never silenced by `quiet`, because the
    /// payload is what the command was asked for.
    package func payload(_ text: String) { send(text, to: output) }

    /// The bytes of a report written piece by piece (`ReportSink`), as `payload(_:)` writes text.
    /// False when the reader went away (a closed pipe), so the writer stops.
    @discardableResult
    package func payload(_ bytes: UnsafeRawBufferPointer) -> Bool { send(bytes, to: output) }

    /// Passes a stage's output through: its stdout to ours, its stderr to ours.
    func passThrough(_ bytes: UnsafeRawBufferPointer, fromStandardError: Bool) {
        send(bytes, to: fromStandardError ? errors : output)
    }

    private func send(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { send(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// A closed terminal or pipe ends the write quietly; SIGPIPE is ignored by the CLI.
    @discardableResult
    private func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }
}
