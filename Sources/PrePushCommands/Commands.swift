import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushPipeline
import PrePushRunner

extension Prepush {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "run",
            abstract: "Run the checks now, as the hook would, without pushing (for CI or by hand).",
            discussion: """
            The same steps as the hook: the accessibility check of what a push of the current branch would \
            send (the commits not on its upstream or remote-tracking branch, or --base REF), then the stages \
            and the traceability gate.

            Example: prepush run --ui-tests-only --timeout 300 --verbose
            Example: prepush run --base origin/main
            Example: prepush run --shard 2/4 --timings last/results.json     (one job of a CI matrix: docs/ci.md)
            """
        )

        @OptionGroup var options: StageOptions

        @Option(name: .customLong("base"), help: ArgumentHelp("Check the views changed since this revision (default: the branch's upstream).", valueName: "ref"))
        var base: String?

        @Option(name: .customLong("head"), help: ArgumentHelp("With --base: the revision checked (default: HEAD).", valueName: "ref"))
        var head: String?

        @Option(name: .customLong("stage"), help: ArgumentHelp("Run only this stage (unit, ui or a stage of your own); repeat for several.", valueName: "name"))
        var stages: [String] = []

        @Option(name: .customLong("shard"), help: ArgumentHelp("Run only this part of the tests of the stages with shard: (2/4: the second of four; default: GitLab's CI_NODE_INDEX/CI_NODE_TOTAL, CircleCI's and Buildkite's parallel-job variables).", valueName: "i/n"))
        var shard: String?

        @Option(name: .customLong("timings"), help: ArgumentHelp("Balance the shards by the test durations of an earlier run's results (results.json, JUnit, ...), or of the run history (`history`).", valueName: "file"))
        var timings: String?

        func validate() throws {
            if head != nil && base == nil { throw ValidationError("--head goes with --base") }
            if let shard, case .failure(let problem) = TestShard.parse(shard) { throw ValidationError(problem.description) }
        }

        func run() throws {
            var request = PipelineRequest(flags: options.flags, environment: CommandContext.now.environment, hook: nil)
            request.checkRange = base.map { (base: $0, head: head ?? "HEAD") }
            request.shardArgument = shard
            request.timingsFile = timings
            request.onlyStages = stages
            request.quiet = options.quiet
            throw ExitCode(Pipeline.run(request, console: CommandContext.now.console, signals: CommandContext.now.signals()).rawValue)
        }
    }

    struct Hook: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "hook",
            abstract: "Entry points for git hooks (the installed hook calls these).",
            discussion: "Example: prepush hook pre-push --help     (what .git/hooks/pre-push runs)",
            subcommands: [PrePushHook.self]
        )
    }

    struct PrePushHook: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pre-push",
            abstract: "Run as git's pre-push hook: reads the ref lines on standard input.",
            discussion: """
            git runs this as: prepush hook pre-push <remote> <url> < ref lines

            Example, by hand (what git would send for a push of main):
              echo "refs/heads/main $(git rev-parse main) refs/heads/main $(git rev-parse origin/main)" | prepush hook pre-push origin url
            """
        )

        @Argument(help: "The remote's name, as git passes it.")
        var remote: String = ""

        @Argument(help: "The remote's URL, as git passes it.")
        var url: String = ""

        @OptionGroup var options: StageOptions

        func run() throws {
            throw ExitCode(Self.runHook(remote: remote, url: url, flags: options.flags, quiet: options.quiet).rawValue)
        }

        /// What the hook does, for the parsed command and for `Main`'s fast path alike.
        static func runHook(remote: String, url: String, flags: ConfigurationFlags, quiet: Bool = false) -> ExitStatus {
            // Someone ran the hook by hand at a terminal: do not wait for ref lines that never come.
            let input = CommandContext.now.readStandardInput()
            return Pipeline.runHook(remote: remote, url: url, refLines: input, flags: flags, quiet: quiet,
                                    environment: CommandContext.now.environment, console: CommandContext.now.console, signals: CommandContext.now.signals())
        }
    }

    struct Install: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "install",
            abstract: "Install the pre-push hook (honours core.hooksPath; keeps an existing hook and runs it first).",
            discussion: """
            Running it again is harmless. In a hooks folder the repository tracks (core.hooksPath), it writes nothing and \
            says what to commit there. Exit status: 0 installed, 2 not in a repository, a tracked hooks folder, or the hook cannot be written.

            Example: cd MyApp && prepush install && git push
            """
        )

        func run() throws {
            throw ExitCode(InstallRun.install(console: CommandContext.now.console).rawValue)
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Remove prepush's pre-push hook and put back the hook it kept.",
            discussion: "Example: prepush uninstall     (a hook prepush did not write is left alone)"
        )

        func run() throws {
            throw ExitCode(InstallRun.uninstall(console: CommandContext.now.console).rawValue)
        }
    }

    struct Config: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "config",
            abstract: "Show the resolved configuration and where each value came from.",
            discussion: """
            Examples:
              prepush config                          flags > environment > .prepush.yml > defaults, each with its origin
              UI_TEST_TIMEOUT=120 prepush config      see the environment win over the file
            """
        )

        @OptionGroup var options: StageOptions

        func run() throws {
            throw ExitCode(ConfigRun.run(flags: options.flags, environment: CommandContext.now.environment, console: CommandContext.now.console).rawValue)
        }
    }
}

extension Prepush {
    struct Destination: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "destination",
            abstract: "Print the xcodebuild -destination of the newest available iPhone simulator here (for a stage's run).",
            discussion: """
            Exit status: 0 printed, 2 no available iPhone simulator (xcrun simctl lists none).

            Example (a stage's run): destination=$("${PREPUSH_BIN:-prepush}" destination) && xcodebuild test -scheme App -destination "$destination"
            """
        )

        func run() throws {
            throw ExitCode(DestinationRun.run(environment: CommandContext.now.environment, console: CommandContext.now.console).rawValue)
        }
    }
}
