/// The one way prepush runs a short command and keeps its output in memory (`git`, `swift package
/// describe`, `swift --version`, `xcrun xcresulttool`, `ssh`/`rsync` steps). A stage's output is
/// never collected this way: it is streamed (`ProcessGroupRunner` with `RunOptions.onOutput`).
public struct CommandOutput: Sendable {
    /// How the command ended.
    public let outcome: RunOutcome
    /// Its standard output, up to the limit given.
    public let standardOutput: [UInt8]
    /// Its standard error, up to the limit given (the whole of it for `mergingStandardError`).
    public let standardError: [UInt8]

    /// The standard output as text (invalid UTF-8 repaired), blanks around it removed.
    public var text: String { trimmed(standardOutput) }
    /// The standard error as text, blanks around it removed.
    public var errorText: String { trimmed(standardError) }
    /// Whether it exited 0 without being stopped.
    public var succeeded: Bool { outcome.succeeded }

    /// Runs `spec` under `timeout` seconds, keeping at most `outputLimit` bytes of standard output
    /// and `errorLimit` of standard error; `mergingStandardError` keeps both in `standardOutput`, in
    /// the order they came. Throws when the command cannot be started.
    public static func run(_ spec: ProcessSpec, timeout: Double, killGracePeriod: Double = 2, outputLimit: Int = .max,
                           errorLimit: Int = 64 * 1024, mergingStandardError: Bool = false) throws -> CommandOutput {
        var output: [UInt8] = [], errors: [UInt8] = []
        let outcome = try ProcessGroupRunner.run(spec, options: RunOptions(timeout: timeout, killGracePeriod: killGracePeriod) { channel, bytes in
            if channel == .standardOutput || mergingStandardError {
                if output.count < outputLimit { output += bytes.prefix(outputLimit - output.count) }
            } else if errors.count < errorLimit {
                errors += bytes.prefix(errorLimit - errors.count)
            }
        })
        return CommandOutput(outcome: outcome, standardOutput: output, standardError: errors)
    }

    private func trimmed(_ bytes: [UInt8]) -> String {
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        guard let first = bytes.firstIndex(where: { !blank($0) }), let last = bytes.lastIndex(where: { !blank($0) }) else { return "" }
        return String(decoding: bytes[first...last], as: UTF8.self)
    }
}
