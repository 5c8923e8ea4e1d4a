import PrePushConfig
import PrePushCore
import PrePushResults

/// The check after a `selective: tests` stage passed: it ran every test it chose. `swift test`
/// exits 0 after running nothing when a filter matches no test, so a short run is a refusal.
enum SelectiveRunCheck {
    /// The refusal of the first stage of `group` that did not show every test it chose, if any.
    static func refusal(_ group: [StageSettings], _ results: [StageResult]) -> Refusal? {
        for (stage, result) in zip(group, results) where !stage.chosenTests.isEmpty && result.cachedFrom == nil {
            let missing = notRun(stage.chosenTests, in: result.tests.results)
            let ran = Set(result.tests.results.map(\.testIdentifier)).count
            // By name, so one filter that matched two tests cannot hide another that matched none.
            guard !missing.isEmpty || ran < stage.chosenTests.count else { continue }
            return .selectionNotRun(stage: stage.kind.rawValue, chosen: stage.chosenTests.count, ran: ran, missing: missing)
        }
        return nil
    }

    /// The chosen tests (`swift test list` names) no result stands for. A result names a test as
    /// `Module.Suite.test` (`LibTests.MathTests/testDouble`, `LibTests.freeTriple()`); a console
    /// that left the module out still matches by suite and name (`TestIdentifierKey`).
    static func notRun(_ chosen: [String], in results: [UITestResult]) -> [String] {
        let identifiers = Set(results.map(\.testIdentifier))
        let keys = Set(results.map { TestIdentifierKey.key($0.testIdentifier) })
        return chosen.filter { listed in
            let name = TestImpact.matchName(listed)
            return !identifiers.contains(name.replacing("/", with: ".")) && !keys.contains(TestIdentifierKey.key(name))
        }
    }
}
