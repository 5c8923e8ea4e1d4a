import PrePushAccessibility
import PrePushCore
import Testing

/// How a baseline answers for findings: a multiset, untouched lines first, context before text.
@Suite struct BaselineMatchingTests {
    let checker = AccessibilityChecker()

    func view(_ rows: [String]) -> String {
        "import SwiftUI\n\nstruct ListScreen: View {\n    var body: some View {\n        VStack {\n"
            + rows.map { "            \($0)\n" }.joined() + "        }\n    }\n}\n"
    }

    @Test func identicalLinesAreCountedNotCollapsed() {
        let old = checker.check(path: "L.swift", text: view(Array(repeating: "Button(\"Open\") { open() }", count: 3)))
        let baseline = AccessibilityBaseline(old)
        let now = checker.check(path: "L.swift", text: view(Array(repeating: "Button(\"Open\") { open() }", count: 4)))
        #expect(now.count == 4)
        #expect(baseline.newFindings(now).count == 1)
    }

    @Test func theEntriesGoToUntouchedLinesFirst() {
        let rows = Array(repeating: "Button(\"Open\") { open() }", count: 5)
        let baseline = AccessibilityBaseline(checker.check(path: "L.swift", text: view(rows)))
        let now = checker.check(path: "L.swift", text: view(rows + ["Button(\"Open\") { open() }"]))
        // Whichever line the push touched is the new one, even when its surroundings match an entry's.
        for touchedLine in now.map(\.location.line) {
            let new = baseline.newFindings(now) { $0.location.line == touchedLine }
            #expect(new.map(\.location.line) == [touchedLine])
        }
    }

    @Test func aVersionOneBaselineMatchesByLineText() throws {
        let json = #"{"version": 1, "findings": [{"file": "L.swift", "rule": "missing-identifier", "type": "ListScreen", "text": "Button(\"Open\") { open() }"}]}"#
        let baseline = try AccessibilityBaseline.decode(Array(json.utf8), name: "b.json")
        let now = checker.check(path: "L.swift", text: view(["Text(\"Header\")", "Button(\"Open\") { open() }"]))
        #expect(now.count == 1)
        #expect(baseline.newFindings(now).isEmpty)
        #expect(throws: AccessibilityBaseline.ReadError.self) { try AccessibilityBaseline.decode(Array(#"{"version": 3, "findings": []}"#.utf8), name: "b.json") }
    }

    @Test func theContextTellsApartTwoLinesWithTheSameText() {
        let before = checker.check(path: "L.swift", text: view(["Text(\"A\")", "Button(\"Open\") { open() }", "Text(\"B\")", "Button(\"Open\") { open() }"]))
        #expect(Set(before.map(\.contextHash)).count == 2)
        #expect(before.allSatisfy { $0.contextHash.count == 16 })
    }
}
