import PrePushAccessibility
import PrePushCore

/// How a repository tags its controls, measured over its Swift files (`IdentifierCensus` per file):
/// the share of interactive controls with an identifier in each folder, the identifiers its views
/// set, and which UI tests query by identifier. The identifier rules encode a team's policy; this is
/// where the policy is read from.
struct IdentifierPractice {
    /// A folder and the controls under it.
    struct Scope: Equatable {
        /// Repository-relative, `""` for the root.
        let folder: String
        let controls: Int
        let tagged: Int

        /// The share of its controls that have an identifier (`tagged` never exceeds `controls`; capped
        /// at 1 all the same).
        var share: Double { controls == 0 ? 0 : min(1, Double(tagged) / Double(controls)) }
        /// `App/Features` or `the repository`.
        var name: String { folder.isEmpty ? "the repository" : folder }
    }

    /// Where identifiers are the practice: at least this share of a scope's controls have one.
    static let taggedShare = 0.75
    /// A folder with fewer controls under it says too little: its parent's share decides.
    static let scopeControls = 8

    /// Controls and identifiers under each folder (every ancestor of every view file, `""` included).
    private(set) var folders: [String: (controls: Int, tagged: Int)] = [:]
    /// The identifiers the views set, literals and resolved names.
    private(set) var identifiers: [String] = []
    /// UI test files and how many of their element queries name an identifier.
    private(set) var uiTests: [(path: String, identifierQueries: Int)] = []

    /// Adds up the censuses of view files and UI tests; `resolve` gives a named identifier's text.
    init(views: [(path: String, census: IdentifierCensus)], uiTests tests: [(path: String, census: IdentifierCensus)],
         resolve: (String) -> String?) {
        var names: Set<String> = []
        // Per folder first, then up to every ancestor: a few hundred folders, not a walk per file.
        var direct: [Substring: (controls: Int, tagged: Int)] = [:]
        for (path, census) in views where census.controls > 0 || census.tagged > 0 {
            let folder = path.lastIndex(of: "/").map { path[..<$0] } ?? ""
            direct[folder, default: (0, 0)].controls += census.controls
            direct[folder, default: (0, 0)].tagged += census.tagged
        }
        folders[""] = (0, 0)
        for (start, counts) in direct {
            var folder = start
            while true {
                folders[String(folder), default: (0, 0)].controls += counts.controls
                folders[String(folder), default: (0, 0)].tagged += counts.tagged
                guard !folder.isEmpty else { break }
                folder = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
            }
        }
        for (_, census) in views {
            identifiers += census.identifiers
            for name in census.identifierNames {
                names.insert(String(name.split(separator: ".").last ?? ""))
                if let text = resolve(name) { identifiers.append(text) }
            }
        }
        let known = Set(identifiers).union(names)
        for (path, census) in tests {
            let queries = census.explicitIdentifierQueries + census.subscriptQueries.filter { known.contains($0) }.count
            uiTests.append((path, queries))
        }
    }

    /// The scope a file's practice is read from: its nearest folder with enough controls under it,
    /// else the repository.
    func scope(of path: String) -> Scope {
        var folder = Substring(path)
        repeat {
            folder = folder.lastIndex(of: "/").map { folder[..<$0] } ?? ""
            if let counts = folders[String(folder)], counts.controls >= Self.scopeControls || folder.isEmpty {
                return Scope(folder: String(folder), controls: counts.controls, tagged: counts.tagged)
            }
        } while !folder.isEmpty
        return Scope(folder: "", controls: 0, tagged: 0)
    }

    /// Whether any view sets an identifier (on a control, or by name or literal on anything).
    var hasIdentifiers: Bool { (folders[""]?.tagged ?? 0) > 0 || !identifiers.isEmpty }

    /// The UI tests that query by identifier, most queries first.
    var identifierQueryFiles: [(path: String, identifierQueries: Int)] {
        uiTests.filter { $0.identifierQueries > 0 }.sorted { ($1.identifierQueries, $0.path) < ($0.identifierQueries, $1.path) }
    }

    /// What the UI tests show, for a note: `its UI tests query 12 identifiers (UITests/RoomUITests.swift)`.
    var testEvidence: String {
        let querying = identifierQueryFiles
        if !querying.isEmpty {
            let count = querying.reduce(0) { $0 + $1.identifierQueries }
            let files = querying.prefix(3).map(\.path).joined(separator: ", ") + (querying.count > 3 ? ", …" : "")
            return "its UI tests query \(TextFormatting.count(count, "identifier")) (\(files))"
        }
        if let first = uiTests.first {
            return "its UI tests (\(first.path)\(uiTests.count > 1 ? ", …" : "")) query no identifier a view sets"
        }
        return "it has no UI tests"
    }

    /// The scheme identifier-convention holds identifiers to when no pattern is configured: nil for
    /// prepush's `{scope}_{type}_{name}` (a repository with fewer than 3 identifiers, or whose
    /// identifiers mostly follow it), `.mixed` when they follow no single scheme.
    var convention: Convention {
        // One or two identifiers show no convention of the team's (LLMonFHIR's only one is
        // `llmSourcePicker`): those off prepush's are not held to it.
        guard identifiers.count >= 3 else {
            return identifiers.allSatisfy(IdentifierConventionRule.followsDefaultConvention) ? .prepush : .tooFew(count: identifiers.count)
        }
        let following = identifiers.filter(IdentifierConventionRule.followsDefaultConvention).count
        if Double(following) >= IdentifierScheme.dominantShare * Double(identifiers.count) { return .prepush }
        if let scheme = IdentifierScheme.infer(from: identifiers) { return .inferred(scheme) }
        return .mixed(count: identifiers.count)
    }

    /// Whether the identifiers that name a type word (`typeWords`: button, field, toggle…) mostly end
    /// with it (`side_menu_logout_button`) rather than give it second (`side_button_logout`): the team
    /// writes `{scope}_{name}_{type}`, and its type word is read from the end. Needs 3 such identifiers.
    func typeWordLast(typeWords: Set<String>) -> Bool {
        var second = 0, last = 0
        for identifier in identifiers {
            let parts = identifier.split(separator: "_")
            guard parts.count >= 2 else { continue }
            if typeWords.contains(String(parts[parts.count - 1])) { last += 1 }
            if parts.count >= 3, typeWords.contains(String(parts[1])) { second += 1 }
        }
        return last >= 3 && last > second
    }

    /// What identifier-convention holds identifiers to.
    enum Convention: Equatable {
        /// `{scope}_{type}_{name}`.
        case prepush
        /// The repository's own scheme.
        case inferred(IdentifierScheme)
        /// No scheme: the repository's identifiers are written in several ways.
        case mixed(count: Int)
        /// No scheme: the repository sets one or two identifiers, not all in prepush's convention.
        case tooFew(count: Int)
    }
}
