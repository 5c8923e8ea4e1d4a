import Foundation

/// The `prepush` executable built with the tests, run as users run it.
public enum PrepushBinary {
    /// Its path: `PREPUSH_TEST_BINARY` when set, else next to the test bundle in the build folder.
    public static let path: String = {
        if let explicit = ProcessInfo.processInfo.environment["PREPUSH_TEST_BINARY"] { return explicit }
        #if os(Linux)
        let testExecutable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let folder = (testExecutable as NSString).deletingLastPathComponent
        #else
        let bundle = Bundle.allBundles.first { $0.bundlePath.hasSuffix(".xctest") } ?? Bundle.main
        let folder = (bundle.bundlePath as NSString).deletingLastPathComponent
        #endif
        return (folder as NSString).appendingPathComponent("prepush")
    }()

    /// Runs prepush in `directory` with `environment` (a repository's isolated one, usually).
    public static func run(
        _ arguments: [String], in directory: String, environment: [String: String], standardInput: String? = nil
    ) throws -> CommandResult {
        try Command.run(path, arguments, in: directory, environment: environment, standardInput: standardInput)
    }

    /// Runs prepush, awaited without holding a thread of the test run (see the `async` `Command.run`).
    public static func run(
        _ arguments: [String], in directory: String, environment: [String: String], standardInput: String? = nil
    ) async throws -> CommandResult {
        try await Command.run(path, arguments, in: directory, environment: environment, standardInput: standardInput)
    }
}
