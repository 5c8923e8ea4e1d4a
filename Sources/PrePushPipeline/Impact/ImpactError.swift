import PrePushCore

/// Why `prepush impact` could not record, show, export or import a map. Every message is written
/// here; none carries `error:` (the sink says it).
enum ImpactError: Error, CustomStringConvertible, Equatable {
    /// The stage named is not configured, or does not run `swift test`.
    case stage(String)
    /// Another recording holds the checkout's lock (the path of the lock).
    case busy(String)
    /// Building the tests with coverage failed; the last lines the build printed.
    case build(tail: String)
    /// `swift test list` failed or listed no test.
    case list(String)
    /// The toolchain's coverage tools are missing or failed.
    case tools(String)
    /// No map is stored for the stage and package.
    case noMap(stage: String, packageFolder: String)
    /// The store cannot be opened, read or written.
    case store(String)
    /// A file to import or export cannot be used.
    case file(path: String, reason: String)
    /// A coverage report (`xccov view --report --json` of a result bundle) cannot be read: where, and what was expected.
    case report(path: String, reason: String)
    /// An `xcodebuild` stage's command cannot be recorded as it is written.
    case xcodebuild(String)

    var description: String {
        switch self {
        case .stage(let reason):
            return reason
        case .busy(let lock):
            return "another prepush impact record is running in this checkout (it holds \(lock))"
        case .build(let tail):
            return "building the tests with coverage failed:\n\(tail)"
        case .list(let reason):
            return "cannot list the tests: \(reason)"
        case .tools(let reason):
            return "coverage tools: \(reason)"
        case .noMap(let stage, let packageFolder):
            let package = packageFolder.isEmpty ? "the root package" : packageFolder
            return "no impact map of stage \(stage) for \(package) is stored; record one with: prepush impact record --stage \(stage)"
        case .store(let reason):
            return "the impact maps cannot be used: \(reason)"
        case .file(let path, let reason):
            return "\(path): \(reason)"
        case .report(let path, let reason):
            return "\(path): not an xccov coverage report prepush can read: \(reason)"
        case .xcodebuild(let reason):
            return "the xcodebuild stage cannot be recorded: \(reason)"
        }
    }
}
