/// docs/rules.md, made from the rules' own descriptions and examples, so the page cannot drift from
/// the code: a test compares the file with this rendering.
package enum RulesDocument {
    /// The page's Markdown.
    package static func render() -> String {
        var page = """
        # Accessibility rules

        <!-- Generated from Sources/PrePushAccessibility/*Rule.swift; do not edit. Regenerate with
             PREPUSH_WRITE_GOLDEN=1 swift test --filter RulesPageTests -->

        The rules of the view check (see [accessibility.md](accessibility.md) for what is checked and
        when). Each rule's examples are also its tests: `↓` marks where a finding lands. Set a rule's
        severity in `.prepush.yml` (`accessibility.rules: { rule-id: error | warning | off }`) or silence
        one place with `// prepush:disable-next-line rule-id`.

        | rule | default | issue type |
        | --- | --- | --- |

        """
        for rule in AccessibilityChecker.rules.map({ $0.description }) {
            page += "| [`\(rule.identifier)`](#\(rule.identifier)) | \(rule.defaultSeverity.rawValue) | \(rule.issueType.rawValue) |\n"
        }
        for rule in AccessibilityChecker.rules.map({ $0.description }) {
            page += "\n## \(rule.identifier)\n\n**\(rule.name).** Default: \(rule.defaultSeverity.rawValue). Issue type: `\(rule.issueType.rawValue)`.\n\n"
            page += rule.rationale + "\n\n"
            page += "Flagged:\n\n"
            for example in rule.triggeringExamples { page += "```swift\n\(example.code)\n```\n\n" }
            page += "Accepted:\n\n"
            for example in rule.nonTriggeringExamples { page += "```swift\n\(example.code)\n```\n\n" }
        }
        return String(page.dropLast())
    }
}
