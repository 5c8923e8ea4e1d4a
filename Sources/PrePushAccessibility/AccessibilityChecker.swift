import PrePushCore

/// Runs every rule over a file, honouring `// prepush:disable RULE` (the whole file) and
/// `// prepush:disable-next-line RULE` comments.
package struct AccessibilityChecker: Sendable {
    /// Every rule, in the order findings are reported.
    package static let rules: [any AccessibilityRule.Type] = [
        MissingIdentifierRule.self, IdentifierConventionRule.self, DuplicateIdentifierRule.self, UITestIdentifierRule.self,
        IconButtonMissingLabelRule.self, ImageMissingLabelRule.self, TapGestureMissingTraitRule.self,
        FixedFontSizeRule.self, SmallTouchTargetRule.self,
    ]

    /// Rules about Dynamic Type and touch, which code only tvOS or macOS compiles is not subject to.
    package static let touchAndTypeRules: Set<String> = [FixedFontSizeRule.description.identifier, SmallTouchTargetRule.description.identifier]

    /// The settings the rules run with.
    package let settings: AccessibilitySettings
    /// The rules, made once for every file checked (a rule may prepare its settings, a pattern).
    let instances: [any AccessibilityRule]

    /// Creates a checker.
    package init(settings: AccessibilitySettings = AccessibilitySettings()) {
        self.settings = settings
        instances = Self.rules.map { $0.init(settings: settings) }
    }

    /// The findings of every rule in one file, suppressions applied, in file order; `constants` are
    /// string constants of other files (`ConstantIndex`) that identifiers may name.
    package func check(path: String, text: String, constants: ConstantTable) -> [AccessibilityFinding] {
        check(path: path, text: text, lookup: ConstantLookup(constants))
    }

    /// The same with the other files' constants already indexed and the repository's view components
    /// (`ViewIndex`, resolved), both made once for a whole run.
    package func check(path: String, text: String, lookup: ConstantLookup = ConstantLookup(), views: ViewIndex = ViewIndex()) -> [AccessibilityFinding] {
        let source = ParsedSource(path: path, text: text, constants: lookup, views: views)
        let suppressions = Suppressions(bytes: source.bytes)
        var findings: [AccessibilityFinding] = []
        for rule in instances { findings += rule.findings(in: source) }
        // Code that never ships (previews, debug builds) is not reported unless the settings ask.
        // Nor is a view only ever drawn into a picture, or code under `if false`: no one reads, taps or resizes it.
        let quiet = (settings.checkPreviews ? [] : source.previewLines)
            + (settings.checkDebugCode ? [] : source.debugLines + source.developerOnlyLines) + source.renderedOnlyLines + source.deadLines
        return findings.filter { finding in
            !suppressions.suppresses(finding) && !quiet.contains { $0.contains(finding.location.line) }
                && !(Self.touchAndTypeRules.contains(finding.ruleID) && source.withoutTouchLines.contains { $0.contains(finding.location.line) })
        }
            .sorted { ($0.location.line, $0.location.column, $0.ruleID) < ($1.location.line, $1.location.column, $1.ruleID) }
    }
}

/// The suppression comments of one file.
struct Suppressions {
    var wholeFile: Set<String> = []
    var nextLine: [Int: Set<String>] = [:]
    static let marker = Array("// prepush:disable".utf8)

    /// One pass over the bytes: most files have no marker, and they cost a byte comparison each.
    init(bytes: [UInt8]) {
        let marker = Self.marker
        var line = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
            } else if byte == UInt8(ascii: "/"), bytes.count - index >= marker.count, bytes[index..<(index + marker.count)].elementsEqual(marker) {
                var end = index + marker.count
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let rest = String(decoding: bytes[(index + marker.count)..<end], as: UTF8.self)
                let isNextLine = rest.hasPrefix("-next-line")
                let rules = rest.dropFirst(isNextLine ? 10 : 0).split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\r" }).map(String.init)
                let names = rules.isEmpty ? ["all"] : rules
                if isNextLine { nextLine[line + 1, default: []].formUnion(names) } else { wholeFile.formUnion(names) }
                index = end
                continue
            }
            index += 1
        }
    }

    func suppresses(_ finding: AccessibilityFinding) -> Bool {
        if wholeFile.contains(finding.ruleID) || wholeFile.contains("all") { return true }
        let rules = nextLine[finding.location.line] ?? []
        return rules.contains(finding.ruleID) || rules.contains("all")
    }
}
