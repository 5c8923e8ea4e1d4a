import Foundation
import PrePushTestSupport
import Testing

@Suite struct AccessibilityCommandTests {
    let view = """
    import SwiftUI

    struct AddTaskView: View {
        var body: some View {
            Form {
                TextField("Title", text: $title)
                Button("Save") { save() }.accessibilityIdentifier("modal_button_save")
            }
        }
    }

    """

    @Test func filesAreCheckedWhole() throws {
        let repo = try GitRepository()
        try repo.write(view, to: "Views/AddTaskView.swift")
        let result = try PrepushBinary.run(["a11y", "Views/AddTaskView.swift"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        #expect(result.standardOutput == "Views/AddTaskView.swift:6:13: error: TextField has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]\n")
    }

    @Test func jsonNamesRuleSeverityAndPlace() throws {
        let repo = try GitRepository()
        try repo.write(view, to: "Views/AddTaskView.swift")
        let result = try PrepushBinary.run(["a11y", "--all", "--format", "json"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["rule"] as? String == "missing-identifier")
        #expect(findings.first?["file"] as? String == "Views/AddTaskView.swift")
        #expect(findings.first?["line"] as? Int == 6)
        #expect(findings.first?["issueType"] as? String == "missingIdentifier")
        #expect(json["version"] as? Int == 1)
    }

    @Test func aRangeChecksOnlyItsChangedLines() throws {
        let repo = try GitRepository()
        try repo.write(view, to: "Views/AddTaskView.swift")
        try repo.commitAll("legacy view")
        try repo.git("branch", "base")
        try repo.write(view.replacingOccurrences(of: "Save", with: "Store"), to: "Views/AddTaskView.swift")
        try repo.commitAll("rename the button")
        let changed = try PrepushBinary.run(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(changed.status == 0, "the old TextField is not this range's doing: \(changed)")
        let whole = try PrepushBinary.run(["a11y", "--base", "base", "--all-lines"], in: repo.path, environment: repo.environment)
        #expect(whole.status == 1)
    }

    @Test func exactlyOneModeIsAUsageRule() throws {
        let repo = try GitRepository()
        #expect(try PrepushBinary.run(["a11y"], in: repo.path, environment: repo.environment).status == 2)
        #expect(try PrepushBinary.run(["a11y", "--all", "--base", "x"], in: repo.path, environment: repo.environment).status == 2)
        #expect(try PrepushBinary.run(["a11y", "Missing.swift"], in: repo.path, environment: repo.environment).status == 2)
    }
}
