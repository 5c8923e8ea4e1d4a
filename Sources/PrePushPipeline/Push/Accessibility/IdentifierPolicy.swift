import PrePushAccessibility
import PrePushConfig
import PrePushCore

/// Whether the identifier rules apply, and to what. They encode a team's policy, so they follow the
/// repository's practice (`IdentifierPractice`, measured as it was before the push):
///
/// - `missing-identifier` reports a control where the team tags its controls: in a folder where at
///   least 75% of the controls have an identifier, or in a view type whose other controls mostly do
///   (`SiblingControls.isTaggedScreen`). Elsewhere its findings are counted in a note.
/// - `identifier-convention` holds identifiers to the scheme the repository's own identifiers follow
///   (`{scope}_{type}_{name}` when they follow it or there are fewer than 3), and says nothing where
///   they follow no single scheme.
///
/// Naming a rule under `accessibility.rules` (any severity, `off` included) decides for that rule
/// everywhere; `identifierPattern` decides the convention. The practice is measured once per run,
/// and only when a finding or an identifier needs it.
final class IdentifierPolicy: @unchecked Sendable {
    /// The rules this policy governs.
    static let rules: Set<String> = ["missing-identifier", "identifier-convention"]

    let root: String?
    /// The governed rules the configuration names: those are never turned off here.
    let configured: Set<String>
    /// Whether `identifierPattern` is configured: then no scheme is inferred.
    let patternConfigured: Bool
    /// The pushed files as they were before the push (nil: the push adds the file): the practice is
    /// the team's before this push, so a push cannot set the bar it is judged by.
    private var pushed: [String: (() -> [UInt8]?)?] = [:]
    private var measured: IdentifierPractice?
    private var inferred: IdentifierPractice.Convention?
    private var adapted: AccessibilityChecker?
    /// Findings left out, counted for the notes: where the repository tags nothing, per partial
    /// scope, and convention findings where there is no scheme.
    private var untaggedRepository = 0
    private var partial: [String: (scope: IdentifierPractice.Scope, count: Int)] = [:]
    private var unschemed = 0
    private var schemeUsed: IdentifierScheme?
    /// Whether identifier-convention reads the type word last, as the repository's identifiers put it,
    /// and whether a finding it kept was read so (the note is for a run that reports one).
    private var readsTypeWordLast = false
    private var typeWordLastUsed = false

    init(root: String?, settings: AccessibilityConfiguration) {
        self.root = root
        configured = Set(settings.severities.keys).intersection(Self.rules)
        patternConfigured = settings.identifierPattern != nil
    }

    /// The practice's convention, inferred once per run: `apply` runs for each checked file's
    /// findings, and inferring the scheme from every identifier each time was 10% of `init`'s CPU
    /// in element-x (release, perf).
    func convention(_ step: AccessibilityStep) -> IdentifierPractice.Convention {
        if let inferred { return inferred }
        let made = practice(step).convention
        inferred = made
        return made
    }

    /// Adds a pushed file: `earlier` reads it as it was before the push, nil when the push adds it.
    func consider(pushed path: String, earlier: (() -> [UInt8]?)?) {
        guard measured == nil else { return }
        pushed[path] = earlier
    }

    /// The repository's practice, measured on first use: every Swift file of the working tree outside
    /// build and vendored folders (from the repository index), pushed files as they were before the push.
    func practice(_ step: AccessibilityStep) -> IdentifierPractice {
        if let measured { return measured }
        let controls = step.checker.settings.controls
        let files = step.repositoryIndex.files(maxFileSize: step.maxFileSize, controls: controls)
        let practice = Self.measure(files: files, pushed: pushed, controls: controls, isView: { !step.isExcluded($0) }) {
            step.repositoryIndex.all(excluding: step)
        }
        measured = practice
        pushed = [:]
        return practice
    }

