import PrePushCore

/// Runs every rule over a file, honouring `// prepush:disable RULE` (the whole file) and
/// `// prepush:disable-next-line RULE` comments.
public struct AccessibilityChecker: Sendable {
    /// Every rule, in the order findings are reported.
    public static let rules: [any AccessibilityRule.Type] = [
        MissingIdentifierRule.self, IdentifierConventionRule.self, DuplicateIdentifierRule.self,
        IconButtonMissingLabelRule.self, ImageMissingLabelRule.self, TapGestureMissingTraitRule.self,
        FixedFontSizeRule.self, SmallTouchTargetRule.self,
    ]

    /// The settings the rules run with.
    public let settings: AccessibilitySettings

    /// Creates a checker.
    public init(settings: AccessibilitySettings = AccessibilitySettings()) {
        self.settings = settings
    }

    /// The findings of every rule in one file, suppressions applied, in file order.
    public func check(path: String, text: String) -> [AccessibilityFinding] {
        let source = ParsedSource(path: path, text: text)
        let suppressions = Suppressions(text: text)
        var findings: [AccessibilityFinding] = []
        for rule in Self.rules { findings += rule.init(settings: settings).findings(in: source) }
        return findings.filter { !suppressions.suppresses($0) }
            .sorted { ($0.location.line, $0.location.column, $0.ruleID) < ($1.location.line, $1.location.column, $1.ruleID) }
    }
}

/// The suppression comments of one file.
struct Suppressions {
    var wholeFile: Set<String> = []
    var nextLine: [Int: Set<String>] = [:]

    init(text: String) {
        for (index, line) in Diagnostic.lines(of: text).enumerated() {
            let content = String(String.UnicodeScalarView(line))
            guard let marker = content.firstRange(of: "// prepush:disable") else { continue }
            let rest = content[marker.upperBound...]
            let isNextLine = rest.hasPrefix("-next-line")
            let rules = rest.dropFirst(isNextLine ? 10 : 0).split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            let names = rules.isEmpty ? ["all"] : rules
            if isNextLine { nextLine[index + 2, default: []].formUnion(names) } else { wholeFile.formUnion(names) }
        }
    }

    func suppresses(_ finding: AccessibilityFinding) -> Bool {
        if wholeFile.contains(finding.ruleID) || wholeFile.contains("all") { return true }
        let rules = nextLine[finding.location.line] ?? []
        return rules.contains(finding.ruleID) || rules.contains("all")
    }
}
