#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
internal import CProcessSupport

/// What to start: an argv array, never a string joined for a shell.
public struct ProcessSpec: Sendable, Equatable {
    /// The program: a path, or a name looked up on the `PATH` of prepush's own environment.
    public var executable: String
    /// The arguments after the program name.
    public var arguments: [String]
    /// The child's whole environment.
    public var environment: [String: String]
    /// The folder the child starts in; nil keeps prepush's.
    public var workingDirectory: String?
    /// A file read as the child's standard input; nil gives it /dev/null.
    public var standardInputFile: String?

    /// Creates a spec.
    public init(executable: String, arguments: [String], environment: [String: String], workingDirectory: String? = nil,
                standardInputFile: String? = nil) {
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardInputFile = standardInputFile
    }

    /// A command the user wrote, run as they wrote it by `/bin/sh -c`.
    public static func shell(_ command: String, environment: [String: String], workingDirectory: String? = nil) -> ProcessSpec {
        ProcessSpec(executable: "/bin/sh", arguments: ["-c", command], environment: environment, workingDirectory: workingDirectory)
    }
}

/// Which of the child's output streams bytes came from.
public enum OutputChannel: Sendable, Equatable {
    case standardOutput
    case standardError
}

/// How the child ended.
public enum Termination: Sendable, Equatable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signaled(Int32)

    public var description: String {
        switch self {
        case .exited(let status): return "exit \(status)"
        case .signaled(let number): return "signal \(number)"
        }
    }
}

/// Why prepush stopped the child's process tree, if it did.
public enum StopReason: Sendable, Equatable {
    /// The timeout ran out.
    case timedOut
    /// prepush received this signal (SIGINT, SIGTERM, SIGHUP or SIGQUIT).
    case interrupted(Int32)
}

/// A process the stage left running after its main process ended, which prepush stopped.
public struct LeftoverProcess: Sendable, Equatable, CustomStringConvertible {
    /// Its process id.
    public let pid: Int32
    /// Its command name, when the system says (`sleep`).
    public let name: String

    public var description: String { name.isEmpty ? "pid \(pid)" : "\(name) (pid \(pid))" }
}

/// Why a child could not be run.
public enum RunnerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The pipes for the child's output could not be made.
    case pipeFailed(errno: Int32)
    /// posix_spawn failed (no such program, or not executable).
    case spawnFailed(executable: String, errno: Int32)

    public var description: String {
        switch self {
        case .pipeFailed(let code):
            return "cannot create a pipe: \(String(cString: strerror(code)))"
        case .spawnFailed(let executable, let code):
            return "cannot start \(executable): \(String(cString: strerror(code)))"
        }
    }
}

/// Limits and callbacks of one run.
public struct RunOptions {
    /// Seconds before the process group is stopped; nil for no limit.
    public var timeout: Double?
    /// Seconds from the first signal (SIGINT) to SIGKILL when stopping the tree; SIGTERM comes in between.
    public var killGracePeriod: Double
    /// Wakes the run and stops the child when prepush is interrupted.
    public var signals: SignalWatcher?
    /// Called with every chunk of output as it arrives, on the calling thread.
    public var onOutput: (OutputChannel, UnsafeRawBufferPointer) -> Void
    /// Called about every `tickInterval` seconds with the elapsed seconds (for progress lines).
    public var onTick: ((Double) -> Void)?
    /// Seconds between `onTick` calls.
    public var tickInterval: Double
    /// Also stop when the signal handler's flag is set, not only when the signal pipe wakes this
    /// run: for runs at the same time in one process (parallel stages).
    public var watchesSignalFlag = false
    /// Called once when the run is stopped for a timeout or an interruption, before SIGTERM:
    /// a remote stage stops its processes on the remote machine here.
    public var onStop: ((StopReason) -> Void)?

    /// Options with a 3-second grace period and no callbacks.
    public init(timeout: Double?, killGracePeriod: Double = 3, signals: SignalWatcher? = nil,
                onOutput: @escaping (OutputChannel, UnsafeRawBufferPointer) -> Void = { _, _ in },
                onTick: ((Double) -> Void)? = nil, tickInterval: Double = 1) {
        self.timeout = timeout
        self.killGracePeriod = killGracePeriod
        self.signals = signals
        self.onOutput = onOutput
        self.onTick = onTick
        self.tickInterval = tickInterval
    }
}

