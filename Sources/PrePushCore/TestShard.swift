/// One part of a test suite split over several CI jobs: shard `index` of `count`, 1-based
/// (`--shard 2/4` is the second of four), as GitLab's `CI_NODE_INDEX` counts.
public struct TestShard: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Which shard, 1 to `count`.
    public let index: Int
    /// How many shards the suite is split into, at least 1.
    public let count: Int

    /// The most shards prepush splits a suite into: more CI jobs than that is a typo.
    public static let maximumCount = 1000

    /// Creates a shard; nil unless `1 <= index <= count <= maximumCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// `2/4`.
    public var description: String { "\(index)/\(count)" }

    /// Reads `i/n` (1-based); the error says what was expected.
    public static func parse(_ text: String) -> Result<TestShard, ShardProblem> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else { return .failure(.notIndexOverCount(text)) }
        guard count >= 1, count <= maximumCount else { return .failure(.countOutOfRange(count)) }
        guard let shard = TestShard(index: index, count: count) else { return .failure(.indexOutOfRange(index: index, count: count)) }
        return .success(shard)
    }

    /// The shard a CI system's parallel job is, from its own variables: GitLab's `CI_NODE_INDEX`
    /// (1-based) and `CI_NODE_TOTAL`, CircleCI's `CIRCLE_NODE_INDEX` and `CIRCLE_NODE_TOTAL`, Buildkite's
    /// `BUILDKITE_PARALLEL_JOB` and `BUILDKITE_PARALLEL_JOB_COUNT` (both 0-based). nil when none is set
    /// or the job is not split (a total of 1); an error names the variable whose value is wrong.
    public static func fromCI(environment: [String: String]) -> Result<(shard: TestShard, variables: String)?, ShardProblem> {
        let systems: [(index: String, total: String, firstIndex: Int)] = [
            ("CI_NODE_INDEX", "CI_NODE_TOTAL", 1),
            ("CIRCLE_NODE_INDEX", "CIRCLE_NODE_TOTAL", 0),
            ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT", 0),
        ]
        for system in systems {
            guard let totalText = environment[system.total], !totalText.isEmpty else { continue }
            guard let total = Int(totalText), total >= 1, total <= maximumCount else {
                return .failure(.badVariable(name: system.total, value: totalText, expected: "a whole number from 1 to \(maximumCount)"))
            }
            if total == 1 { return .success(nil) }
            let indexText = environment[system.index] ?? ""
            let last = total - 1 + system.firstIndex
            guard let index = Int(indexText), index >= system.firstIndex, index <= last else {
                return .failure(.badVariable(name: system.index, value: indexText, expected: "a whole number from \(system.firstIndex) to \(last) (\(system.total)=\(total))"))
            }
            let shard = TestShard(index: index - system.firstIndex + 1, count: total)!
            return .success((shard, "\(system.index)=\(indexText), \(system.total)=\(totalText)"))
        }
        return .success(nil)
    }
}

/// Why a shard could not be read.
public enum ShardProblem: Error, Sendable, Equatable, CustomStringConvertible {
    case notIndexOverCount(String)
    case countOutOfRange(Int)
    case indexOutOfRange(index: Int, count: Int)
    case badVariable(name: String, value: String, expected: String)

    public var description: String {
        switch self {
        case .notIndexOverCount(let text):
            return "--shard \"\(text)\": expected INDEX/COUNT, such as 2/4 (the second of four shards, counted from 1)"
        case .countOutOfRange(let count):
            return "--shard: \(count) shards; expected 1 to \(TestShard.maximumCount)"
        case .indexOutOfRange(let index, let count):
            return "--shard \(index)/\(count): the index is counted from 1 and goes up to \(count)"
        case .badVariable(let name, let value, let expected):
            return "\(name)=\"\(value)\" (from the environment): expected \(expected)"
        }
    }
}
