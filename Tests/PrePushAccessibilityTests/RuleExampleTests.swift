@testable import PrePushAccessibility
import PrePushCore
import Testing

/// A rule's example with its markers taken out: the code and where each marker stood.
struct MarkedExample: CustomTestStringConvertible, Sendable {
    let rule: String
    let code: String
    let markers: [PrePushCore.SourceLocation]
    let triggering: Bool
    var testDescription: String { "\(rule) \(triggering ? "flags" : "accepts"): \(code.prefix(60))" }

    init(rule: String, example: RuleExample, triggering: Bool) {
        self.rule = rule
        self.triggering = triggering
        var code = ""
        var markers: [PrePushCore.SourceLocation] = []
        var line = 1, column = 1
        for scalar in example.code.unicodeScalars {
            if scalar == "↓" {
                markers.append(PrePushCore.SourceLocation(file: "Example.swift", line: line, column: column))
                continue
            }
            code.unicodeScalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        self.code = code
        self.markers = markers
    }
}

let allExamples: [MarkedExample] = AccessibilityChecker.rules.flatMap { rule in
    rule.description.nonTriggeringExamples.map { MarkedExample(rule: rule.description.identifier, example: $0, triggering: false) }
        + rule.description.triggeringExamples.map { MarkedExample(rule: rule.description.identifier, example: $0, triggering: true) }
}

@Suite struct RuleExampleTests {
    @Test(arguments: allExamples)
    func findingsLandExactlyOnTheMarkers(_ example: MarkedExample) {
        // Wrapped in a view body, as SwiftUI code is written.
        let wrapped = example.code.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        let findings = AccessibilityChecker().check(path: "Example.swift", text: wrapped.joined(separator: "\n"))
            .filter { $0.ruleID == example.rule }
        #expect(findings.map(\.location) == example.markers, "\(findings.map { "\($0.location): \($0.message)" })")
        if example.triggering { #expect(!example.markers.isEmpty, "a triggering example needs a ↓ marker") }
    }

    @Test func everyRuleHasExamplesBothWays() {
        for rule in AccessibilityChecker.rules {
            #expect(!rule.description.triggeringExamples.isEmpty, "\(rule.description.identifier)")
            #expect(!rule.description.nonTriggeringExamples.isEmpty, "\(rule.description.identifier)")
        }
        #expect(Set(AccessibilityChecker.rules.map { $0.description.identifier }).count == AccessibilityChecker.rules.count)
    }
}

@Suite struct ConventionTests {
    /// Every identifier shared/spec/agentic-todo-demo.md lists, on the control it names.
    static let demoIdentifiers: [(control: String, identifier: String)] = [
        ("TextField", "login_field_email"), ("SecureField", "login_field_password"), ("Button", "login_button_submit"),
        ("Button", "login_button_forgot"), ("List", "home_list_tasks"), ("Button", "home_button_add"),
        ("TextField", "detail_field_title"), ("TextField", "detail_field_description"), ("Picker", "detail_picker_priority"),
        ("Button", "detail_button_save"), ("Toggle", "settings_toggle_dark_mode"), ("Toggle", "settings_toggle_notifications"),
        ("Button", "settings_button_clear"), ("Text", "settings_label_version"), ("TextField", "modal_field_title"),
        ("TextField", "modal_field_description"), ("Picker", "modal_picker_priority"), ("Button", "modal_button_save"),
        ("Button", "modal_button_cancel"), ("HomeView", "tab_home"), ("SettingsView", "tab_settings"), ("Button", "nav_button_back"),
    ]

    @Test func everyIdentifierOfTheDemoSpecPassesTheDefaults() {
        for (control, identifier) in Self.demoIdentifiers {
            let code = "\(control)(\"x\") { }.accessibilityIdentifier(\"\(identifier)\")"
            let findings = AccessibilityChecker().check(path: "V.swift", text: code).filter { $0.ruleID == "identifier-convention" }
            #expect(findings.isEmpty, "\(identifier) on \(control): \(findings.map(\.message))")
        }
        let cell = #"ForEach(tasks) { task in NavigationLink(value: task) { TaskRow(task: task) }.accessibilityIdentifier("home_cell_task_\(task.id)") }"#
        #expect(AccessibilityChecker().check(path: "V.swift", text: cell).filter { $0.ruleID == "identifier-convention" }.isEmpty)
    }

