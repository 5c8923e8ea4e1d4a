import ArgumentParser
import PrePushConfig
import PrePushCore
import PrePushPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The root command only configures; each subcommand does one job.
struct Prepush: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prepush",
        abstract: "Checks the views a push changes, runs your unit and UI test stages, and traces scenarios, before a push leaves the machine.",
        discussion: """
        Exit status: 0 passed or nothing to do, 1 an accessibility error, a failed or timed-out stage, \
        or the traceability gate, 2 bad configuration or usage, 130 interrupted.

        Examples:
          prepush install                 install the pre-push hook in this repository
          prepush run --skip-ui-tests     run the unit stage now, without pushing
          prepush config                  show the configuration and where each value came from
          prepush a11y --all              check every SwiftUI view of the working tree
          prepush scenarios lint          check the scenario catalog
          prepush demo                    see it work on an example repository
        """,
        version: PrePushVersion.current,
        subcommands: [Run.self, Hook.self, Install.self, Uninstall.self, Init.self, Config.self, Results.self, Range.self, A11y.self, Scenarios.self, Report.self, Cache.self, History.self, Flaky.self, Impact.self, Comment.self, Destination.self, Demo.self]
    )
}

/// Runs the command and turns every way out into one of the documented exit codes.
@main
enum Main {
    /// Whether `command` opens a repository. A `switch`, not a `Set<String>`: the set's metadata is
    /// made at run time from its mangled name, a conformance lookup on every start.
    static func opensRepository(_ command: String) -> Bool {
        switch command {
        case "hook", "run", "install", "uninstall", "config", "range", "a11y", "scenarios", "report", "cache", "history", "flaky", "impact": return true
        default: return false
        }
    }

    static func main() {
        // Measured: libgit2's set-up is about 5 ms of a 20 ms hook run on Debian (its TLS backend
        // parses the CA bundle). Started before parsing, it runs beside the parser on a second core.
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `prepush --version` (what install checks and scripts ask) answers without building the
        // command tree: the parser's reflection walks the binary's conformance records (swift-syntax's
        // and Foundation's among them) on its first lookups.
        if arguments == ["--version"] {
            FileSystem.write(PrePushVersion.current + "\n", to: 1)
            exit(0)
        }
        if let command = arguments.first, opensRepository(command) {
            ProcessSetup.beginGit()
        }
        // The installed hook's exact call skips the argument parser: building the command tree by
        // reflection cost a fifth of every hook run once swift-syntax's conformances were linked in
        // (docs/benchmarks.md). Any other shape of the call goes through the parser.
        if arguments.count == 4, arguments[0] == "hook", arguments[1] == "pre-push", !arguments[2].hasPrefix("-"), !arguments[3].hasPrefix("-") {
            let status = Prepush.PrePushHook.runHook(remote: arguments[2], url: arguments[3], flags: ConfigurationFlags())
            ProcessSetup.settle()
            exit(status.rawValue)
        }
        // Every way out below ends the process: none may while libgit2's set-up runs on the other thread.
        defer { ProcessSetup.settle() }
        do {
            var command = try Prepush.parseAsRoot()
            try command.run()
        } catch let code as ExitCode {
            ProcessSetup.settle()
            Prepush.exit(withError: code)
        } catch {
            ProcessSetup.settle()
            // Help and --version exit 0 as the parser decides; every other parse or validation
            // error is a usage error: exit 2, as documented (the parser's own default is 64).
            if Prepush.exitCode(for: error) == .success { Prepush.exit(withError: error) }
            let message = Prepush.fullMessage(for: error)
            let diagnostics = Diagnostics(console: Console())
            if message.hasPrefix("Error:") || message.hasPrefix("error:") { diagnostics.aside(message) } else { diagnostics.error(message) }
            Prepush.exit(withError: ExitCode(ExitStatus.usage.rawValue))
        }
    }
}