/// Runs one child in a process group of its own, reading its stdout and stderr in one poll loop
/// (neither can fill up and block the other) until both reach end of file, and stops the whole
/// tree it started — its group, every process below it by parent links, and (Linux, as a child
/// subreaper) the orphans it left — on timeout, on interruption, or when it exits and leaves
/// processes behind. Stopping sends SIGINT (what a terminal's Ctrl-C sends: `swift test` and
/// `xcodebuild` forward it and clean up), SIGTERM a second later, and SIGKILL when the grace
/// period ends.
public enum ProcessGroupRunner {
    /// Upper bound on how long the loop sleeps while the child or its tree may still change, so an
    /// exit is noticed even when a background process keeps the pipes open.
    static let exitCheckInterval = 0.05
    /// After the child exits, how long its pipes may stay open before whatever holds them counts
    /// as a leftover. Only decides when leftovers are stopped, never how much output is read.
    static let pipeCloseGrace = 0.2
    /// After SIGKILL, how long pipes may stay open (held by a process prepush could not find) before
    /// what they hold is read without waiting and they are closed.
    static let abandonGrace = 0.5
    /// Set in every child's environment to a value of its own run: an orphan prepush adopts as
    /// subreaper is claimed by the run whose value it inherited, so runs at the same time never stop
    /// each other's processes.
    public static let runIDVariable = "PREPUSH_RUN_ID"
    /// The pipe buffer asked for (Linux), so a burst of output never blocks a writer while prepush parses.
    static let pipeCapacity: Int32 = 1 << 20

    /// Runs `spec` to the end under `options`.
    public static func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome {
        ProcessTree.adoptOrphans()
        guard let outPipe = makeCloseOnExecPipe() else { throw .pipeFailed(errno: currentErrno) }
        guard let errPipe = makeCloseOnExecPipe() else {
            close(outPipe.read); close(outPipe.write)
            throw .pipeFailed(errno: currentErrno)
        }
        _ = prepush_set_pipe_capacity(outPipe.write, pipeCapacity)
        _ = prepush_set_pipe_capacity(errPipe.write, pipeCapacity)
        let start = monotonicSeconds()
        let runID = "\(getpid())-\(Int(start * 1_000_000))-\(nextRunNumber())"
        var spec = spec
        spec.environment[runIDVariable] = runID
        let pid: pid_t
        do {
            pid = try spawn(spec, stdout: outPipe.write, stderr: errPipe.write)
        } catch {
            for fd in [outPipe.read, outPipe.write, errPipe.read, errPipe.write] { close(fd) }
            throw error
        }
        RunningChildren.insert(pid)
        defer { RunningChildren.remove(pid) }
        // While this run watches the signal pipe, a signal stops its tree in order; otherwise the handler ends prepush.
        if options.signals != nil { prepush_watched_runs_add(1) }
        defer { if options.signals != nil { prepush_watched_runs_add(-1) } }
        close(outPipe.write)
        close(errPipe.write)
        var loop = RunLoop(pid: pid, start: start, options: options, outFD: outPipe.read, errFD: errPipe.read,
                           runMarker: "\(runIDVariable)=\(runID)")
        return loop.run()
    }

    nonisolated(unsafe) private static var runCounter = 0

    private static func nextRunNumber() -> Int {
        RunningChildren.withLock { runCounter += 1; return runCounter }
    }

