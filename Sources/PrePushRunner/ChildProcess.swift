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

/// Why prepush stopped the child's process group, if it did.
public enum StopReason: Sendable, Equatable {
    /// The timeout ran out.
    case timedOut
    /// prepush received this signal (SIGINT, SIGTERM or SIGHUP).
    case interrupted(Int32)
}

/// The end of one run.
public struct RunOutcome: Sendable, Equatable {
    /// How the child itself ended.
    public let termination: Termination
    /// Set when prepush stopped the process group.
    public let stopReason: StopReason?
    /// Seconds from start to the end of the run.
    public let duration: Double
    /// The child's process id, which is also its process group id.
    public let processID: Int32
    /// Whether processes the child left in its group had to be stopped after it exited.
    public let stoppedLeftovers: Bool

    /// The child exited 0 and was not stopped.
    public var succeeded: Bool { stopReason == nil && termination == .exited(0) }
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
    /// Seconds between SIGTERM and SIGKILL when stopping the group.
    public var killGracePeriod: Double
    /// Wakes the run and stops the child when prepush is interrupted.
    public var signals: SignalWatcher?
    /// Called with every chunk of output as it arrives, on the calling thread.
    public var onOutput: (OutputChannel, UnsafeRawBufferPointer) -> Void
    /// Called about every `tickInterval` seconds with the elapsed seconds (for progress lines).
    public var onTick: ((Double) -> Void)?
    /// Seconds between `onTick` calls.
    public var tickInterval: Double
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
/// (neither can fill up and block the other), and stops the whole group — everything the child
/// started too — on timeout, on interruption, or when the child exits and leaves processes behind.
public enum ProcessGroupRunner {
    /// Upper bound on how long the loop sleeps while the child still holds its pipes, so an exit
    /// is noticed even when a background process keeps the pipes open.
    static let exitCheckInterval = 0.05
    /// After the child exits, how long its pipes may stay open before whatever holds them counts
    /// as a leftover. The child's own end-of-file can still be waiting unread when it is reaped.
    static let pipeCloseGrace = 0.2

    /// Runs `spec` to the end under `options`.
    public static func run(_ spec: ProcessSpec, options: RunOptions) throws(RunnerError) -> RunOutcome {
        guard let outPipe = makeCloseOnExecPipe() else { throw .pipeFailed(errno: currentErrno) }
        guard let errPipe = makeCloseOnExecPipe() else {
            close(outPipe.read); close(outPipe.write)
            throw .pipeFailed(errno: currentErrno)
        }
        let start = monotonicSeconds()
        let pid: pid_t
        do {
            pid = try spawn(spec, stdout: outPipe.write, stderr: errPipe.write)
        } catch {
            for fd in [outPipe.read, outPipe.write, errPipe.read, errPipe.write] { close(fd) }
            throw error
        }
        close(outPipe.write)
        close(errPipe.write)
        var loop = RunLoop(pid: pid, start: start, options: options, outFD: outPipe.read, errFD: errPipe.read)
        return loop.run()
    }

    private static func spawn(_ spec: ProcessSpec, stdout: Int32, stderr: Int32) throws(RunnerError) -> pid_t {
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

        let argv = ([spec.executable] + spec.arguments).map { strdup($0) }
        let envp = spec.environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") }
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = (argv + [nil]).withUnsafeBufferPointer { argvBuffer in
            (envp + [nil]).withUnsafeBufferPointer { envpBuffer in
                let argvPointer = UnsafeMutablePointer(mutating: argvBuffer.baseAddress!)
                let envpPointer = UnsafeMutablePointer(mutating: envpBuffer.baseAddress!)
                if spec.executable.contains("/") {
                    return posix_spawn(&pid, spec.executable, &actions, &attributes, argvPointer, envpPointer)
                }
                return posix_spawnp(&pid, spec.executable, &actions, &attributes, argvPointer, envpPointer)
            }
        }
        guard status == 0 else { throw .spawnFailed(executable: spec.executable, errno: status) }
        return pid
    }
}

/// The state of one run's poll loop.
private struct RunLoop {
    let pid: pid_t
    let start: Double
    let options: RunOptions
    var outFD: Int32
    var errFD: Int32
    var termination: Termination?
    var exitedAt: Double?
    var stopReason: StopReason?
    var termSentAt: Double?
    var killSent = false
    var stoppedLeftovers = false
    var nextTick: Double
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    init(pid: pid_t, start: Double, options: RunOptions, outFD: Int32, errFD: Int32) {
        self.pid = pid
        self.start = start
        self.options = options
        self.outFD = outFD
        self.errFD = errFD
        self.nextTick = start + options.tickInterval
    }

