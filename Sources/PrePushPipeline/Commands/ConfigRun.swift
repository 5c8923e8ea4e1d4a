import PrePushConfig
import PrePushCore
import PrePushGit

/// `prepush config`: the resolved configuration, each value with where it came from.
package enum ConfigRun {
    /// Prints it: 0 shown, 2 a value is wrong (said with its place).
    package static func run(flags: ConfigurationFlags, environment: [String: String], console: Console) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        GitLibrary.initialize()
        do {
            console.line(try Pipeline.resolveConfiguration(flags: flags, environment: environment).rendered())
            return .success
        } catch {
            diagnostics.error(describing: error)
            return .usage
        }
    }
}
