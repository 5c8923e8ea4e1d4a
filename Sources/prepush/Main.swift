import ArgumentParser
import PrePushCommands
import PrePushConfig
import PrePushCore
import PrePushPipeline
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
            let status = Prepush.runInstalledHook(remote: arguments[2], url: arguments[3])
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
