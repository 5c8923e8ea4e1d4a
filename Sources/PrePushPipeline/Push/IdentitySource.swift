import Dispatch
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

    /// Starts finding the identities on another thread, so that a stage's run hides their cost
    /// (0.6 s of CPU for 600 tests in 120 files): a push waits for them only if its results need
    /// them before they are found.
    func prefetch() {
        DispatchQueue.global().async { _ = self.identities }
    }

    /// The identities, found now if not yet (or waited for, if another thread is finding them).
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
