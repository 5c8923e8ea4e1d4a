import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushPipeline

extension Prepush {
    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Write a commented .prepush.yml from what the repository holds (packages with tests, Xcode schemes and the bundles they test, the team's simulator, a scenario catalog).",
            discussion: "Example: prepush init && prepush config && prepush install"
        )

        @Flag(help: "Write over an existing .prepush.yml.")
        var force = false

        func run() throws {
            throw ExitCode(InitRun.runHere(force: force, console: CommandContext.now.console).rawValue)
        }
    }
}