    private static func spawn(_ spec: ProcessSpec, stdout: Int32, stderr: Int32) throws(RunnerError) -> pid_t {
        // A bare name is looked up on the PATH the child is given: the same as prepush's own in a
        // push, and the caller's choice when prepush runs inside another program.
        // argv[0] stays the name the caller gave.
        let name = spec.executable
        var spec = spec
        // Not found there (or no PATH given): the name as it is, for `posix_spawnp` and prepush's own PATH.
        if !name.contains("/"), let path = spec.environment["PATH"], let found = ProgramLookup.executable(named: name, path: path) {
            spec.executable = found
        }
        #if os(Linux)
        // Linux: forked by hand so the stage's first process gets PR_SET_PDEATHSIG (SIGKILL): a
        // `kill -9` of prepush then ends it rather than leaving it running unseen. The spawning
        // thread waits for the child in `RunLoop`, so it outlives it (the signal follows the thread).
        var pid: pid_t = 0
        let status = withArgumentsAndEnvironment(of: spec, name: name) { argv, envp in
            prepush_spawn_with_parent_death_signal(&pid, spec.executable, spec.executable.contains("/") ? 0 : 1, argv, envp,
                                                   spec.standardInputFile ?? "/dev/null", stdout, stderr, spec.workingDirectory, SIGKILL)
        }
        guard status == 0 else { throw .spawnFailed(executable: spec.executable, errno: status) }
        return pid
        #else
        #if canImport(Darwin)
        var attributes: posix_spawnattr_t? = nil
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var attributes = posix_spawnattr_t()
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }

        // A new process group (pgid = pid) so one kill reaches everything the stage starts; default
        // signal dispositions and an empty mask so prepush's own handling does not leak into it.
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        posix_spawnattr_setpgroup(&attributes, 0)
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        posix_spawnattr_setsigmask(&attributes, &emptyMask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] {
            sigaddset(&defaults, signalNumber)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)

        // Stages never read the terminal or the hook's ref lines.
        posix_spawn_file_actions_addopen(&actions, 0, spec.standardInputFile ?? "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        if let directory = spec.workingDirectory {
            let chdirStatus = prepush_spawn_file_actions_addchdir(&actions, directory)
            guard chdirStatus == 0 else { throw .spawnFailed(executable: spec.executable, errno: chdirStatus) }
        }

        var pid: pid_t = 0
        let status = withArgumentsAndEnvironment(of: spec, name: name) { argv, envp in
            spec.executable.contains("/") ? posix_spawn(&pid, spec.executable, &actions, &attributes, argv, envp)
                : posix_spawnp(&pid, spec.executable, &actions, &attributes, argv, envp)
        }
        guard status == 0 else { throw .spawnFailed(executable: spec.executable, errno: status) }
        return pid
        #endif
    }

    /// The spec's argv and envp as NULL-terminated C arrays, alive for `body` only.
    private static func withArgumentsAndEnvironment(
        of spec: ProcessSpec, name: String,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32
    ) -> Int32 {
        let argv = ([name] + spec.arguments).map { strdup($0) }
        let envp = spec.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                body(UnsafeMutablePointer(mutating: argvBuffer.baseAddress!), UnsafeMutablePointer(mutating: envpBuffer.baseAddress!))
            }
        }
    }
}

/// The state of one run's poll loop.
private struct RunLoop {
    let pid: pid_t
    let start: Double
    let options: RunOptions
    let ownPID = getpid()
    let ownGroup = getpgrp()
    /// `PREPUSH_RUN_ID=…` as the child's environment holds it.
    let runMarker: String
    /// The inodes of the run's output pipes, to know its processes by what they hold.
    let pipeInodes: Set<UInt64>
    var outFD: Int32
    var errFD: Int32
    var termination: Termination?
    var exitedAt: Double?
    var stopReason: StopReason?
    /// When the stop sequence began (SIGINT sent), if it did.
    var stopStartedAt: Double?
    var termSent = false
    var killSentAt: Double?
    /// Every process of the stage's tree seen while stopping it: a process whose parent died is
    /// still signalled by pid after it was re-parented out of sight.
    /// Processes seen in the tree while stopping it, with their start times: a pid alone may be
    /// another process's by the time it is used again (a test suite or a parallel stage starts
    /// processes of its own), and that one must never be signalled or reaped as the stage's.
    var tracked: [Int32: UInt64] = [:]
    var leftovers: [LeftoverProcess] = []
    var abandonedPipes = false
    /// Adopted orphans whose environment could not be read yet (mid-exec): the leftover check looks again.
    var undecidedOrphans = false
    /// When the leftover check first met an undecided orphan.
    var undecidedSince: Double?
    var nextTick: Double
    /// Looks for the child's exit since its pipes closed (each waits twice as long as the last).
    var reapRetries = 0
    var buffer = [UInt8](repeating: 0, count: 256 * 1024)