    /// The practice of `files` (each with its facts), each of `pushed` read with its reader instead
    /// (skipped without one); `constants` are asked for only when a view names an identifier.
    static func measure(files: [(path: String, facts: RepositoryIndex.Facts)], pushed: [String: (() -> [UInt8]?)?] = [:],
                        controls: Set<String>, isView: (String) -> Bool, constants: () -> ConstantLookup) -> IdentifierPractice {
        var views: [(String, IdentifierCensus)] = []
        var tests: [(String, IdentifierCensus)] = []
        let vocabulary = pushed.isEmpty ? nil : IdentifierCensus.Vocabulary(controls: controls)
        func add(_ path: String, _ census: IdentifierCensus) {
            if census.isUITest { tests.append((path, census)) } else if isView(path) { views.append((path, census)) }
        }
        func earlier(_ read: (() -> [UInt8]?)?) -> IdentifierCensus? {
            guard let bytes = read?(), let vocabulary else { return nil }
            return IdentifierCensus(bytes: bytes, vocabulary: vocabulary)
        }
        var seen: Set<String> = []
        for (path, facts) in files {
            seen.insert(path)
            if let before = pushed[path] {
                if let census = earlier(before) { add(path, census) }
            } else {
                add(path, facts.census)
            }
        }
        // Renamed and deleted files: their earlier text still shows the practice.
        for (path, before) in pushed.sorted(by: { $0.key < $1.key }) where !seen.contains(path) {
            if let census = earlier(before) { add(path, census) }
        }
        let lookup = views.contains { !$0.1.identifierNames.isEmpty } ? constants() : ConstantLookup()
        return IdentifierPractice(views: views, uiTests: tests) { ConstantLookup.text(of: $0, in: [lookup]) }
    }

    /// Whether a folder of `path` holds built or vendored code (`.build`, `Pods`, …).
    static func isVendored(_ path: String) -> Bool {
        var start = path.startIndex
        while let slash = path[start...].firstIndex(of: "/") {
            if AccessibilityStep.vendoredFolders.contains(path[start..<slash]) { return true }
            start = path.index(after: slash)
        }
        return false
    }

    /// The checker for a file: the step's, with the repository's scheme for identifier-convention
    /// when the file sets identifiers and no pattern is configured.
    func checker(for text: String, step: AccessibilityStep) -> AccessibilityChecker {
        guard !patternConfigured, step.checker.settings.severity(of: IdentifierConventionRule.description) != nil,
              ByteSearch.contains(Array(text.utf8), Self.identifierMark) else { return step.checker }
        if let adapted { return adapted }
        var checker = step.checker
        var settings = step.checker.settings
        switch convention(step) {
        case .inferred(let scheme):
            settings.scheme = scheme
            checker = AccessibilityChecker(settings: settings)
        case .prepush where settings.pattern == AccessibilitySettings.defaultPattern
            && practice(step).typeWordLast(typeWords: Set(settings.typeWords.values.joined())):
            settings.typeWordLast = true
            readsTypeWordLast = true
            checker = AccessibilityChecker(settings: settings)
        case .prepush, .mixed, .tooFew: break
        }
        adapted = checker
        return checker
    }

    static let identifierMark = Array("accessibilityIdentifier".utf8)

