#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushAccessibility
import PrePushCore
import PrePushGit

/// `ui-test-identifier` across files. The rule's examples are one file each; here the views are the
/// repository's and the UI tests are its files that import XCTest and drive an app
/// (`IdentifierCensus.isUITest`), wherever they live. Two questions:
///
/// - a push (or a range): which identifiers its view files set before and no view sets after, and
///   which UI test queries name one of them. Those are refused at the rule's severity, whatever share
///   of the controls the repository tags (the identifier policy does not govern this rule): the test
///   will fail.
/// - the whole tree (`prepush a11y --all`): which identifiers UI tests query and no view sets.
///
/// Both run over the repository index (`RepositoryIndex`: each file's census and constants), and
/// parse only the pushed view files and, when an identifier went away, the UI tests.
struct UITestIdentifierCheck {
    let step: AccessibilityStep
    let rule: UITestIdentifierRule

    init(step: AccessibilityStep) {
        self.step = step
        rule = UITestIdentifierRule(settings: step.checker.settings)
    }

    /// Every Swift file of the working tree with its census and constants (`RepositoryIndex`).
    var facts: [(path: String, facts: RepositoryIndex.Facts)] {
        step.repositoryIndex.files(maxFileSize: step.maxFileSize, controls: step.checker.settings.controls)
    }

    /// The string constants of every Swift file, the UI tests' included: a test target may hold the
    /// identifiers' enum (the step's own lookup leaves test folders out).
    func constants(_ files: [(path: String, facts: RepositoryIndex.Facts)]) -> ConstantLookup {
        var table = ConstantTable()
        for (_, facts) in files { table.merge(facts.constants) }
        return ConstantLookup(table)
    }

    /// The identifiers set by the files of `files` other than UI tests and `skipping`, by census
    /// (literals, and names resolved through `constants`).
    func setIdentifiers(_ files: [(path: String, facts: RepositoryIndex.Facts)], skipping: Set<String>,
                                constants: ConstantLookup) -> [String] {
        var identifiers: [String] = []
        for (path, facts) in files where !facts.census.isUITest && !skipping.contains(path) {
            identifiers += facts.census.identifiers
            identifiers += facts.census.identifierNames.compactMap { ConstantLookup.text(of: $0, in: [constants]) }
            identifiers += facts.census.otherIdentifiers
            for name in facts.census.otherIdentifierNames {
                identifiers += UITestIdentifierRule.otherIdentifiers(named: name, constants: [constants])
            }
        }
        return identifiers
    }

    /// The identifiers the working tree's storyboards and xibs set (outside build and vendored
    /// folders), for the whole tree (`prepush a11y --all`; a push reads the pushed tree's:
    /// `PushedSetters`). Read only when a UI test's query is otherwise unanswered.
    private func interfaceBuilderIdentifiers() -> [String] {
        guard let root = step.repositoryIndex.root else { return [] }
        var found: [String] = []
        for path in SourceTree.files(under: root, where: { InterfaceBuilderIdentifiers.isDocument($0) && !IdentifierPolicy.isVendored($0) }) {
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: Self.documentLimit) else { continue }
            found += InterfaceBuilderIdentifiers.identifiers(in: bytes)
        }
        return found
    }

    /// The largest Interface Builder document read, in bytes (a storyboard of a hundred scenes is a few MB).
    static let documentLimit = 16_000_000

    /// Queries of the working tree's UI tests naming an identifier no view sets.
    func unset() -> [AccessibilityFinding] {
        guard rule.wholeTreeSeverity != nil, let root = step.repositoryIndex.root else { return [] }
        let files = facts
        let tests = files.filter { $0.facts.census.isUITest && !isExcludedByConfiguration($0.path) }
        guard !tests.isEmpty else { return [] }
        let constants = constants(files)
        let set = setIdentifiers(files, skipping: [], constants: constants)
        var texts: [(path: String, text: String)] = []
        for (path, _) in tests {
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: step.maxFileSize),
                  let text = String(validating: bytes, as: UTF8.self) else { continue }
            texts.append((path, text))
        }
        func unanswered(_ known: ViewIdentifiers) -> [AccessibilityFinding] {
            texts.flatMap { rule.unsetQueries(path: $0.path, text: $0.text, constants: constants, known: known) }
        }
        let findings = unanswered(ViewIdentifiers(set))
        // Storyboards and xibs are read only when a query is unanswered by the Swift code.
        guard !findings.isEmpty else { return [] }
        let documents = interfaceBuilderIdentifiers()
        return documents.isEmpty ? findings : unanswered(ViewIdentifiers(set + documents))
    }

    /// Excluded by the team's `accessibility.exclude` (the default exclusions leave tests out, and
    /// UI tests are what this reads).
    func isExcludedByConfiguration(_ path: String) -> Bool {
        step.exclude.contains { $0.matches(path) }
    }
}
