import PrePushCore
import PrePushTraceability

/// The identities of the tests in the sources (`TestIdentities`), found the first time a stage's
/// results need them (a console that names a test without its suite) and then shared: by every
/// stage and retry of the run, parallel stages included. A run whose results all came with their
/// module and suite (an event stream, a result bundle) reads no source for this.
final class IdentitySource: @unchecked Sendable {
    private let lock = Lock()
    private var found: TestIdentities?
    private let discover: @Sendable () -> TestIdentities

    init(_ discover: @escaping @Sendable () -> TestIdentities) {
        self.discover = discover
    }

    /// The identities, found now if not yet.
    var identities: TestIdentities {
        lock.withLock {
            if let found { return found }
            let identities = discover()
            found = identities
            return identities
        }
    }

    /// `run` with its console-named results given their full identity; `among` as `TestIdentities.resolve`.
    func resolve(_ run: TestRun, among wanted: Set<String>? = nil) -> TestRun {
        guard TestIdentities.needed(by: run.results) else { return run }
        var resolved = run
        resolved.results = identities.resolve(run.results, among: wanted)
        return resolved
    }
}