    @Test func thePatternAndTypeWordsAreConfigurable() {
        var settings = AccessibilitySettings(extraControls: ["PrimaryButton"])
        settings.pattern = #"^[A-Z][A-Za-z]+$"#
        let code = #"PrimaryButton("Go") { }.accessibilityIdentifier("GoButton")"#
        #expect(AccessibilityChecker(settings: settings).check(path: "V.swift", text: code).isEmpty)
        #expect(AccessibilityChecker().check(path: "V.swift", text: #"PrimaryButton("Go") { }"#).isEmpty, "not a control by default")
        let custom = AccessibilityChecker(settings: AccessibilitySettings(extraControls: ["PrimaryButton"]))
        #expect(custom.check(path: "V.swift", text: #"PrimaryButton("Go") { }"#).map(\.ruleID) == ["missing-identifier"])
    }

    /// A repository whose identifiers end with the type word (damus's `main_side_menu_button`): the
    /// second word is a name, and only another control's type word at the end is reported.
    @Test func theTypeWordCanComeLast() {
        var settings = AccessibilitySettings()
        settings.typeWordLast = true
        let code = """
        Button("Menu") { open() }.accessibilityIdentifier("main_side_menu_button")
        Button("Next") { next() }.accessibilityIdentifier("onboarding_content_settings_page_next_page")
        Button("Post") { post() }.accessibilityIdentifier("post_button")
        Toggle("Mute", isOn: $muted).accessibilityIdentifier("side_menu_mute_button")
        Button("Add") { add() }.accessibilityIdentifier("AddButton")
        """
        let messages = AccessibilityChecker(settings: settings).check(path: "V.swift", text: code)
            .filter { $0.ruleID == "identifier-convention" }.map(\.message)
        #expect(messages == ["a Toggle's identifier says toggle, not button: \"side_menu_mute_button\"",
                             "\"AddButton\" does not follow {scope}_{name}_{type} (for example login_submit_button)"], "\(messages)")
    }

    @Test func aRuleCanBeTurnedOffOrDowngraded() {
        let code = #"Button("Add") { add() }"#
        #expect(AccessibilityChecker(settings: AccessibilitySettings(severities: ["missing-identifier": nil])).check(path: "V.swift", text: code).isEmpty)
        #expect(AccessibilityChecker(settings: AccessibilitySettings(severities: ["missing-identifier": .warning])).check(path: "V.swift", text: code).map(\.severity) == [.warning])
    }
}

@Suite struct SuppressionTests {
    @Test func disableNextLineSilencesOneLine() {
        let code = """
        // prepush:disable-next-line missing-identifier
        Button("Add") { add() }
        Button("Remove") { remove() }
        """
        #expect(AccessibilityChecker().check(path: "V.swift", text: code).map(\.location.line) == [3])
    }

    @Test func disableSilencesARuleForTheFile() {
        let code = """
        // prepush:disable missing-identifier
        Button("Add") { add() }
        Text("Price").font(.system(size: 9))
        """
        #expect(AccessibilityChecker().check(path: "V.swift", text: code).map(\.ruleID) == ["fixed-font-size"])
    }

    @Test func findingsCarryTheDataModelsIssueTypeAndTheNodeSpan() {
        let code = """
        VStack {
            Button(action: add) {
                Image(systemName: "plus")
            }
            .padding()
        }
        """
        let findings = AccessibilityChecker().check(path: "V.swift", text: code)
        let icon = findings.first { $0.ruleID == "icon-button-missing-label" }
        #expect(icon?.issueType == .missingLabel)
        #expect(icon?.lines == 2...5, "the span covers the whole modifier chain")
        #expect(icon?.location == PrePushCore.SourceLocation(file: "V.swift", line: 2, column: 5))
    }
}

@Suite struct DefaultConventionScannerTests {
    /// The hand-written scanner must agree with the documented pattern on every identifier built from
    /// pieces that sit on its edges: every sequence of up to four pieces joined by `_`.
    @Test func agreesWithTheRegularExpression() throws {
        let regex = try Regex(AccessibilitySettings.defaultPattern)
        let pieces = ["tab", "home", "button", "a1", "1a", "", "{}", "x{}", "Add", "é", "b_", "toggle", "9"]
        var identifiers: [String] = []
        func build(_ prefix: [String]) {
            if !prefix.isEmpty { identifiers.append(prefix.joined(separator: "_")) }
            guard prefix.count < 4 else { return }
            for piece in pieces { build(prefix + [piece]) }
        }
        build([])
        var disagreements: [String] = []
        for identifier in identifiers {
            let expected = (try? regex.wholeMatch(in: identifier)) != nil
            if IdentifierConventionRule.followsDefaultConvention(identifier) != expected { disagreements.append(identifier) }
        }
        #expect(identifiers.count > 30_000)
        #expect(disagreements.count == 0, "first disagreements: \(disagreements.prefix(10))")
    }
}
