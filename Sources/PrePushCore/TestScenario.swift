/// How much a scenario matters (data model: `TestPriority`); P1 sorts first.
public enum TestPriority: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case p1 = "P1"
    case p2 = "P2"
    case p3 = "P3"

    public static func < (lhs: TestPriority, rhs: TestPriority) -> Bool {
        let order: [TestPriority] = [.p1, .p2, .p3]
        return order.firstIndex(of: lhs)! < order.firstIndex(of: rhs)!
    }
}

/// A test scenario mapped to the test that implements it (data model: `TestScenario`).
public struct TestScenario: Sendable, Hashable, Codable {
    /// The user story it belongs to ("US1").
    public let userStory: String
    /// How much it matters.
    public let priority: TestPriority
    /// What the scenario checks.
    public let description: String
    /// The test method implementing it (`test_<feature>_<scenario>`).
    public let testMethodName: String
    /// Launch arguments the test must pass to the app (each starts with `--`).
    public let requiredLaunchArguments: [String]
    /// Whether a person has to carry it out: shown as manual, never counted as a failure.
    public let requiresManualIntervention: Bool

    /// Creates a scenario.
    public init(userStory: String, priority: TestPriority, description: String, testMethodName: String,
                requiredLaunchArguments: [String] = [], requiresManualIntervention: Bool = false) {
        self.userStory = userStory
        self.priority = priority
        self.description = description
        self.testMethodName = testMethodName
        self.requiredLaunchArguments = requiredLaunchArguments
        self.requiresManualIntervention = requiresManualIntervention
    }

    /// Validation rule 5: `test_<feature>_<scenario>`, where the feature is a letter followed by
    /// letters and digits, and the scenario is letters, digits and underscores (not starting with one).
    public static func isValidTestMethodName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count > 5, bytes.starts(with: Array("test_".utf8)) else { return false }
        func isAlphanumeric(_ byte: UInt8) -> Bool {
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        let rest = bytes[5...]
        guard let separator = rest.firstIndex(of: UInt8(ascii: "_")), separator > rest.startIndex else { return false }
        let feature = rest[..<separator], scenario = rest[(separator + 1)...]
        guard let first = feature.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              feature.allSatisfy(isAlphanumeric) else { return false }
        guard let start = scenario.first, isAlphanumeric(start),
              scenario.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else { return false }
        return true
    }
}
