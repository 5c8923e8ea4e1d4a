#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// Where prepush talks to the person (or CI log) running it. Unbuffered writes to file descriptors,
/// so prepush's lines and a stage's streamed output stay in order.
public struct Console: Sendable {
    /// Descriptor for normal output.
    public let output: Int32
    /// Descriptor for errors.
    public let errors: Int32
    /// Whether `output` is a terminal: progress lines are then updated in place.
    public let isTerminal: Bool

    /// A console on the given descriptors; `isTerminal` defaults to what `isatty` says of `output`.
    public init(output: Int32 = 1, errors: Int32 = 2, isTerminal: Bool? = nil) {
        self.output = output
        self.errors = errors
        self.isTerminal = isTerminal ?? (isatty(output) == 1)
    }

    /// Writes a line to the output.
    public func line(_ text: String) { send(text + "\n", to: output) }

    /// Writes a line to the error stream.
    public func error(_ text: String) { send(text + "\n", to: errors) }

    /// Rewrites the current terminal line (no newline), for progress.
    func replaceLine(_ text: String) { send("\r\u{1B}[2K" + text, to: output) }

    /// Clears the line `replaceLine` wrote.
    func clearLine() { send("\r\u{1B}[2K", to: output) }

    /// Passes a stage's output through: its stdout to ours, its stderr to ours.
    func passThrough(_ bytes: UnsafeRawBufferPointer, fromStandardError: Bool) {
        send(bytes, to: fromStandardError ? errors : output)
    }

    private func send(_ text: String, to fd: Int32) {
        var text = text
        text.withUTF8 { send(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// A closed terminal or pipe ends the write quietly; SIGPIPE is ignored by the CLI.
    private func send(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}
