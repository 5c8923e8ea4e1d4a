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

    /// Checks every file of `folder` whole, with the string constants of all its files known (as the
    /// repository's constant index gives them), and collects the markers. `policyOff` turns the
    /// identifier rules off, as a repository without UI tests or identifiers does.
    static func measure(_ folder: String = corpus, policyOff: Bool = false) throws -> (expected: Set<Finding>, found: Set<Finding>) {
        var expected: Set<Finding> = [], found: Set<Finding> = []
        var settings = AccessibilitySettings()
        if policyOff {
            settings = AccessibilitySettings(severities: ["missing-identifier": Optional<Severity>.none, "identifier-convention": nil])
        }
        let checker = AccessibilityChecker(settings: settings)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { $0.hasSuffix(".swift") }
        let texts = try names.map { try String(contentsOfFile: folder + "/" + $0, encoding: .utf8) }
        var constants = ConstantTable()
        for text in texts { constants.merge(ConstantIndex.scan(text)) }
        for (name, text) in zip(names, texts) {
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let marker = line.range(of: "// expect: ") else { continue }
                for rule in line[marker.upperBound...].split(separator: ",") {
                    expected.insert(Finding(file: name, line: index + 1, rule: rule.trimmingCharacters(in: .whitespaces)))
                }
            }
            for finding in checker.check(path: name, text: text, constants: constants) {
                found.insert(Finding(file: name, line: finding.location.line, rule: finding.ruleID))
            }
        }
        return (expected, found)
    }

    @Test func theRulesFindWhatTheCorpusMarksAndNothingElse() throws {
        let (expected, found) = try Self.measure()
        #expect(expected.count >= 40)
        let missed = expected.subtracting(found), wrong = found.subtracting(expected)
        #expect(missed.isEmpty, "missed: \(missed.sorted { $0.description < $1.description })")
        #expect(wrong.isEmpty, "wrong: \(wrong.sorted { $0.description < $1.description })")
    }

    /// The code of a repository without the identifier policy (no UI tests, no identifiers): with the
    /// identifier rules off, as the policy leaves them there, the other rules find what is marked.
    @Test func aRepositoryWithoutThePolicyGetsWhatItIsMarkedFor() throws {
        let (expected, found) = try Self.measure(Self.corpus + "/PolicyOff", policyOff: true)
        #expect(expected.count >= 6)
        #expect(!expected.contains { $0.rule == "missing-identifier" || $0.rule == "identifier-convention" })
        let missed = expected.subtracting(found), wrong = found.subtracting(expected)
        #expect(missed.isEmpty, "missed: \(missed.sorted { $0.description < $1.description })")
        #expect(wrong.isEmpty, "wrong: \(wrong.sorted { $0.description < $1.description })")
        // With the rules forced on, every control of that code would be reported, none wanted.
        let (_, forced) = try Self.measure(Self.corpus + "/PolicyOff")
        #expect(forced.filter { $0.rule == "missing-identifier" }.count >= 5)
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
