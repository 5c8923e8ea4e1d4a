import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushTraceability
import PrePushYAML

/// The one sink for prepush's own notes, warnings and errors, in the manner of swift-format's
/// `DiagnosticsEngine`: every message says what it is once, here, and where it goes is decided once.
///
/// In a run (a push, `prepush run`), notes and warnings are part of the story the run tells and go
/// to standard output, in order with the stages' lines; errors (the run cannot go on: exit 2) go to
/// standard error. A command whose standard output is a report (`prepush results`, `prepush report
/// --output -`) sends everything to standard error, so the report stays clean.
///
/// One is made per command, where the command starts, and passed down; nothing else writes to
/// standard error (`Console.standardError` is this type's alone). Error values carry no severity
/// word: `error: ` is said here (a located diagnostic carries its own, in the compiler's form).
package struct Diagnostics {
    /// Where the lines go; reports and a run's own story go to its standard output.
    package var console: Console
    /// Whether standard output carries a report, so that notes and warnings must keep off it.
    package var standardOutputIsReport = false

    /// A sink on `console`; `standardOutputIsReport` when the command's standard output is a
    /// report (JSON, SARIF, a value another command reads).
    package init(console: Console, standardOutputIsReport: Bool = false) {
        self.console = console
        self.standardOutputIsReport = standardOutputIsReport
    }

    /// `prepush: note: …`: something the user may want to know; nothing is wrong.
    package func note(_ text: String) {
        if standardOutputIsReport { console.standardError("prepush: note: \(text)") } else { console.line("prepush: note: \(text)") }
    }

    /// `prepush: warning: …`: something is wrong, and the run goes on without it.
    package func warning(_ text: String) {
        if standardOutputIsReport { console.standardError("prepush: warning: \(text)") } else { console.line("prepush: warning: \(text)", tone: .warning) }
    }

    /// An error that ends the run: its own lines when it is a located diagnostic, else `error: …`.
    func error(_ error: PipelineError) {
        for line in error.lines { console.standardError(line) }
    }

    /// `error: message`: what went wrong, on standard error.
    package func error(_ message: String) {
        console.standardError("error: \(message)")
    }

    /// An error value as the terminal shows it: a located one (configuration, catalog, YAML) as its
    /// diagnostics, anything else after `error: `.
    package func error(describing error: any Error) {
        switch error {
        case let pipeline as PipelineError: self.error(pipeline)
        case let configuration as ConfigurationError: console.standardError(configuration.rendered)
        case let catalog as CatalogError: console.standardError(catalog.description)
        case let yaml as YAMLError: console.standardError(yaml.description)
        case let refs as PushUpdateError: console.standardError(refs.description)
        default: self.error(ErrorText.describe(error))
        }
    }

    /// The repository git finds from here (`GIT_DIR` honoured), libgit2 set up first; nil, said
    /// as an error, when there is none: what a command outside a push opens.
    func repositoryHere() -> Repository? {
        GitLibrary.initialize()
        do {
            return try CommandContext.now.openRepository()
        } catch {
            self.error(describing: error)
            return nil
        }
    }

    /// A line for the person running the command, kept off standard output (which holds a report or
    /// a value), as it is: a finding an editor shows, a failed test's line, what a command found.
    package func aside(_ text: String) {
        console.standardError(text)
    }

    /// A progress line rewritten in place on standard error (a terminal's only); empty: cleared.
    func progress(_ text: String) {
        console.replaceErrorLine(text)
    }

    /// `prepush: …`: what the run does, on the run's output.
    package func say(_ text: String, tone: Console.Tone? = nil) {
        if let tone { console.line("prepush: \(text)", tone: tone) } else { console.line("prepush: \(text)") }
    }

    /// `prepush – stage: reason`: why a stage does not run.
    func stageLeftOut(_ kind: String, _ reason: String) {
        console.line("prepush – \(kind): \(reason)")
    }
}
