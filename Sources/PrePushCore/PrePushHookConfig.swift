
/// Seconds, as the data model types durations (Foundation's `TimeInterval` is the same `Double`).
public typealias TimeInterval = Double

/// The pre-push hook's behaviour (data model: `PrePushHookConfig`), after flags, environment,
/// file and defaults have been merged and validated.
public struct PrePushHookConfig: Sendable, Equatable {
    /// Whether to skip the UI-test stage entirely.
    public let skipUITests: Bool
    /// Whether to run only the UI-test stage (skip the unit-test stage).
    public let uiTestsOnly: Bool
    /// Timeout of the UI-test stage, in seconds; validation rule 4 keeps it within `uiTestTimeoutRange`.
    public let uiTestTimeout: TimeInterval
    /// Whether stage output streams to the terminal as it arrives.
    public let verbose: Bool
    /// Sync mode for remote UI runs.
    public let syncMode: SyncMode

    /// Creates a configuration; call `validate()` before trusting values that came from users.
    public init(skipUITests: Bool, uiTestsOnly: Bool, uiTestTimeout: TimeInterval, verbose: Bool, syncMode: SyncMode) {
        self.skipUITests = skipUITests
        self.uiTestsOnly = uiTestsOnly
        self.uiTestTimeout = uiTestTimeout
        self.verbose = verbose
        self.syncMode = syncMode
    }

    /// The defaults of the data model: UI tests on, a 600-second (10-minute) UI timeout, quiet, scp.
    public static let `default` = PrePushHookConfig(
        skipUITests: false,
        uiTestsOnly: false,
        uiTestTimeout: 600,
        verbose: false,
        syncMode: .scp
    )

    /// Validation rule 4: the UI timeout is positive and at most 600 seconds. Whole seconds only.
    public static let uiTestTimeoutRange: ClosedRange<Int> = 1...600

    /// The violations of the data model's validation rules, empty when the configuration is valid.
    public func validate() -> [PrePushHookConfigViolation] {
        var violations: [PrePushHookConfigViolation] = []
        let range = Self.uiTestTimeoutRange
        if !(uiTestTimeout >= Double(range.lowerBound) && uiTestTimeout <= Double(range.upperBound)) {
            violations.append(.uiTestTimeoutOutOfRange(uiTestTimeout))
        }
        if skipUITests && uiTestsOnly {
            violations.append(.skipAndOnlyUITests)
        }
        return violations
    }
}

/// A broken rule of `PrePushHookConfig`.
public enum PrePushHookConfigViolation: Sendable, Equatable, CustomStringConvertible {
    /// Rule 4: the UI timeout (seconds) is not within 1 to 600.
    case uiTestTimeoutOutOfRange(TimeInterval)
    /// Skipping UI tests and running only UI tests contradict each other.
    case skipAndOnlyUITests

    public var description: String {
        switch self {
        case .uiTestTimeoutOutOfRange(let seconds):
            let range = PrePushHookConfig.uiTestTimeoutRange
            return "the UI test timeout must be \(range.lowerBound) to \(range.upperBound) seconds, not \(seconds)"
        case .skipAndOnlyUITests:
            return "skipping UI tests and running only UI tests cannot both be set"
        }
    }
}
