import Foundation
import PrePushAccessibility
import PrePushTestSupport
import Testing

/// docs/rules.md is generated from the rules; this fails when it is stale.
@Suite struct RulesPageTests {
    @Test func theRulesPageIsCurrent() throws {
        let path = Fixtures.repositoryRoot.appendingPathComponent("docs/rules.md").path
        let expected = RulesDocument.render()
        if ProcessInfo.processInfo.environment["PREPUSH_WRITE_GOLDEN"] == "1" {
            try Data(expected.utf8).write(to: URL(fileURLWithPath: path))
        }
        let current = try String(contentsOfFile: path, encoding: .utf8)
        #expect(current == expected, "docs/rules.md is stale: regenerate with PREPUSH_WRITE_GOLDEN=1 swift test --filter RulesPageTests")
        for rule in AccessibilityChecker.rules {
            #expect(current.contains("## \(rule.description.identifier)\n"))
        }
    }
}