    init(pid: pid_t, start: Double, options: RunOptions, outFD: Int32, errFD: Int32, runMarker: String) {
        self.pid = pid
        self.runMarker = runMarker
        self.start = start
        self.options = options
        self.outFD = outFD
        self.errFD = errFD
        self.nextTick = start + options.tickInterval
        var inodes: Set<UInt64> = []
        for fd in [outFD, errFD] {
            var info = stat()
            if fstat(fd, &info) == 0 { inodes.insert(UInt64(info.st_ino)) }
        }
        pipeInodes = inodes
    }

    var pipesOpen: Bool { outFD >= 0 || errFD >= 0 }

    /// Seconds after SIGINT at which SIGTERM follows.
    var termDelay: Double { min(1, options.killGracePeriod / 2) }

    mutating func run() -> RunOutcome {
        while true {
            let now = monotonicSeconds()
            if termination == nil {
                reap(blocking: false)
                if termination != nil { exitedAt = now }
            }
            // Runs side by side share one signal pipe, which only one of them drains: the others
            // see the handler's flag here (within the loop's longest wait).
            if options.watchesSignalFlag, stopStartedAt == nil, let received = options.signals?.lastReceivedSignal {
                interrupted(by: received)
            }
            if stopReason == nil, stopStartedAt == nil, let timeout = options.timeout, now - start >= timeout {
                stopReason = .timedOut
                options.onStop?(.timedOut)
                beginStop(monotonicSeconds())
            }
            if termination != nil, stopStartedAt == nil, pipesOpen, let exitedAt, now - exitedAt >= ProcessGroupRunner.pipeCloseGrace {
                // Exited, but something it started still holds the pipes: stop it, reading on meanwhile.
                leftovers = stageTree().map { LeftoverProcess(pid: $0.pid, name: $0.name) }
                beginStop(now)
            }
            if termination != nil, !pipesOpen {
                if stopStartedAt == nil {
                    let left = stageTree()
                    if left.isEmpty {
                        if awaitsUndecidedOrphan(now) { waitForEvents(now: now); continue }
                        break
                    }
                    leftovers = left.map { LeftoverProcess(pid: $0.pid, name: $0.name) }
                    beginStop(now)
                } else if stageTree().isEmpty {
                    if awaitsUndecidedOrphan(now) { waitForEvents(now: now); continue }
                    break
                } else if let killSentAt, now - killSentAt >= ProcessGroupRunner.exitCheckInterval * 4 {
                    // Something was left (born after the kill): freeze and kill again, until nothing is, for a while.
                    if now - killSentAt >= ProcessGroupRunner.abandonGrace * 4 { break }
                    freezeTree()
                    sendToTree(SIGKILL)
                }
            }
            if let began = stopStartedAt {
                if !termSent, now - began >= termDelay { sendToTree(SIGTERM); termSent = true }
                if killSentAt == nil, now - began >= options.killGracePeriod { sendKill(now) }
            }
            if let killSentAt, pipesOpen, now - killSentAt >= ProcessGroupRunner.abandonGrace {
                // Everything prepush could find is dead; whatever still holds the pipes is out of reach.
                // Read what it wrote, then stop waiting for it.
                abandonedPipes = true
                if outFD >= 0 { drainRemaining(outFD, channel: .standardOutput); outFD = -1 }
                if errFD >= 0 { drainRemaining(errFD, channel: .standardError); errFD = -1 }
                continue
            }
            if let onTick = options.onTick, now >= nextTick {
                onTick(now - start)
                nextTick = now + options.tickInterval
            }
            waitForEvents(now: now)
        }
        if termination == nil { reap(blocking: true) }
        reapAdopted()
        return RunOutcome(termination: termination ?? .exited(-1), stopReason: stopReason, duration: monotonicSeconds() - start,
                          processID: pid, leftovers: leftovers, abandonedPipes: abandonedPipes)
    }

    /// Whether an adopted orphan whose environment could not be read yet (caught mid-exec) is still
    /// worth waiting for: it cannot be told apart yet, so it gets a moment, not forever.
    private mutating func awaitsUndecidedOrphan(_ now: Double) -> Bool {
        guard undecidedOrphans else { return false }
        if undecidedSince == nil { undecidedSince = now }
        return now - undecidedSince! < 1
    }

