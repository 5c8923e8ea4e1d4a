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
    /// Files never looked at when the configuration names no `include`: tests, and code that is
    /// built or vendored rather than written by the team.
    static let defaultExclude = ["**/Tests/**", "**/*Tests/**", "**/*Tests.swift", "**/.build/**", "**/Pods/**",
                                 "**/Carthage/**", "**/DerivedData/**", "**/SourcePackages/**"]
    /// The folders of `defaultExclude`, matched on path components (what those globs say, without
    /// running eight globs over every file of a tree).
    static let excludedFolders: Set<Substring> = vendoredFolders.union(["Tests"])
    /// Folders of code that is built or vendored rather than written by the team.
    static let vendoredFolders: Set<Substring> = [".build", "Pods", "Carthage", "DerivedData", "SourcePackages"]

    /// Whether `defaultExclude` excludes `path`.
    static func isExcludedByDefault(_ path: String) -> Bool {
        // Component by component without an array of them: it runs for every file of a repository scan.
        var start = path.startIndex
        while let slash = path[start...].firstIndex(of: "/") {
            let folder = path[start..<slash]
            if excludedFolders.contains(folder) || folder.hasSuffix("Tests") { return true }
            start = path.index(after: slash)
        }
        return path[start...].hasSuffix("Tests.swift")
    }

    /// Every rule id, in the order the rules run.
    static let ruleIDs = AccessibilityChecker.rules.map { $0.description.identifier }

    let checker: AccessibilityChecker
    /// The configured `include` globs; empty: every Swift file that is SwiftUI code.
    let include: [Glob]
    let exclude: [Glob]
    /// Whether `defaultExclude` applies (no `include` configured).
    let excludesDefaults: Bool
    /// Files bigger than this many bytes are named in a note and not checked.
    let maxFileSize: Int
    /// The repository's string constants and identifier censuses, gathered the first time a
    /// checked file needs them.
    let repositoryIndex: RepositoryIndex
    /// Findings recorded by `--write-baseline`, not reported again; empty without `accessibility.baseline`.
    let baseline: AccessibilityBaseline
    /// Where the baseline was read from (as configured), for messages.
    let baselinePath: String?
    /// Whether the identifier rules apply to this repository.
    let identifiers: IdentifierPolicy

    /// The step from the configuration's resolved accessibility settings; here the baseline is read,
    /// and one that is not a baseline is a configuration error quoting the file as it was read.
    init(_ configuration: ResolvedConfiguration, root: String? = nil) throws(ConfigurationError) {
        let resolved = configuration.accessibility
        var settings = AccessibilitySettings(extraControls: resolved.controls, severities: resolved.severities)
        if let pattern = resolved.identifierPattern { settings.pattern = pattern }
        settings.checkPreviews = resolved.checkPreviews
        settings.checkDebugCode = resolved.checkDebugCode
        settings.iconViews = resolved.iconViews
        settings.textEntryViews.formUnion(resolved.textEntryViews)
        checker = AccessibilityChecker(settings: settings)
        include = resolved.include.map(Glob.init)
        exclude = resolved.exclude.map(Glob.init)
        excludesDefaults = include.isEmpty
        maxFileSize = resolved.maxFileSize
        repositoryIndex = RepositoryIndex(root: root)
        identifiers = IdentifierPolicy(root: root, settings: resolved)
        baselinePath = resolved.baseline?.configured
        guard let configured = resolved.baseline else {
            baseline = AccessibilityBaseline()
            return
        }
        let problem: ValueProblem
        switch FileReading.read(configured.path, limit: 50_000_000) {
        case .success(let bytes):
            do throws(AccessibilityBaseline.ReadError) {
                baseline = try AccessibilityBaseline.decode(bytes, name: configured.configured)
                return
            } catch {
                problem = .fileProblem("is not an accessibility baseline (\(error.reason)); write it again with prepush a11y --all --write-baseline \(configured.configured)")
            }
        case .failure(let read):
            problem = .fileProblem(read == .missing ? "does not exist; write it with prepush a11y --all --write-baseline \(configured.configured)" : "\(read)")
        }
        throw .invalidValue(.file(configured.location), setting: "accessibility.baseline", value: configured.configured,
                            problem: problem, sourceLine: configured.sourceLine)
    }

    /// The findings in one file's text; identifiers that name constants of other files are resolved
    /// through the repository's constants, scanned once and only when a file passes one.
    func checkFile(path: String, text: String) -> [AccessibilityFinding] {
        identifiers.apply(rawFindings(path: path, text: text), step: self)
    }

    /// The findings in one file's text before the identifier policy is applied (a push applies it to
    /// the findings its lines touch, so that its note counts those).
    func rawFindings(path: String, text: String) -> [AccessibilityFinding] {
        let checker = identifiers.checker(for: text, step: self)
        let lookup = ConstantIndex.usesIdentifierConstants(text) ? repositoryIndex.all(excluding: self) : ConstantLookup()
        // The repository's view components can only take back findings (an image given to another
        // file's control, a widget's font, a screen only a debug menu opens), so a push parses every
        // view file for them only when the file alone gives one (the first time; the store keeps
        // them after).
        var findings = checker.check(path: path, text: text, lookup: lookup, views: repositoryIndex.knownViews ?? ViewIndex())
        if repositoryIndex.knownViews == nil, findings.contains(where: { $0.ruleID != UITestIdentifierRule.description.identifier }) {
            findings = checker.check(path: path, text: text, lookup: lookup, views: repositoryIndex.views(excluding: self))
        }
        // A UI test's queries are checked against every view of the repository
        // (`UITestIdentifierCheck`), never against one file's.
        return findings.filter { $0.ruleID != UITestIdentifierRule.description.identifier }
    }

    /// Gathers what the rules of many files share (the repository's constants, the identifier
    /// practice and the checker it adapts), so that files can then be checked side by side: after
    /// this, checking a file only reads shared state.
    func prepareSharedState() {
        _ = repositoryIndex.all(excluding: self)
        _ = repositoryIndex.views(excluding: self)
        _ = identifiers.practice(self)
        _ = identifiers.checker(for: "accessibilityIdentifier", step: self)
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

    /// Whether the check may look at a file, by its relative path alone: a Swift file not excluded,
    /// and matching `include` when the configuration has one. Without `include`, its text decides
    /// (`selection(of:text:)`): views live under every name (`JoinRoomScreen.swift`, `SettingsTab.swift`).
    func selects(_ path: String) -> Bool {
        path.hasSuffix(".swift") && !isExcluded(path) && (include.isEmpty || include.contains { $0.matches(path) })
    }

    /// Excluded by `accessibility.exclude`, or by default (tests, build and vendored folders).
    func isExcluded(_ path: String) -> Bool {
        (excludesDefaults && Self.isExcludedByDefault(path)) || exclude.contains { $0.matches(path) }
    }

    /// Whether a file is checked, and why, from its path and text.
    func selection(of path: String, text: String) -> (checked: Bool, reason: String) {
        guard path.hasSuffix(".swift") else { return (false, "not a Swift file") }
        if isExcluded(path) {
            return (false, include.isEmpty ? "excluded (accessibility.exclude, or a test, build or vendored folder)" : "excluded by accessibility.exclude")
        }
        if !include.isEmpty {
            return include.contains { $0.matches(path) } ? (true, "matches accessibility.include") : (false, "does not match accessibility.include")
        }
        if let why = Self.swiftUIEvidence(text) { return (true, why) }
        return (false, "no view code (no View, ViewModifier or style conformance, no some View)")
    }

    /// The SwiftUI protocols whose conformance makes a file view code.
    static let viewProtocols: Set<String> = [
        "View", "ViewModifier", "ButtonStyle", "PrimitiveButtonStyle", "LabelStyle", "ToggleStyle", "MenuStyle",
        "TextFieldStyle", "GroupBoxStyle", "DisclosureGroupStyle", "ProgressViewStyle", "GaugeStyle", "ControlGroupStyle",
        "LabeledContentStyle", "FormStyle", "NavigationSplitViewStyle", "TableStyle", "ListStyle", "PickerStyle",
    ]

    /// Why `text` is view code, or nil: it declares a type conforming to `View`, `ViewModifier` or a
    /// style (`ButtonStyle`, `LabelStyle`, …), extends `View`, or has a `some View` property or
    /// function. Importing SwiftUI is not enough: model files import it for `Color` or
    /// `@Observable` and hold no view. A text scan, not a parse: it runs on every changed Swift file.
    static func swiftUIEvidence(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        if let name = conformance(in: bytes) { return "declares a \(name)" }
        if ByteSearch.contains(bytes, Array("extension View".utf8)) { return "extends View" }
        if ByteSearch.contains(bytes, Array("some View".utf8)) { return "has a some View property or function" }
        return nil
    }

    /// The first view protocol named after `:` or `,` in a declaration's inheritance list.
    static func conformance(in bytes: [UInt8]) -> String? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",") else { continue }
            var start = index
            while start < bytes.count, bytes[start] == UInt8(ascii: " ") { start += 1 }
            // `SwiftUI.View` names the same protocol.
            if bytes[start...].starts(with: "SwiftUI.".utf8) { start += 8 }
            var end = start
            while end < bytes.count, isIdentifier(bytes[end]) { end += 1 }
            guard end > start, end - start <= 26, end == bytes.count || !isIdentifier(bytes[end]) else { continue }
            let name = String(decoding: bytes[start..<end], as: UTF8.self)
            // `: View` in a declaration, not a parameter's type: the next thing is `{`, `,` or `where`.
            var next = end
            while next < bytes.count, bytes[next] == UInt8(ascii: " ") { next += 1 }
            let followed = next < bytes.count && (bytes[next] == UInt8(ascii: "{") || bytes[next] == UInt8(ascii: ",")
                                                  || bytes[next...].starts(with: "where".utf8))
            if followed, viewProtocols.contains(name) { return name }
        }
        return nil
    }

    private static func isIdentifier(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
    }

    /// What a check found: the findings, notes on what was not checked, and (for
    /// `--explain-selection`) why each file was or was not checked.
    struct CheckResult {
        var findings: [AccessibilityFinding] = []
        var notes: [String] = []
        var explanations: [String] = []
    }

    /// Findings in the files a range changed, as pushed; only those whose node touches an added
    /// line or a removal point unless `allLines`. The baseline is matched against every finding
    /// of a file, the untouched ones first, so that a new finding whose line reads like an old one
    /// is still new. Files that are not UTF-8 are named in `notes`.
    func check(_ range: PushRange, in repository: Repository, allLines: Bool, explain: Bool = false,
               applyBaseline: Bool = true) -> CheckResult {
        var result = CheckResult()
        for file in range.files where file.path.hasSuffix(".swift") {
            guard let base = range.base, file.change != .added else {
                identifiers.consider(pushed: file.path, earlier: nil)
                continue
            }
            let path = file.oldPath ?? file.path
            if path != file.path { identifiers.consider(pushed: file.path, earlier: nil) }
            identifiers.consider(pushed: path) { try? repository.contents(of: path, at: base) }
        }
        for file in range.files where file.path.hasSuffix(".swift") {
            guard selects(file.path) else {
                if explain { result.explanations.append("\(file.path): not checked: \(selection(of: file.path, text: "").reason)") }
                continue
            }
            guard let bytes = try? repository.contents(of: file.path, at: range.head) else { continue }
            guard bytes.count <= maxFileSize else {
                result.notes.append(oversizeNote(file.path, bytes: bytes.count))
                continue
            }
            guard let text = String(validating: bytes, as: UTF8.self) else {
                result.notes.append("\(file.path): not UTF-8 text; not checked")
                continue
            }
            let chosen = selection(of: file.path, text: text)
            if explain { result.explanations.append("\(file.path): \(chosen.checked ? "checked" : "not checked"): \(chosen.reason)") }
            guard chosen.checked else { continue }
            let touched: (AccessibilityFinding) -> Bool = { allLines || Self.touches(file, $0) }
            var findings = rawFindings(path: file.path, text: text)
            // Findings the team recorded in its baseline are old news.
            if applyBaseline { findings = baseline.newFindings(findings, touched: touched) }
            result.findings += identifiers.apply(findings.filter(touched), step: self)
        }
        // Identifiers the range's views stop setting that a UI test queries: wherever the test is.
        result.findings += UITestIdentifierCheck(step: self).removals(range, in: repository)
        return result
    }

    /// Whether a push's change to `file` touches the node a finding is about: its lines, without
    /// the inside of a control's action closure (an edit there changes what the button does).
    static func touches(_ file: ChangedFile, _ finding: AccessibilityFinding) -> Bool {
        let span = finding.lines
        guard let ignored = finding.ignoredLines else { return file.touches(span.lowerBound, span.upperBound) }
        return (span.lowerBound < ignored.lowerBound && file.touches(span.lowerBound, ignored.lowerBound - 1))
            || (ignored.upperBound < span.upperBound && file.touches(ignored.upperBound + 1, span.upperBound))
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