    mutating func run() -> RunOutcome {
        while true {
            let now = monotonicSeconds()
            if termination == nil {
                reap(blocking: false)
                if termination != nil { exitedAt = now }
            }
            if termination != nil && outFD < 0 && errFD < 0 {
                // The child is gone and nothing holds its output: stop whatever it left in its group.
                if groupHasMembers() {
                    if termSentAt == nil { stoppedLeftovers = true; sendTerm(now) }
                    if killSent { break }
                } else {
                    break
                }
            }
            if stopReason == nil, let timeout = options.timeout, now - start >= timeout {
                stopReason = .timedOut
                options.onStop?(.timedOut)
                sendTerm(monotonicSeconds())
            }
            if termination != nil, termSentAt == nil, outFD >= 0 || errFD >= 0,
               let exitedAt, now - exitedAt >= ProcessGroupRunner.pipeCloseGrace {
                // Exited, but a background process still holds the pipes: it is part of the stage.
                stoppedLeftovers = true
                sendTerm(now)
            }
            if let sent = termSentAt, !killSent, now - sent >= options.killGracePeriod {
                kill(-pid, SIGKILL)
                killSent = true
            }
            if let onTick = options.onTick, now >= nextTick {
                onTick(now - start)
                nextTick = now + options.tickInterval
            }
            waitForEvents(now: now)
        }
        if termination == nil { reap(blocking: true) }
        return RunOutcome(termination: termination ?? .exited(-1), stopReason: stopReason,
                          duration: monotonicSeconds() - start, processID: pid, stoppedLeftovers: stoppedLeftovers)
    }

    private mutating func sendTerm(_ now: Double) {
        guard termSentAt == nil else { return }
        termSentAt = now
        kill(-pid, SIGTERM)
    }

    private func groupHasMembers() -> Bool {
        kill(-pid, 0) == 0
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

    /// Sleeps in poll until output, a signal, or the next deadline.
    private mutating func waitForEvents(now: Double) {
        var deadlines: [Double] = []
        if stopReason == nil, let timeout = options.timeout { deadlines.append(start + timeout) }
        if let sent = termSentAt, !killSent { deadlines.append(sent + options.killGracePeriod) }
        if options.onTick != nil { deadlines.append(nextTick) }
        // Until the child is reaped, or while leftovers are being stopped, look again soon.
        if termination == nil || termSentAt != nil || (outFD < 0 && errFD < 0) {
            deadlines.append(now + ProcessGroupRunner.exitCheckInterval)
        }
        if let exitedAt, termSentAt == nil, outFD >= 0 || errFD >= 0 {
            deadlines.append(exitedAt + ProcessGroupRunner.pipeCloseGrace)
        }
        let wait = max(0, (deadlines.min() ?? now + 1) - now)
        // Once both pipes closed, only the short exit check remains; back off less aggressively.
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
                if stopReason == nil || stopReason == .timedOut && termSentAt == nil {
                    stopReason = .interrupted(received)
                }
                if termSentAt == nil {
                    options.onStop?(.interrupted(received))
                    sendTerm(monotonicSeconds())
                }
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
}
