import ArgumentParser
import PrePushPipeline

extension Prepush {
    /// `prepush impact`: the per-test coverage map `selective: tests` reads.
    struct Impact: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "impact",
            abstract: "Record, show, export and import the per-test coverage map (.git/prepush/impact.sqlite) selective: tests reads.",
            discussion: "See docs/selective-tests.md.",
            subcommands: [Record.self, Show.self, Export.self, Import.self]
        )

        /// The stage a map is of.
        struct StageOption: ParsableArguments {
            @Option(help: ArgumentHelp("The swift test or xcodebuild test stage whose map is meant.", valueName: "name"))
            var stage = "unit"

            @OptionGroup var file: ConfigFileOption
        }

        struct Record: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "record",
                abstract: "Run each test of a swift test or xcodebuild test stage alone with coverage and store which functions it executed.",
                discussion: "Builds in .git/prepush/impact-build (an xcodebuild stage: .git/prepush/impact-xcode, on a Mac), so your own builds stay valid. A test that fails, crashes or times out is stored as unknown: it always runs. Exit status: 0 recorded, 1 the build, the listing or every test failed (or another recording of this checkout is running, or an xcodebuild stage off a Mac), 2 not in a repository or no such stage."
            )

            @OptionGroup var options: StageOption

            @Option(help: ArgumentHelp("Seconds one test may take.", valueName: "seconds"))
            var testTimeout = 120

            func run() throws {
                throw ExitCode(ImpactRun.record(stage: options.stage, testTimeout: max(1, testTimeout), flags: options.file.flags, console: CommandContext.now.console).rawValue)
            }
        }

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "show",
                abstract: "List the tests that cover a file (executed one of its functions, or are defined in it), one identifier a line.",
                discussion: "Exit status: 0 listed (or none covers it), 1 no map is stored, 2 not in a repository or no such stage."
            )

            @Argument(help: "A file of the repository.")
            var path: String

            @OptionGroup var options: StageOption

            func run() throws {
                throw ExitCode(ImpactRun.show(path: path, stage: options.stage, flags: options.file.flags, console: CommandContext.now.console).rawValue)
            }
        }

        struct Export: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "export",
                abstract: "Write the stage's newest map to FILE (JSON), for another machine's prepush impact import.",
                discussion: "Exit status: 0 written, 1 no map is stored or FILE cannot be written, 2 not in a repository or no such stage."
            )

            @Argument(help: "The file to write.")
            var file: String

            @OptionGroup var options: StageOption

            func run() throws {
                throw ExitCode(ImpactRun.export(file: file, stage: options.stage, flags: options.file.flags, console: CommandContext.now.console).rawValue)
            }
        }

        struct Import: ParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "import",
                abstract: "Store a map prepush impact export wrote (a CI job's artifact) as the newest of its stage.",
                discussion: "Exit status: 0 imported, 1 the store cannot be written, 2 not in a repository, or FILE cannot be read or is not an impact map."
            )

            @Argument(help: "A file prepush impact export wrote.")
            var file: String

            func run() throws {
                throw ExitCode(ImpactRun.importMap(file: file, console: CommandContext.now.console).rawValue)
            }
        }
    }
}
