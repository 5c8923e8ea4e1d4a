import Foundation
import PrePushAccessibility
import PrePushCore
import PrePushTestSupport
import Testing

/// The rules judged on realistic view code (Tests/Fixtures/AccessibilityCorpus): every line marked
/// `// expect: rule` gets that finding, and no other line gets any. The figures per rule are in
/// docs/accessibility.md (scripts/a11y-corpus.py prints them for any binary).
@Suite struct AccessibilityCorpusTests {
    struct Finding: Hashable, CustomStringConvertible {
        let file: String, line: Int, rule: String
        var description: String { "\(file):\(line) \(rule)" }
    }

    static let corpus = Fixtures.own + "/AccessibilityCorpus"

    static func measure() throws -> (expected: Set<Finding>, found: Set<Finding>) {
        var expected: Set<Finding> = [], found: Set<Finding> = []
        let checker = AccessibilityChecker()
        for name in try FileManager.default.contentsOfDirectory(atPath: corpus).sorted() where name.hasSuffix(".swift") {
            let text = try String(contentsOfFile: corpus + "/" + name, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let marker = line.range(of: "// expect: ") else { continue }
                for rule in line[marker.upperBound...].split(separator: ",") {
                    expected.insert(Finding(file: name, line: index + 1, rule: rule.trimmingCharacters(in: .whitespaces)))
                }
            }
            for finding in checker.check(path: name, text: text) {
                found.insert(Finding(file: name, line: finding.location.line, rule: finding.ruleID))
            }
        }
        return (expected, found)
    }

    @Test func theRulesFindWhatTheCorpusMarksAndLittleElse() throws {
        let (expected, found) = try Self.measure()
        #expect(expected.count >= 30)
        let missed = expected.subtracting(found), wrong = found.subtracting(expected)
        #expect(missed.isEmpty, "missed: \(missed.sorted { $0.description < $1.description })")
        // The one known false positive: a font on a stack of icon buttons sizes their symbols, but the
        // rule does not look into the buttons' labels.
        #expect(wrong == [Finding(file: "PlayerControls.swift", line: 48, rule: "fixed-font-size")],
                "wrong: \(wrong.sorted { $0.description < $1.description })")
    }

    @Test func previewsAndDebugCodeAreQuietUnlessAsked() throws {
        let text = try String(contentsOfFile: Self.corpus + "/SettingsTab.swift", encoding: .utf8)
        let quiet = AccessibilityChecker().check(path: "SettingsTab.swift", text: text)
        var settings = AccessibilitySettings()
        settings.checkDebugCode = true
        settings.checkPreviews = true
        let loud = AccessibilityChecker(settings: settings).check(path: "SettingsTab.swift", text: text)
        let extra = Set(loud.map { "\($0.location.line) \($0.ruleID)" }).subtracting(quiet.map { "\($0.location.line) \($0.ruleID)" })
        // The debug section's Button and its fixed font, and the preview's unlabelled image.
        #expect(extra == ["28 missing-identifier", "29 fixed-font-size", "53 image-missing-label"], "\(extra.sorted())")
    }
}
