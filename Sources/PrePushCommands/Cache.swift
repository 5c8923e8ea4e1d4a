import ArgumentParser
import PrePushPipeline

extension Prepush {
    /// `prepush cache`: the verdicts kept so that a tree that passed is not tested twice.
    struct Cache: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cache",
            abstract: "Work with the cached verdicts of passing stages (.git/prepush/verdicts).",
            discussion: "A stage that passed on a tree is not run again for the same tree and inputs; see docs/configuration.md.",
            subcommands: [Clear.self]
        )

        struct Clear: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "clear",
                abstract: "Remove every cached verdict, so each stage runs at the next push.",
                discussion: "Exit status: 0 removed (or nothing to remove), 1 the folder could not be removed, 2 not in a repository."
            )

            func run() throws {
                throw ExitCode(VerdictCacheRun.clear(console: CommandContext.now.console).rawValue)
            }
        }
    }
}
