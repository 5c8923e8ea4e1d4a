import ArgumentParser
import PrePushPipeline

extension Prepush {
    /// `prepush history`: the runs every push and `prepush run` remember.
    struct History: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "history",
            abstract: "Show the run history (.git/prepush/history.sqlite): the last runs, or one test's last results.",
            discussion: "Every push and prepush run records each stage's tests; see docs/flaky-tests.md. Exit status: 0 shown, 1 the test has no run or the history cannot be read, 2 not in a repository.",
            subcommands: [Show.self, Import.self],
            defaultSubcommand: Show.self
        )

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "The last runs, or the last results of TEST (Suite.test, or its last part).")

            @Argument(help: "A test's identifier (CheckoutTests.testPays), or its end (testPays).")
            var test: String?

            @Option(help: "How many runs or results to show.")
            var limit = 20

            func run() throws {
                throw ExitCode(HistoryRun.show(test: test, limit: max(1, limit), console: CommandContext.now.console).rawValue)
            }
        }

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "Add result files (a CI job's results.json, JUnit, xcresult JSON) to the history, one run each.",
                discussion: "Exit status: 0 imported, 2 a file cannot be read or is not results."
            )

            @Argument(help: "Result files, in any format prepush results reads.")
            var files: [String]

            func validate() throws {
                guard !files.isEmpty else { throw ValidationError("give one or more result files") }
            }

            func run() throws {
                throw ExitCode(HistoryRun.importResults(files, console: CommandContext.now.console).rawValue)
            }
        }
    }

    /// `prepush flaky`: the tests the history shows as flaky.
    struct Flaky: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "flaky",
            abstract: "List the tests the run history shows as flaky, with their rates.",
            discussion: "Flaky: passed and failed on the same tree, or passed only on a retry (a failure on one tree and a pass on the next is a fix, not flakiness). Exit status: 0 listed (or none), 1 the history cannot be read, 2 not in a repository."
        )

        @Option(help: "How many of the latest runs to look at.")
        var runs = 50

        @Flag(help: "Print the quarantine: lines to add to .prepush.yml instead.")
        var suggest = false

        func run() throws {
            throw ExitCode(HistoryRun.flaky(runs: max(1, runs), suggest: suggest, console: CommandContext.now.console).rawValue)
        }
    }
}
