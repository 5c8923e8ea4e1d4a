import PrePushConfig
import PrePushCore
import PrePushResults

/// The check after a `selective: tests` stage passed: it ran every test it chose. `swift test`
/// exits 0 after running nothing when a filter matches no test, so a short run is a refusal.
enum SelectiveRunCheck {
    /// The refusal of the first stage of `group` that ran fewer tests than it chose, if any.
    static func refusal(_ group: [StageSettings], _ results: [StageResult]) -> Refusal? {
        for (stage, result) in zip(group, results) where !stage.chosenTests.isEmpty && result.cachedFrom == nil {
            let ran = Set(result.tests.results.map { TestIdentifierKey.key($0.testIdentifier) })
            guard ran.count < stage.chosenTests.count else { continue }
            let missing = stage.chosenTests.filter { !ran.contains(TestIdentifierKey.key(TestImpact.matchName($0))) }
            return .selectionNotRun(stage: stage.kind.rawValue, chosen: stage.chosenTests.count, ran: ran.count, missing: missing)
        }
        return nil
    }
}
