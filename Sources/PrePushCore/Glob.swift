#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif

/// A path pattern: `*` and `?` and `[…]` within one path segment (fnmatch), `**` for any number of
/// whole segments. `**/*View.swift` matches `HomeView.swift` and `App/Views/HomeView.swift`.
public struct Glob: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let segments: [String]

    /// Creates a glob.
    public init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
    }

    public var description: String { pattern }

    /// Whether a relative path (`/`-separated) matches.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        return Self.match(segments[...], parts[...])
    }

    private static func match(_ pattern: ArraySlice<String>, _ path: ArraySlice<String>) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        if head == "**" {
            let rest = pattern.dropFirst()
            var candidate = path
            while true {
                if match(rest, candidate) { return true }
                guard !candidate.isEmpty else { return false }
                candidate = candidate.dropFirst()
            }
        }
        guard let segment = path.first, fnmatch(head, segment, 0) == 0 else { return false }
        return match(pattern.dropFirst(), path.dropFirst())
    }
}
