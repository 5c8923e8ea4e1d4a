import ArgumentParser
import PrePushCore
import PrePushPipeline

extension Prepush {
    struct Demo: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "demo",
            abstract: "Show prepush on an example: a temporary repository, its hook, and two real pushes."
        )

        @Flag(help: "Keep the temporary folder instead of deleting it.")
        var keep = false

        func run() throws {
            let status = DemoRun(keep: keep, executablePath: ExecutablePath.current(), console: CommandContext.now.console).run()
            throw ExitCode(status.rawValue)
        }
    }
}
