/// The end of one run.
public struct RunOutcome: Sendable, Equatable {
    /// How the child itself ended.
    public let termination: Termination
    /// Set when prepush stopped the process tree for a timeout or an interruption.
    public let stopReason: StopReason?
    /// Seconds from start to the end of the run.
    public let duration: Double
    /// The child's process id, which is also its process group id.
    public let processID: Int32
    /// Processes the child left running (in its group, or anywhere below it) that were stopped after it exited.
    public let leftovers: [LeftoverProcess]
    /// Output was still arriving from processes prepush could not find after it stopped everything it
    /// could; what they had written was read, and the pipes were closed on them.
    public let abandonedPipes: Bool

    /// Whether processes the child left behind had to be stopped after it exited.
    public var stoppedLeftovers: Bool { !leftovers.isEmpty }

    /// The child exited 0 and was not stopped.
    public var succeeded: Bool { stopReason == nil && termination == .exited(0) }

    /// An outcome as a launcher other than the process runner reports one (a test's stand-in).
    package init(termination: Termination, stopReason: StopReason?, duration: Double, processID: Int32 = 0,
                 leftovers: [LeftoverProcess] = [], abandonedPipes: Bool = false) {
        self.termination = termination
        self.stopReason = stopReason
        self.duration = duration
        self.processID = processID
        self.leftovers = leftovers
        self.abandonedPipes = abandonedPipes
    }
}
