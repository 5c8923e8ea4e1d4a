import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushPipeline
import PrePushTraceability

extension TraceabilityFormat: ExpressibleByArgument {}

extension Prepush {
    struct Scenarios: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "scenarios",
            abstract: "Work with the scenario catalog.",
            discussion: "Example: prepush scenarios lint .prepush/scenarios.yml     (format: docs/traceability.md)",
            subcommands: [Lint.self]
        )

        struct Lint: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "lint",
                abstract: "Check a scenario catalog alone: every problem with its line and column.",
                discussion: """
                Exit status: 0 no problems, 1 problems, 2 bad usage or configuration.

                Examples:
                  prepush scenarios lint                        the catalog .prepush.yml names (default .prepush/scenarios.yml)
                  prepush scenarios lint docs/scenarios.yml
                """
            )

            @Argument(help: "The catalog (default: traceability.catalog, or .prepush/scenarios.yml).")
            var catalog: String?

            @OptionGroup var configFile: ConfigFileOption

            func run() throws {
                let flags = configFile.flags
                let status = TraceabilityRun.lint(catalog: catalog, flags: flags, environment: CommandContext.now.environment, console: CommandContext.now.console)
                throw ExitCode(status.rawValue)
            }
        }
    }

    struct Report: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "The traceability report of a scenario catalog, the tests in the sources and saved results.",
            discussion: """
            Tests are found in the sources of the repository here (traceability.tests). Results are \
            console logs, JUnit XML, xcresulttool JSON, Swift Testing events or results.json. A blocking \
            scenario passes only when every test it links ran and passed. Exit status: 0 the gate passes, \
            1 a blocking scenario failed, was skipped, did not run or has no test, or the results \
            end before their run does (unless --allow-incomplete), 2 bad input.

            Examples:
              prepush report --results .prepush/reports/junit.xml --format html --output traceability.html
              prepush report --scenarios qa/scenarios.yml --results ui.log unit.xml --format markdown
            """
        )

        @Option(help: ArgumentHelp("The scenario catalog (default: traceability.catalog, or .prepush/scenarios.yml).", valueName: "path"))
        var scenarios: String?

        @Option(parsing: .upToNextOption, help: ArgumentHelp("Saved test results.", valueName: "files"))
        var results: [String] = []

        @Option(help: ArgumentHelp("\(TraceabilityFormat.helpList)."))
        var format: TraceabilityFormat = .html

        @Option(help: ArgumentHelp("Write the report here instead of standard output.", valueName: "path"))
        var output: String?

        @Flag(name: .customLong("allow-incomplete"), help: "Accept results whose output shows their run start and not its end (a cut log).")
        var allowIncomplete = false

        @OptionGroup var configFile: ConfigFileOption

        func run() throws {
            let flags = configFile.flags
            let status = TraceabilityRun.report(catalog: scenarios, resultFiles: results, format: format, output: output,
                                                flags: flags, environment: CommandContext.now.environment, console: CommandContext.now.console,
                                                allowIncomplete: allowIncomplete)
            throw ExitCode(status.rawValue)
        }
    }
}
