internal import SwiftSyntax

/// The Apple platforms code is compiled for, read from the `#if os(…)` clauses around it: a
/// `#if os(tvOS)` member is never on an iPhone, and a `#if os(iOS)` and a `#if os(tvOS)` member never
/// exist in one build (Yattee's settings screen sets one identifier in each).
enum CompiledPlatforms {
    static let all: Set<String> = ["iOS", "macOS", "tvOS", "watchOS", "visionOS"]
    /// Platforms with neither touch nor Dynamic Type (tvOS's focus engine, macOS's pointer).
    static let withoutTouchOrDynamicType: Set<String> = ["tvOS", "macOS"]

    /// The platforms a condition made only of `os(…)` tests joined by `||` names; nil for any other
    /// condition (`DEBUG`, `!os(iOS)`, `canImport(UIKit)`, `&&`).
    static func named(by condition: ExprSyntax) -> Set<String>? {
        var names: Set<String> = []
        let expected = ["os", "(", "name", ")"]
        var position = 0
        for token in condition.tokens(viewMode: .sourceAccurate) {
            let text = token.text
            if position == expected.count {
                guard text == "||" else { return nil }
                position = 0
                continue
            }
            switch expected[position] {
            case "name": names.insert(text)
            default: guard text == expected[position] else { return nil }
            }
            position += 1
        }
        return position == 4 && !names.isEmpty ? names : nil
    }

    /// The platforms one clause's code is compiled for: its own condition's, or for `#else` every
    /// platform the clauses before it did not name (when each of them names platforms); all otherwise.
    static func of(_ clause: IfConfigClauseSyntax) -> Set<String> {
        if let condition = clause.condition { return named(by: condition) ?? all }
        guard let list = clause.parent?.as(IfConfigClauseListSyntax.self) else { return all }
        var earlier: Set<String> = []
        for other in list where other.id != clause.id {
            guard let condition = other.condition, let names = named(by: condition) else { return all }
            earlier.formUnion(names)
        }
        return all.subtracting(earlier)
    }

    /// The platforms code at `node` is compiled for: what every `#if` clause around it allows.
    static func of(_ node: Syntax) -> Set<String> {
        var platforms = all
        var child = node
        while let parent = child.parent {
            if let clause = parent.as(IfConfigClauseSyntax.self) { platforms.formIntersection(of(clause)) }
            child = parent
        }
        return platforms
    }
}
