import PrePushCore

/// The one sink for prepush's own notes, warnings and errors, in the manner of swift-format's
/// `DiagnosticsEngine`: every message says what it is once, here, and where it goes is decided once.
///
/// In a run (a push, `prepush run`), notes and warnings are part of the story the run tells and go
/// to standard output, in order with the stages' lines; errors (the run cannot go on: exit 2) go to
/// standard error. A command whose standard output is a report (`prepush results`, `prepush report
/// --output -`) sends everything to standard error, so the report stays clean.
struct Diagnostics {
    /// Where the lines go.
    var console: Console
    /// Whether standard output carries a report, so that notes and warnings must keep off it.
    var standardOutputIsReport = false

    /// `prepush: note: …`: something the user may want to know; nothing is wrong.
    func note(_ text: String) {
        if standardOutputIsReport { console.error("prepush: note: \(text)") } else { console.line("prepush: note: \(text)") }
    }

    /// `prepush: warning: …`: something is wrong, and the run goes on without it.
    func warning(_ text: String) {
        if standardOutputIsReport { console.error("prepush: warning: \(text)") } else { console.line("prepush: warning: \(text)", tone: .warning) }
    }

    /// An error that ends the run: its own lines when it is a located diagnostic, else `error: …`.
    func error(_ error: PipelineError) {
        for line in error.lines { console.error(line) }
    }

    /// `prepush: …`: what the run does, on the run's output.
    func say(_ text: String, tone: Console.Tone? = nil) {
        if let tone { console.line("prepush: \(text)", tone: tone) } else { console.line("prepush: \(text)") }
    }

    /// `prepush – stage: reason`: why a stage does not run.
    func stageLeftOut(_ kind: String, _ reason: String) {
        console.line("prepush – \(kind): \(reason)")
    }
}
