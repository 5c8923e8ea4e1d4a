import PrePushCore

/// `prepush destination`: the `-destination` of the newest available iPhone simulator here, for a
/// stage's `xcodebuild test` (`destination=$("${PREPUSH_BIN:-prepush}" destination) && xcodebuild …
/// -destination "$destination"`): a simulator that exists on this Mac, found when the stage runs,
/// rather than a model name written into the configuration that another Xcode does not ship.
package enum DestinationRun {
    /// Prints `platform=iOS Simulator,id=<udid>`; 2 (said why) when `xcrun simctl` lists no available iPhone.
    package static func run(environment: [String: String], console: Console) -> ExitStatus {
        // Standard output is the value a stage reads.
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        guard let simulator = DemoUIStage.findSimulator(environment: environment) else {
            diagnostics.error("no available iPhone simulator: `xcrun simctl list devices available --json` lists none (Xcode on macOS has them: Settings → Components); name a destination in the stage instead")
            return .usage
        }
        diagnostics.aside("prepush: destination: \(simulator.name) (\(simulator.runtime.split(separator: ".").last ?? ""), \(simulator.udid))")
        console.line("platform=iOS Simulator,id=\(simulator.udid)")
        return .success
    }
}
