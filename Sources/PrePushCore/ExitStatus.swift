/// The exit codes of every prepush command, documented in the README.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Everything passed, or there was nothing to do.
    case success = 0
    /// A stage failed or timed out, or a blocking finding: the push is refused.
    case failure = 1
    /// Bad configuration or usage, found before anything ran.
    case usage = 2
    /// Interrupted by SIGINT or SIGTERM; the running stage was stopped.
    case interrupted = 130
}

extension ExitStatus {
    /// The word a CI step output gives for it: `success`, `failure`, `usage` or `interrupted`.
    public var conclusion: String {
        switch self {
        case .success: return "success"
        case .failure: return "failure"
        case .usage: return "usage"
        case .interrupted: return "interrupted"
        }
    }
}