    /// The live processes of the stage: its group, everything below its main process, the orphans
    /// prepush adopted that no other run owns, and whatever was seen while stopping.
    private mutating func stageTree() -> [ProcessEntry] {
        let table = ProcessTree.snapshot()
        let otherRuns = RunningChildren.all.subtracting([pid])
        var roots: Set<Int32> = [pid]
        if !tracked.isEmpty {
            for entry in table where tracked[entry.pid] == entry.startTime { roots.insert(entry.pid) }
        }
        undecidedOrphans = false
        for entry in table where entry.parent == ownPID && entry.pid != pid && !otherRuns.contains(entry.pid) && !entry.isZombie {
            // An adopted orphan: this run's when it inherited this run's id (or, where environments
            // cannot be read, when no other run is going on).
            switch ProcessTree.environment(of: entry.pid, contains: runMarker) {
            case true?: roots.insert(entry.pid)
            // Without the marker (a process may clear its environment) it is still this run's when it
            // holds this run's output pipe. (Not "any child": a process that embeds the runner, a test
            // suite, has children of its own.)
            case false?: if ProcessTree.holdsPipe(entry.pid, inodes: pipeInodes) { roots.insert(entry.pid) }
            case nil:
                #if os(Linux)
                // Read in the middle of an exec: looked at again on the next pass, never claimed
                // unseen. A process that embeds the runner (a test suite) has children of its own
                // between fork and exec, and one of those was once stopped as a stage's leftover.
                // (An environment that stays unreadable is another user's process, which prepush
                // could not signal either.)
                undecidedOrphans = true
                #else
                if otherRuns.isEmpty { roots.insert(entry.pid) }
                #endif
            }
        }
        return ProcessTree.descendants(of: roots, groups: [pid], in: table)
            .filter { !$0.isZombie && $0.pid != ownPID && !otherRuns.contains($0.pid) }
    }

    /// Signals every process of the tree and every process group among them (never prepush's own).
    private mutating func sendToTree(_ signalNumber: Int32) {
        let tree = stageTree()
        var groups: Set<Int32> = [pid]
        for entry in tree {
            tracked[entry.pid] = entry.startTime
            if entry.group > 1 && entry.group != ownGroup { groups.insert(entry.group) }
        }
        for group in groups { kill(-group, signalNumber) }
        for entry in tree { kill(entry.pid, signalNumber) }
    }

    private mutating func beginStop(_ now: Double) {
        guard stopStartedAt == nil else { return }
        stopStartedAt = now
        sendToTree(SIGINT)
    }

    private mutating func sendKill(_ now: Double) {
        guard killSentAt == nil else { return }
        if stopStartedAt == nil { stopStartedAt = now }
        termSent = true
        freezeTree()
        sendToTree(SIGKILL)
        killSentAt = now
    }

    /// Stops (SIGSTOP) every process of the tree, scanning again until a scan finds none it had not
    /// stopped: a "hopping" process, each generation forking the next and exiting, cannot outrun a
    /// frozen tree, where a single scan and kill always missed the generation born in between.
    private mutating func freezeTree() {
        for _ in 0..<50 {
            let known = Set(tracked.keys)
            sendToTree(SIGSTOP)
            if Set(tracked.keys).isSubset(of: known) { return }
        }
    }

    private func reapAdopted() {
        var status: Int32 = 0
        for (other, started) in tracked where other != pid {
            // Only the process that was seen: a pid reused by a child of someone else in this
            // program (Foundation's Process, another stage) keeps its exit status for its owner.
            guard ProcessTree.startTime(of: other) == started else { continue }
            while waitpid(other, &status, WNOHANG) < 0 && currentErrno == EINTR {}
        }
    }

    private mutating func reap(blocking: Bool) {
        var status: Int32 = 0
        var result: pid_t
        repeat {
            result = waitpid(pid, &status, blocking ? 0 : WNOHANG)
        } while result < 0 && currentErrno == EINTR
        guard result == pid else { return }
        // WIFEXITED/WIFSIGNALED are macros Swift does not import; these are their definitions.
        let signalBits = status & 0x7f
        termination = signalBits == 0 ? .exited((status >> 8) & 0xff) : .signaled(signalBits)
    }

