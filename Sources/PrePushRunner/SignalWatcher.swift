#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
internal import CProcessSupport

// Signal handlers cannot capture context; they reach the self-pipe through these globals, which are
// written once before the handlers are installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1
nonisolated(unsafe) private var lastSignal: sig_atomic_t = 0

/// Turns SIGINT, SIGTERM, SIGHUP and SIGQUIT (Ctrl-\) into bytes on a pipe, so the runner's poll loop wakes for them
/// and stops the running stage instead of prepush dying and leaving the stage's processes behind.
public final class SignalWatcher: @unchecked Sendable {
    /// The signals that interrupt a run.
    public static let interruptingSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// The read end of the self-pipe, for `poll`.
    public let fileDescriptor: Int32

    private init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
    }

    /// Installs the handlers once for the whole process and returns the watcher. Call it from the
    /// command that runs stages, not from a library initialiser.
    public static func install() -> SignalWatcher? {
        guard let pipeEnds = makeCloseOnExecPipe() else { return nil }
        for fd in [pipeEnds.read, pipeEnds.write] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        signalPipeWriteEnd = pipeEnds.write
        // A blocked mask survives exec: a parent that spawned prepush with these signals blocked
        // (some test runners and IDEs do) would otherwise leave Ctrl-C pending forever.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signalNumber in interruptingSignals { sigaddset(&unblock, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for signalNumber in interruptingSignals {
            signal(signalNumber) { received in
                let saved = errno
                lastSignal = sig_atomic_t(received)
                // No stage is running to be stopped in order (reading the configuration, checking
                // views, waiting for git's ref lines, writing reports): end now, as a shell would.
                if prepush_watched_runs() == 0 { prepush_exit_interrupted(received) }
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWriteEnd, &byte, 1)
                errno = saved
            }
        }
        // A closed terminal or pipe must give an error on write, not kill prepush mid-report.
        signal(SIGPIPE, SIG_IGN)
        return SignalWatcher(fileDescriptor: pipeEnds.read)
    }

    /// The interrupting signal received since the last call, if any; drains the pipe.
    public func takePendingSignal() -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 64)
        var received: Int32?
        while true {
            let count = read(fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { break }
            received = Int32(buffer[count - 1])
        }
        return received
    }

    /// The last interrupting signal seen by the handler, without draining the pipe.
    public var lastReceivedSignal: Int32? {
        lastSignal == 0 ? nil : Int32(lastSignal)
    }
}
