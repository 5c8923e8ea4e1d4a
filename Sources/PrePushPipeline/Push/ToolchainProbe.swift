import PrePushRunner

/// `swift --version`'s first line, asked in the background while the stages run (or the report is
/// read), so the report's stamp can name the toolchain without anyone waiting for it: asking takes
/// about 0.2 s.
final class ToolchainProbe: @unchecked Sendable {
    private final class Answer: @unchecked Sendable {
        var line: String?
    }
    private let answer = Answer()
    private let thread: ParallelStages.Thread

    /// Starts asking, with the run's environment (its `PATH` picks the toolchain the stages use).
    init(environment: [String: String]) {
        let answer = self.answer
        thread = ParallelStages.Thread { answer.line = Self.ask(environment) }
    }

    /// The answer, waiting for it if it has not come yet; nil when there is no `swift` or it said nothing.
    var toolchain: String? {
        thread.join()
        return answer.line
    }

    private static func ask(_ environment: [String: String]) -> String? {
        let spec = ProcessSpec(executable: "swift", arguments: ["--version"], environment: environment)
        guard let ran = try? CommandOutput.run(spec, timeout: 10, outputLimit: 4096, mergingStandardError: true), ran.succeeded else { return nil }
        let first = ran.text.split(separator: "\n").first.map(String.init)
        return first.flatMap { $0.contains("Swift version") ? $0 : nil }
    }
}
