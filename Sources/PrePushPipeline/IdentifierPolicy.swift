#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushAccessibility
import PrePushConfig
import PrePushCore

/// Whether the identifier rules (`missing-identifier`, `identifier-convention`) apply. They encode
/// a team's policy, so they apply where the repository shows that policy: it has UI tests
/// (`XCUIApplication` in its sources) or its views use `.accessibilityIdentifier`. Elsewhere they
/// are off, and the run says once why and how to turn them on. Naming either rule under
/// `accessibility.rules` (any severity, `off` included) decides for that rule, without a look.
///
/// The look is made once per run, and only when a finding of one of these rules needs it; it
/// stops at the first file that shows the policy.
final class IdentifierPolicy: @unchecked Sendable {
    /// The rules this policy governs.
    static let rules: Set<String> = ["missing-identifier", "identifier-convention"]

    let root: String?
    /// The governed rules the configuration names: those are never turned off here.
    let configured: Set<String>
    private var looked: String??
    /// Findings left out because the policy is absent, counted for the note.
    private(set) var leftOut = 0

    init(root: String?, section: FileAccessibility?) {
        self.root = root
        configured = Set((section?.rules ?? []).map(\.value.name)).intersection(Self.rules)
    }

    /// The versions of the pushed files before the push, read only if the look is made: a push
    /// that removes the repository's last identifier still has the policy it removes from.
    private var earlier: [(path: String, read: () -> [UInt8]?)] = []

    /// Adds a file as it was before the push to what the look reads.
    func consider(earlier path: String, _ read: @escaping () -> [UInt8]?) {
        guard looked == nil else { return }
        earlier.append((path, read))
    }

    /// Why the repository has the policy (`has UI tests (…)`), or nil when it shows none.
    func evidence() -> String? {
        if let looked { return looked }
        var found: String?
        for (path, read) in earlier {
            guard let bytes = read() else { continue }
            if let why = Self.evidence(in: bytes, path: path) { found = why + " before this push"; break }
        }
        found = found ?? root.flatMap(Self.evidence(under:))
        looked = .some(found)
        earlier = []
        return found
    }

    /// The findings without those of a governed rule the repository has no policy for.
    func apply(_ findings: [AccessibilityFinding]) -> [AccessibilityFinding] {
        let governed = findings.filter { Self.rules.contains($0.ruleID) && !configured.contains($0.ruleID) }
        guard !governed.isEmpty, evidence() == nil else { return findings }
        leftOut += governed.count
        return findings.filter { !Self.rules.contains($0.ruleID) || configured.contains($0.ruleID) }
    }

    /// The note said once when findings were left out.
    var note: String? {
        guard leftOut > 0 else { return nil }
        return "accessibility: \(TextFormatting.count(leftOut, "identifier finding")) not reported: the repository has no UI tests (no XCUIApplication) and its views use no .accessibilityIdentifier, so missing-identifier and identifier-convention are off; to check identifiers, set accessibility.rules: {missing-identifier: error, identifier-convention: error} (docs/accessibility.md)"
    }

    static let uiTestMark = Array("XCUIApplication".utf8)
    static let identifierMark = Array(".accessibilityIdentifier(".utf8)

    /// The first sign of the policy in the Swift files under `root`: a UI test anywhere, or an
    /// identifier in the team's own code (not in build output or vendored code).
    static func evidence(under root: String) -> String? {
        for path in SourceTree.files(under: root, where: { $0.hasSuffix(".swift") }) {
            guard case .success(let absolute) = RepositoryPath.fileInside(path, root: root),
                  case .success(let bytes) = FileReading.read(absolute, limit: 4_000_000) else { continue }
            if let why = evidence(in: bytes, path: path) { return why }
        }
        return nil
    }

    /// The sign of the policy in one file, if it holds one.
    static func evidence(in bytes: [UInt8], path: String) -> String? {
        if ByteSearch.contains(bytes, uiTestMark) { return "has UI tests (XCUIApplication in \(path))" }
        let vendored = path.split(separator: "/").contains { AccessibilityStep.vendoredFolders.contains($0) }
        if !vendored, ByteSearch.contains(bytes, identifierMark) { return "uses .accessibilityIdentifier (\(path))" }
        return nil
    }
}
