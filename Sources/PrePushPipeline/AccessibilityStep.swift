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

    /// Largest view file checked when the configuration names no `maxFileSize`: real views are a
    /// few KB to a few hundred; a 20 MB generated file took 8.8 s and 1.6 GB to check.
    static let defaultMaxFileSize = 1_000_000

    let checker: AccessibilityChecker
    let include: [Glob]
    let exclude: [Glob]
    /// Files bigger than this many bytes are named in a note and not checked.
    let maxFileSize: Int

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
        maxFileSize = section?.maxFileSize?.value ?? Self.defaultMaxFileSize
    }

    /// The note for a file over the size limit.
    func oversizeNote(_ path: String, bytes: Int) -> String {
        "\(path): \(FileReading.Problem.size(bytes)), over the \(FileReading.Problem.size(maxFileSize)) limit (accessibility.maxFileSize); not checked"
    }

    /// The text of a working-tree file to check, or the note that says why it is not checked.
    func text(ofFile path: String, at absolute: String) -> Result<String, NoteText> {
        switch FileReading.read(absolute, limit: maxFileSize) {
        case .success(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else { return .failure(NoteText("\(path): not UTF-8 text; not checked")) }
            return .success(text)
        case .failure(.tooLarge(let bytes, _)):
            return .failure(NoteText(oversizeNote(path, bytes: bytes)))
        case .failure(let problem):
            return .failure(NoteText("\(path) \(problem); not checked"))
        }
    }

    /// A note as an error value.
    struct NoteText: Error {
        let text: String
        init(_ text: String) { self.text = text }
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
            guard bytes.count <= maxFileSize else {
                notes.append(oversizeNote(file.path, bytes: bytes.count))
                continue
            }
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
