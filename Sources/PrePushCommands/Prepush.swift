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
package struct Prepush: ParsableCommand {
    package init() {}

    package static let configuration = CommandConfiguration(
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

extension Prepush {
    /// The installed hook's exact call (`prepush hook pre-push REMOTE URL`), without the parser:
    /// `Main`'s fast path.
    package static func runInstalledHook(remote: String, url: String) -> ExitStatus {
        PrePushHook.runHook(remote: remote, url: url, flags: ConfigurationFlags())
    }
}
