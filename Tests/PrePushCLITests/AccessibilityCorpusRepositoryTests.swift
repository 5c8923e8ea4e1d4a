import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Each corpus folder checked as a repository of its own by the binary, the identifier policy
/// measuring its practice as it would in the hook: every marked finding, nothing else
/// (scripts/a11y-corpus.py prints the same figures per rule for any binary).
@Suite struct AccessibilityCorpusRepositoryTests {
    static let corpus = Fixtures.own + "/AccessibilityCorpus"

    func check(_ folder: String) throws -> (expected: Set<String>, found: Set<String>, result: CommandResult) {
        let repo = try GitRepository()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted().filter { $0.hasSuffix(".swift") }
        var expected: Set<String> = []
        for name in names {
            let text = try String(contentsOfFile: folder + "/" + name, encoding: .utf8)
            try repo.write(text, to: name)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let marker = line.firstRange(of: "// expect: ") else { continue }
                for rule in line[marker.upperBound...].split(separator: ",") {
                    expected.insert("\(name):\(index + 1) \(rule.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        let result = try InProcessCLI.run(["a11y", "--format", "json"] + names, in: repo.path, environment: repo.environment)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any], "\(result)")
        let findings = try #require(document["findings"] as? [[String: Any]])
        let found = Set(findings.map { "\($0["file"] as? String ?? ""):\($0["line"] as? Int ?? 0) \($0["rule"] as? String ?? "")" })
        return (expected, found, result)
    }

    @Test(arguments: ["", "/PolicyOff", "/PartlyTagged"])
    func everyMarkedFindingAndNothingElse(_ folder: String) throws {
        let (expected, found, result) = try check(Self.corpus + folder)
        #expect(expected.count >= 6, "\(result)")
        #expect(expected.subtracting(found).isEmpty, "missed: \(expected.subtracting(found).sorted())")
        #expect(found.subtracting(expected).isEmpty, "wrong: \(found.subtracting(expected).sorted())")
    }

    /// The partly tagged repository: its untagged controls are counted in a note, and its scheme named.
    @Test func thePartlyTaggedRepositorySaysWhatItLeftOut() throws {
        let (_, _, result) = try check(Self.corpus + "/PartlyTagged")
        #expect(result.standardError.contains("not reported: the repository tags 38% of its controls (7 of 18)"), "\(result)")
        #expect(result.standardError.contains("its UI tests query 4 identifiers (RoomUITests.swift)"), "\(result)")
        #expect(result.standardError.contains("inferred from its identifiers: lower-case words joined by - or _ (6 of 7)"), "\(result)")
    }
}
