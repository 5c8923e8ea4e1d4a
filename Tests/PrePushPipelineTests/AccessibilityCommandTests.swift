import Foundation
import PrePushCommandTestSupport
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
        try repo.addTaggedScreen()
        try repo.write(view, to: "Views/AddTaskView.swift")
        let result = try InProcess.a11y(["a11y", "Views/AddTaskView.swift"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        #expect(result.standardOutput == "Views/AddTaskView.swift:6:13: error: TextField has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]\n")
    }

    @Test func jsonNamesRuleSeverityAndPlace() throws {
        let repo = try GitRepository()
        try repo.addTaggedScreen()
        try repo.write(view, to: "Views/AddTaskView.swift")
        let result = try InProcess.a11y(["a11y", "--all", "--format", "json"], in: repo.path, environment: repo.environment)
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

    /// JSON and SARIF carry the notes (what was not reported, what was not checked) that text
    /// prints, and say them on standard error too.
    @Test func machineReadableOutputKeepsTheNotes() throws {
        let repo = try GitRepository()
        try repo.write(view, to: "Views/AddTaskView.swift")
        try repo.write(Data([0x73, 0x74, 0x72, 0x75, 0x63, 0x74, 0xFF, 0xFE, 0x0A]), to: "Views/Broken.swift")
        let json = try InProcess.a11y(["a11y", "--all", "--format", "json"], in: repo.path, environment: repo.environment)
        #expect(json.status == 0, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let notes = try #require(document["notes"] as? [String])
        #expect(notes == ["Views/Broken.swift: not UTF-8 text; not checked",
                          "accessibility: 1 missing-identifier finding not reported: the repository tags 50% of its controls (1 of 2), and the rule applies from 75% or among mostly tagged controls of one view; it has no UI tests; to report them, set accessibility.rules: {missing-identifier: error} (docs/accessibility.md)"],
                "\(json)")
        #expect(json.standardError.split(separator: "\n").map(String.init) == notes.map { "prepush: note: " + $0 }, "\(json)")

        let sarif = try InProcess.a11y(["a11y", "--all", "--format", "sarif"], in: repo.path, environment: repo.environment)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.standardOutput.utf8)) as? [String: Any])
        let invocation = try #require(((log["runs"] as? [[String: Any]])?.first?["invocations"] as? [[String: Any]])?.first)
        let notifications = try #require(invocation["toolExecutionNotifications"] as? [[String: Any]])
        #expect(notifications.compactMap { ($0["message"] as? [String: Any])?["text"] as? String } == notes)
        #expect(notifications.allSatisfy { $0["level"] as? String == "note" } && invocation["executionSuccessful"] as? Bool == true)
        if AccessibilityCommandTests.canValidateSARIF {
            let file = try repo.root.write(sarif.standardOutput, to: "notes.sarif")
            let check = try Command.run("python3", ["-c", "import json, sys, jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))",
                                                    Fixtures.shared + "/sarif/sarif-schema-2.1.0.json", file], environment: ProcessInfo.processInfo.environment)
            #expect(check.status == 0, "\(check)")
        }
    }

    @Test func aRangeChecksOnlyItsChangedLines() throws {
        let repo = try GitRepository()
        try repo.addTaggedScreen()
        try repo.write(view, to: "Views/AddTaskView.swift")
        try repo.commitAll("legacy view")
        try repo.git("branch", "base")
        try repo.write(view.replacingOccurrences(of: "Save", with: "Store"), to: "Views/AddTaskView.swift")
        try repo.commitAll("rename the button")
        let changed = try InProcess.a11y(["a11y", "--base", "base"], in: repo.path, environment: repo.environment)
        #expect(changed.status == 0, "the old TextField is not this range's doing: \(changed)")
        let whole = try InProcess.a11y(["a11y", "--base", "base", "--all-lines"], in: repo.path, environment: repo.environment)
        #expect(whole.status == 1)
    }

    @Test func exactlyOneModeIsAUsageRule() throws {
        let repo = try GitRepository()
        #expect(try InProcessCLI.run(["a11y"], in: repo.path, environment: repo.environment).status == 2)
        #expect(try InProcessCLI.run(["a11y", "--all", "--base", "x"], in: repo.path, environment: repo.environment).status == 2)
        #expect(try InProcess.a11y(["a11y", "Missing.swift"], in: repo.path, environment: repo.environment).status == 2)
    }

    /// Linux CI installs jsonschema (scripts/bootstrap.sh --tests); on macOS the test runs when it is there.
    static var canValidateSARIF: Bool {
        #if os(Linux)
        return true
        #else
        return (try? Command.run("python3", ["-c", "import jsonschema"], environment: ProcessInfo.processInfo.environment).status) == 0
        #endif
    }

    @Test(.enabled(if: AccessibilityCommandTests.canValidateSARIF))
    func sarifValidatesAgainstTheSchemaAndPointsAtTheFinding() throws {
        let repo = try GitRepository()
        try repo.addTaggedScreen()
        try repo.write(view, to: "App/My Views/AddTaskView.swift")
        try repo.write("import SwiftUI\nstruct ZView: View { var body: some View { Text(\"Hi\").onTapGesture { greet() } } }\n", to: "App/Views/ZView.swift")
        let result = try InProcess.a11y(["a11y", "--all", "--format", "sarif"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        let sarif = try repo.root.write(result.standardOutput, to: "out.sarif")
        let schema = Fixtures.shared + "/sarif/sarif-schema-2.1.0.json"
        // Python's jsonschema, the validator the SARIF spec's own tooling uses; format checks on too.
        let validate = """
        import json, sys, jsonschema
        schema = json.load(open(sys.argv[1])); log = json.load(open(sys.argv[2]))
        jsonschema.validate(log, schema, format_checker=jsonschema.FormatChecker())
        print("valid", len(log["runs"][0]["results"]))
        """
        let check = try Command.run("python3", ["-c", validate, schema, sarif], environment: ProcessInfo.processInfo.environment)
        #expect(check.status == 0, "\(check)")
        #expect(check.standardOutput == "valid 2\n")

        let log = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        let first = try #require(results.first)
        #expect(first["ruleId"] as? String == "missing-identifier")
        #expect(first["level"] as? String == "error")
        let physical = try #require(((first["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect((physical["artifactLocation"] as? [String: Any])?["uri"] as? String == "App/My%20Views/AddTaskView.swift")
        #expect((physical["region"] as? [String: Any])?["startLine"] as? Int == 6)
        #expect((physical["region"] as? [String: Any])?["startColumn"] as? Int == 13)
        #expect(results.last?["ruleId"] as? String == "tap-gesture-missing-trait")
        let rules = try #require(((run["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.count == 9, "every rule is described, found or not")
        let base = (run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        #expect((base?["uri"] as? String)?.hasPrefix("file:///") == true)
    }
}

@Suite struct AnnotationInjectionTests {
    @Test func aViewFileNameCannotInjectWorkflowCommands() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        let evil = "Views/Evil\n::error file=INJECTED.swift,line=1::INJECTED\nView.swift"
        try repo.write("""
        import SwiftUI
        struct EvilView: View {
            var body: some View {
                Button("Go") { go() }
            }
        }

        """, to: evil)
        var environment = repo.environment
        environment["GITHUB_ACTIONS"] = "true"
        let result = try InProcess.a11y(["a11y", evil], in: repo.path, environment: environment)
        #expect(result.status == 1, "\(result)")
        let commands = result.standardOutput.split(separator: "\n").filter { $0.hasPrefix("::") }
        #expect(commands.count == 1, "\(result.standardOutput)")
        #expect(result.standardOutput.hasPrefix("Views/Evil\\n::error file=INJECTED.swift,line=1::INJECTED\\nView.swift:4:9: error: Button has no"),
                "the compiler-style line shows the name on one line: \(result.standardOutput)")
        #expect(commands.first?.hasPrefix("::error file=Views/Evil%0A%3A%3Aerror file=INJECTED.swift%2Cline=1%3A%3AINJECTED%0AView.swift,line=4,") == true,
                "\(result.standardOutput)")
    }
}