    /// The findings the practice keeps: those of rules it does not govern, of configured rules, and
    /// of governed rules where the repository shows the practice.
    func apply(_ findings: [AccessibilityFinding], step: AccessibilityStep) -> [AccessibilityFinding] {
        guard findings.contains(where: { Self.rules.contains($0.ruleID) && !configured.contains($0.ruleID) }) else { return findings }
        let practice = practice(step)
        let convention = self.convention(step)
        var kept: [AccessibilityFinding] = []
        for finding in findings {
            guard Self.rules.contains(finding.ruleID), !configured.contains(finding.ruleID) else {
                kept.append(finding)
                continue
            }
            if finding.ruleID == IdentifierConventionRule.description.identifier {
                // A pattern the team names is its convention, whatever its identifiers show.
                if patternConfigured {
                    kept.append(finding)
                    continue
                }
                switch convention {
                case .mixed, .tooFew: unschemed += 1
                case .inferred(let scheme):
                    if !patternConfigured { schemeUsed = scheme }
                    kept.append(finding)
                case .prepush:
                    if readsTypeWordLast { typeWordLastUsed = true }
                    kept.append(finding)
                }
                continue
            }
            guard practice.hasIdentifiers || !practice.identifierQueryFiles.isEmpty else {
                untaggedRepository += 1
                continue
            }
            let scope = practice.scope(of: finding.location.file)
            guard finding.siblings?.isTaggedScreen == true || scope.share >= IdentifierPractice.taggedShare else {
                partial[scope.folder, default: (scope, 0)].count += 1
                continue
            }
            kept.append(Self.worded(finding, convention))
        }
        return kept
    }

    /// A missing-identifier finding asking for the repository's own scheme.
    static func worded(_ finding: AccessibilityFinding, _ convention: IdentifierPractice.Convention) -> AccessibilityFinding {
        let suffix = " in the {scope}_{type}_{name} convention"
        guard finding.message.hasSuffix(suffix) else { return finding }
        let base = String(finding.message.dropLast(suffix.count))
        let message: String
        switch convention {
        case .prepush: return finding
        case .inferred(let scheme): message = base + " in \(scheme.phrase)"
        case .mixed, .tooFew: message = base
        }
        return finding.saying(message)
    }

    /// What was left out and why, once per run.
    var notes: [String] {
        var notes: [String] = []
        let turnOn = "to report them, set accessibility.rules: {missing-identifier: error} (docs/accessibility.md)"
        if untaggedRepository > 0, let practice = measured {
            notes.append("accessibility: \(TextFormatting.count(untaggedRepository, "missing-identifier finding")) not reported: the repository's views set no .accessibilityIdentifier and \(practice.testEvidence), so identifiers are not its practice; \(turnOn)")
        }
        if !partial.isEmpty, let practice = measured {
            let count = partial.values.reduce(0) { $0 + $1.count }
            let scopes = partial.values.sorted { $0.scope.folder < $1.scope.folder }.prefix(3).map { entry in
                "\(entry.scope.name) tags \(Int((entry.scope.share * 100).rounded(.down)))% of its controls (\(entry.scope.tagged) of \(entry.scope.controls))"
            }.joined(separator: ", ") + (partial.count > 3 ? ", …" : "")
            notes.append("accessibility: \(TextFormatting.count(count, "missing-identifier finding")) not reported: \(scopes), and the rule applies from \(Int(IdentifierPractice.taggedShare * 100))% or among mostly tagged controls of one view; \(practice.testEvidence); \(turnOn)")
        }
        if unschemed > 0, case .tooFew(let total) = measured?.convention {
            notes.append("accessibility: \(TextFormatting.count(unschemed, "identifier-convention finding")) not reported: the repository sets \(TextFormatting.count(total, "identifier")), too few to show a convention of its own; set accessibility.identifierPattern to hold them to one")
        }
        if unschemed > 0, case .mixed(let total) = measured?.convention {
            notes.append("accessibility: \(TextFormatting.count(unschemed, "identifier-convention finding")) not reported: the repository's \(total) identifiers are written in no single way (no one case and set of separators fits \(Int(IdentifierScheme.dominantShare * 100))% of them); set accessibility.identifierPattern to hold them to one")
        }
        if typeWordLastUsed {
            notes.append("accessibility: identifier-convention reads the type word last ({scope}_{name}_{type}), where most of this repository's identifiers that name one put it; set accessibility.identifierPattern to choose another")
        }
        if let schemeUsed {
            notes.append("accessibility: identifier-convention follows this repository's scheme, inferred from its identifiers: \(schemeUsed.description) (\(schemeUsed.fitting) of \(schemeUsed.total)); set accessibility.identifierPattern to choose another")
        }
        return notes
    }
}
