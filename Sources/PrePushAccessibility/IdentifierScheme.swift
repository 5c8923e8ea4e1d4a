/// The shape of the identifiers a team writes, inferred from the ones it has
/// (`room-join_call`, `LoginButton`, `login.email.field`): the case of their words and the
/// separators between words. `identifier-convention` flags the outliers from it.
package struct IdentifierScheme: Sendable, Equatable {
    /// How the words of an identifier are written.
    package enum WordCase: String, Sendable, CaseIterable {
        /// `room`, `join2`.
        case lower = "lower-case words"
        /// `ROOM`.
        case upper = "upper-case words"
        /// `roomScreen`, `send` (the first letter lower-case).
        case camel = "camelCase words"
        /// `RoomScreen`, `URL`.
        case pascal = "PascalCase words"

        func fits(_ word: Substring) -> Bool {
            guard let first = word.utf8.first else { return false }
            let letters = word.utf8.allSatisfy { ConstantIndex.isIdentifier($0) && $0 != 95 }
            guard letters else { return false }
            switch self {
            case .lower: return word.utf8.allSatisfy { !($0 >= 65 && $0 <= 90) }
            case .upper: return word.utf8.allSatisfy { !($0 >= 97 && $0 <= 122) }
            case .camel: return first >= 97 && first <= 122
            case .pascal: return first >= 65 && first <= 90
            }
        }
    }

    /// The words' case.
    package let wordCase: WordCase
    /// The separators between words the team uses (`-`, `_`, `.`), in the order first seen; empty:
    /// one word (`SendButton`).
    package let separators: [Character]
    /// How many of the identifiers it was inferred from fit it, and how many there were.
    package let fitting: Int
    package let total: Int

    /// Creates a scheme.
    package init(wordCase: WordCase, separators: [Character], fitting: Int, total: Int) {
        self.wordCase = wordCase
        self.separators = separators
        self.fitting = fitting
        self.total = total
    }

    /// The share of a repository's identifiers one way of writing them must cover to be its scheme.
    package static let dominantShare = 0.7

    /// Characters that may join words.
    static let joiners: Set<Character> = ["-", "_", ".", "/", ":", " "]

    /// The words of an identifier and the separators between them; `{}` (an interpolation) is a word
    /// of any case; nil when it holds something else (an emoji, a quote).
    static func split(_ identifier: String) -> (words: [Substring], separators: Set<Character>)? {
        var words: [Substring] = []
        var separators: Set<Character> = []
        var start = identifier.startIndex
        for index in identifier.indices where joiners.contains(identifier[index]) {
            words.append(identifier[start..<index])
            separators.insert(identifier[index])
            start = identifier.index(after: index)
        }
        words.append(identifier[start...])
        guard words.allSatisfy({ !$0.isEmpty }) else { return nil }
        return (words, separators)
    }

    /// Whether `identifier` is written this way.
    package func fits(_ identifier: String) -> Bool {
        guard let (words, used) = Self.split(identifier) else { return false }
        return used.isSubset(of: separators) && words.allSatisfy { $0 == "{}" || wordCase.fits($0) }
    }

    /// The scheme most of `identifiers` follow, when at least `share` of them fit one; nil when the
    /// team writes them in no single way. A separator joins the scheme when several identifiers use
    /// it (one stray `.` makes no scheme of its own).
    package static func infer(from identifiers: [String], share: Double = dominantShare) -> IdentifierScheme? {
        guard !identifiers.isEmpty else { return nil }
        let parts = identifiers.map { split($0) }
        var best: IdentifierScheme?
        // The strict cases first (all-lower-case words fit camelCase too): a looser one is the
        // scheme only when no strict one covers the share.
        for group in [[WordCase.lower, .upper], [.pascal, .camel]] {
            for wordCase in group {
                let candidate = scheme(wordCase, identifiers: identifiers, parts: parts)
                if candidate.fitting > (best?.fitting ?? 0) { best = candidate }
            }
            if let best, Double(best.fitting) >= share * Double(identifiers.count) { return best }
        }
        return nil
    }

    /// The scheme of `wordCase` with the separators the identifiers written in it use.
    private static func scheme(_ wordCase: WordCase, identifiers: [String],
                               parts: [(words: [Substring], separators: Set<Character>)?]) -> IdentifierScheme {
        let fittingCase = parts.compactMap { $0 }.filter { $0.words.allSatisfy { $0 == "{}" || wordCase.fits($0) } }
        var uses: [Character: Int] = [:]
        var order: [Character] = []
        for part in fittingCase {
            for separator in part.separators {
                if uses[separator] == nil { order.append(separator) }
                uses[separator, default: 0] += 1
            }
        }
        let needed = max(2, Int((Double(fittingCase.count) * 0.05).rounded(.up)))
        let separators = order.filter { uses[$0]! >= needed }.sorted { uses[$0]! > uses[$1]! }
        let scheme = IdentifierScheme(wordCase: wordCase, separators: separators, fitting: 0, total: identifiers.count)
        return IdentifierScheme(wordCase: wordCase, separators: separators, fitting: identifiers.filter(scheme.fits).count, total: identifiers.count)
    }

    /// `this repository's scheme (lower-case words joined by - or _, for example login-button_submit)`.
    package var phrase: String { "this repository's scheme (\(description), for example \(example))" }

    /// `lower-case words joined by - or _`, for messages and notes.
    package var description: String {
        guard !separators.isEmpty else { return "\(wordCase.rawValue) run together" }
        let names = separators.map { $0 == " " ? "spaces" : "\($0)" }
        return "\(wordCase.rawValue) joined by \(names.joined(separator: " or "))"
    }

    /// An example of the shape (`room-join_call`): what a message shows.
    package var example: String {
        let words: [String]
        switch wordCase {
        case .lower: words = ["login", "button", "submit"]
        case .upper: words = ["LOGIN", "BUTTON", "SUBMIT"]
        case .camel: words = separators.isEmpty ? ["loginSubmitButton"] : ["loginScreen", "submitButton"]
        case .pascal: words = separators.isEmpty ? ["LoginSubmitButton"] : ["LoginScreen", "SubmitButton"]
        }
        guard !separators.isEmpty else { return words[0] }
        var text = words[0]
        for (offset, word) in words.dropFirst().prefix(separators.count == 1 ? 2 : 2).enumerated() {
            text += String(separators[min(offset, separators.count - 1)]) + word
        }
        return text
    }
}
