#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore
import PrePushGit

/// The accessibility check as a step: which files, which rules, and what a push touched.
struct AccessibilityStep: Sendable {
    /// View files checked when the configuration names none.
    static let defaultInclude = ["**/*View.swift", "**/Views/**/*.swift"]

    /// Every rule id, in the order the rules run.
    static let ruleIDs = AccessibilityChecker.rules.map { $0.description.identifier }

    let checker: AccessibilityChecker
    let include: [Glob]
    let exclude: [Glob]

    /// The step from the `accessibility:` section; unknown rules and bad patterns are
    /// configuration errors with their place in the file.
    init(_ section: FileAccessibility?, configurationFile: String? = nil) throws(ConfigurationError) {
        // The file is read again only to quote the offending line under an error.
        func sourceLine(_ line: Int) -> String? {
            guard let configurationFile, let data = FileManager.default.contents(atPath: configurationFile),
                  let text = String(validating: data, as: UTF8.self) else { return nil }
            return Diagnostic.line(line, of: text)
        }
        var severities: [String: Severity?] = [:]
        let known = Set(Self.ruleIDs)
        for rule in section?.rules ?? [] {
            guard known.contains(rule.value.name) else {
                throw .unknownKey(rule.location, key: rule.value.name, parent: "accessibility.rules",
                                  suggestion: nil, sourceLine: sourceLine(rule.location.line))
            }
            severities[rule.value.name] = rule.value.value == "off" ? Optional<Severity>.none : (rule.value.value == "warning" ? .warning : .error)
        }
        var settings = AccessibilitySettings(extraControls: section?.controls.map(\.value) ?? [], severities: severities)
        if let pattern = section?.identifierPattern {
            guard (try? Regex(pattern.value)) != nil else {
                throw .invalidValue(.file(pattern.location), setting: "accessibility.identifierPattern", value: pattern.value,
                                    problem: .empty(expected: "a valid regular expression"), sourceLine: sourceLine(pattern.location.line))
            }
            settings.pattern = pattern.value
        }
        checker = AccessibilityChecker(settings: settings)
        let includes = section?.include.map(\.value) ?? []
        include = (includes.isEmpty ? Self.defaultInclude : includes).map(Glob.init)
        exclude = (section?.exclude ?? []).map { Glob($0.value) }
    }

    /// Whether the check looks at a file (a relative path).
    func selects(_ path: String) -> Bool {
        path.hasSuffix(".swift") && include.contains { $0.matches(path) } && !exclude.contains { $0.matches(path) }
    }

    /// Findings in the files a range changed, as pushed; only those whose node touches an added
    /// line or a removal point unless `allLines`. Files that are not UTF-8 are named in `notes`.
    func check(_ range: PushRange, in repository: Repository, allLines: Bool) -> (findings: [AccessibilityFinding], notes: [String]) {
        var findings: [AccessibilityFinding] = []
        var notes: [String] = []
        for file in range.files where selects(file.path) {
            guard let bytes = try? repository.contents(of: file.path, at: range.head) else { continue }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                notes.append("\(file.path): not UTF-8 text; not checked")
                continue
            }
            findings += checker.check(path: file.path, text: text).filter { allLines || file.touches($0.lines.lowerBound, $0.lines.upperBound) }
        }
        return (findings, notes)
    }

    /// `path:line:col: error: message [rule]`, as compilers and editors read it.
    static func line(_ finding: AccessibilityFinding) -> String {
        WorkflowCommand.singleLine("\(finding.location): \(finding.severity.rawValue): \(finding.message) [\(finding.ruleID)]")
    }

    /// A GitHub Actions workflow command for a finding.
    static func annotation(_ finding: AccessibilityFinding) -> String {
        let level = finding.severity == .error ? "error" : "warning"
        return WorkflowCommand.line(level, properties: [("file", finding.location.file), ("line", String(finding.location.line)),
                                                        ("col", String(finding.location.column)), ("title", finding.ruleID)],
                                    message: finding.message)
    }
}