    /// An interrupting signal: the first stops the tree (or turns a running stop into an
    /// interruption and hurries it to SIGTERM); a second one sends SIGKILL at once.
    private mutating func interrupted(by received: Int32) {
        let now = monotonicSeconds()
        let alreadyInterrupted: Bool
        if case .interrupted = stopReason { alreadyInterrupted = true } else { alreadyInterrupted = false }
        stopReason = .interrupted(received)
        if stopStartedAt == nil {
            options.onStop?(.interrupted(received))
            beginStop(now)
        } else if alreadyInterrupted {
            sendKill(now)
        } else if !termSent {
            sendToTree(SIGTERM)
            termSent = true
        }
    }

    /// Sleeps in poll until output, a signal, or the next deadline.
    private mutating func waitForEvents(now: Double) {
        var deadlines: [Double] = []
        if stopReason == nil, stopStartedAt == nil, let timeout = options.timeout { deadlines.append(start + timeout) }
        if let began = stopStartedAt {
            if !termSent { deadlines.append(began + termDelay) }
            if killSentAt == nil { deadlines.append(began + options.killGracePeriod) }
        }
        if let killSentAt, pipesOpen { deadlines.append(killSentAt + ProcessGroupRunner.abandonGrace) }
        if options.onTick != nil { deadlines.append(nextTick) }
        // Until the child is reaped, or while the tree is being stopped, look again soon.
        if termination == nil || stopStartedAt != nil || !pipesOpen {
            var interval = ProcessGroupRunner.exitCheckInterval
            if termination == nil, !pipesOpen, stopStartedAt == nil {
                // The pipes close as the child exits, a moment before it can be reaped: in a
                // quarter of the runs of a stage `true` that moment cost the whole 50 ms. Look
                // again after 1, 2, 4, … ms instead; a child that closed its output and runs on
                // is looked at every 50 ms after the first few.
                interval = min(interval, 0.001 * Double(1 << min(reapRetries, 6)))
                reapRetries += 1
            }
            deadlines.append(now + interval)
        }
        if let exitedAt, stopStartedAt == nil, pipesOpen {
            deadlines.append(exitedAt + ProcessGroupRunner.pipeCloseGrace)
        }
        let wait = max(0, (deadlines.min() ?? now + 1) - now)
        let milliseconds = Int32(min(wait, 3600) * 1000) + (wait > 0 ? 1 : 0)

        var fds: [pollfd] = []
        if outFD >= 0 { fds.append(pollfd(fd: outFD, events: Int16(POLLIN), revents: 0)) }
        if errFD >= 0 { fds.append(pollfd(fd: errFD, events: Int16(POLLIN), revents: 0)) }
        if let signals = options.signals { fds.append(pollfd(fd: signals.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        let ready = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), milliseconds) }
        guard ready > 0 else { return }
        for entry in fds where entry.revents != 0 {
            if entry.fd == outFD {
                if !drain(outFD, channel: .standardOutput) { outFD = -1 }
            } else if entry.fd == errFD {
                if !drain(errFD, channel: .standardError) { errFD = -1 }
            } else if let signals = options.signals, entry.fd == signals.fileDescriptor,
                      let received = signals.takePendingSignal() {
                interrupted(by: received)
            }
        }
    }

    /// Reads what is available now. Returns false (and closes `fd`) at end of file.
    private mutating func drain(_ fd: Int32, channel: OutputChannel) -> Bool {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count > 0 {
            buffer.withUnsafeBytes { options.onOutput(channel, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            return true
        }
        if count < 0 && (currentErrno == EINTR || currentErrno == EAGAIN) { return true }
        close(fd)
        return false
    }

    /// Reads everything buffered in `fd` without waiting for more, then closes it.
    private mutating func drainRemaining(_ fd: Int32, channel: OutputChannel) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                buffer.withUnsafeBytes { options.onOutput(channel, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                continue
            }
            if count < 0 && currentErrno == EINTR { continue }
            break
        }
        close(fd)
    }
}
