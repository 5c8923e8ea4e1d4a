import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
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
            GitLibrary.initialize()
            let environment = ProcessInfo.processInfo.environment
            var request = PipelineRequest(flags: options.flags, environment: environment, hook: nil)
            request.checkRange = base.map { (base: $0, head: head ?? "HEAD") }
            if let shard, case .success(let parsed) = TestShard.parse(shard) {
                request.shard = ShardRequest(shard: parsed, origin: "--shard \(parsed)", explicit: true, timingsFile: timings)
            } else {
                switch TestShard.fromCI(environment: environment) {
                case .success(let found?):
                    request.shard = ShardRequest(shard: found.shard, origin: found.variables, explicit: false, timingsFile: timings)
                case .success(nil):
                    break
                case .failure(let problem):
                    FileStandardError.write("error: \(problem)")
                    throw ExitCode(ExitStatus.usage.rawValue)
                }
            }
            if timings != nil && request.shard == nil {
                FileStandardError.write("error: --timings balances shards: it goes with --shard i/n (or a CI's parallel-job variables)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            request.onlyStages = stages
            request.quiet = options.quiet
            let status = Pipeline.run(request, console: Console(), signals: SignalWatcher.install())
            throw ExitCode(status.rawValue)
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
            var updates: [PushUpdate]?
            // Someone ran the hook by hand at a terminal: do not wait for ref lines that never come.
            if !FileSystem.isTerminal(0) {
                let input = FileSystem.readAll(0)
                do {
                    updates = try PushUpdate.parseHookInput(String(decoding: input, as: UTF8.self))
                } catch {
                    FileStandardError.write(error.description)
                    return .usage
                }
            }
            GitLibrary.initialize()
            let hook = HookInvocation(remoteName: remote, remoteURL: url, updates: updates)
            var request = PipelineRequest(flags: flags, environment: ProcessInfo.processInfo.environment, hook: hook)
            request.quiet = quiet
            return Pipeline.run(request, console: Console(), signals: SignalWatcher.install())
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
            let installer = try HookLocation.installer(installing: true)
            do {
                switch try installer.install() {
                case .installed(let hook, let kept):
                    print("prepush: installed \(hook)")
                    if let kept { print("prepush: kept the existing hook as \(kept); it still runs before prepush") }
                case .unchanged(let hook):
                    print("prepush: already installed at \(hook); nothing changed")
                }
            } catch {
                FileStandardError.write(error.description)
                throw ExitCode(ExitStatus.failure.rawValue)
            }
        }
    }

    struct Uninstall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "uninstall",
            abstract: "Remove prepush's pre-push hook and put back the hook it kept.",
            discussion: "Example: prepush uninstall     (a hook prepush did not write is left alone)"
        )

        func run() throws {
            let installer = try HookLocation.installer()
            do {
                switch try installer.uninstall() {
                case .removed(let hook, let restored):
                    print("prepush: removed \(hook)" + (restored ? "; put back the hook it had kept" : ""))
                case .notInstalled(let hook):
                    print("prepush: no pre-push hook at \(hook); nothing to remove")
                case .foreignHook(let hook):
                    FileStandardError.write("prepush: \(hook) is not prepush's hook; left it alone")
                    throw ExitCode(ExitStatus.failure.rawValue)
                }
            } catch let error as InstallError {
                FileStandardError.write(error.description)
                throw ExitCode(ExitStatus.failure.rawValue)
            }
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
            GitLibrary.initialize()
            do {
                let configuration = try Pipeline.resolveConfiguration(flags: options.flags, environment: ProcessInfo.processInfo.environment)
                print(configuration.rendered())
            } catch {
                FileStandardError.write("\(error)")
                throw ExitCode(ExitStatus.usage.rawValue)
            }
        }
    }
}

/// Finds the repository's hooks folder and this binary for install and uninstall.
enum HookLocation {
    /// The installer; for `install`, not in a hooks folder the repository tracks (the advice is printed instead).
    static func installer(installing: Bool = false) throws -> HookInstaller {
        GitLibrary.initialize()
        do {
            let repository = try Repository.openFromEnvironment()
            let folder = try repository.hooksDirectory()
            if installing, let advice = TrackedHooks.advice(repository: repository, hooksDirectory: folder) {
                if advice.runsPrepush {
                    print(advice.text)
                    throw ExitCode.success
                }
                FileStandardError.write(advice.text)
                throw ExitCode(ExitStatus.usage.rawValue)
            }
            return HookInstaller(hooksDirectory: folder, executablePath: ExecutablePath.current())
        } catch let exit as ExitCode {
            throw exit
        } catch {
            FileStandardError.write("\(error)")
            throw ExitCode(ExitStatus.usage.rawValue)
        }
    }
}

/// Writes a line to standard error.
enum FileStandardError {
    /// In GitHub Actions the text cannot pass for a workflow command (it quotes files and tests).
    static let neutralises = ProcessInfo.processInfo.environment["GITHUB_ACTIONS"] == "true"

    static func write(_ text: String) {
        let text = safe(text)
        FileSystem.write(text.hasSuffix("\n") ? text : text + "\n", to: 2)
    }

    /// `text` with its control characters escaped, and under GitHub Actions no workflow command.
    static func safe(_ text: String) -> String {
        neutralises ? WorkflowCommand.neutralised(text) : WorkflowCommand.escapedControls(text)
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
            throw ExitCode(DestinationRun.run(environment: ProcessInfo.processInfo.environment, console: Console()).rawValue)
        }
    }
}
