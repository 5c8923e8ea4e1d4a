import ArgumentParser
import PrePushPipeline

extension Prepush {
    struct Range: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "range",
            abstract: "Show the commits and changed lines a range sends: what the view checks look at.",
            discussion: """
            Example: prepush range --base origin/main --head HEAD
            Each file: its path, how it changed, the added lines and the points where lines were removed.
            """
        )

        @Option(help: "The revision the range starts from (its merge base with --head is compared).")
        var base: String

        @Option(help: "The revision the range ends at.")
        var head: String = "HEAD"

        @Flag(help: "Also say how the base was chosen.")
        var verbose = false

        @Flag(help: "Only the files, without added lines and removal points.")
        var namesOnly = false

        @Flag(help: "Print how long opening the repository and computing the range took, to stderr (the benchmark's in-process figure).")
        var timing = false

        func run() throws {
            var request = RangeRun.Request(base: base, head: head)
            request.verbose = verbose
            request.namesOnly = namesOnly
            request.timing = timing
            throw ExitCode(RangeRun.run(request, console: CommandContext.now.console).rawValue)
        }
    }
}
