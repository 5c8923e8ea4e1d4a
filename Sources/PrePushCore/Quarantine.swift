/// One quarantined test: a name or pattern, and why.
public struct QuarantineEntry: Sendable, Equatable {
    /// A test identifier (`CheckoutTests.testPays`), its last part (`testPays`), or a pattern with
    /// `*` for any text (`CheckoutTests.*`).
    public let pattern: String
    /// Why it is quarantined: shown wherever the test is.
    public let reason: String

    /// Creates an entry.
    public init(pattern: String, reason: String) {
        self.pattern = pattern
        self.reason = reason
    }
}

/// The tests of `quarantine:`: they run and are reported, and never refuse a push; a P1 scenario
/// whose only test is quarantined counts as uncovered.
public struct Quarantine: Sendable, Equatable {
    public var entries: [QuarantineEntry]

    /// Creates a quarantine.
    public init(_ entries: [QuarantineEntry] = []) {
        self.entries = entries
    }

    /// Whether it holds nothing.
    public var isEmpty: Bool { entries.isEmpty }

    /// Why `identifier` is quarantined, or nil.
    public func reason(for identifier: String) -> String? {
        entries.first { Self.matches($0.pattern, identifier) }?.reason
    }

    /// Whether `pattern` names no suite and no test, only wildcards and separators (`*`, `*.*`,
    /// `*/*()`): it would quarantine every test there is.
    public static func matchesEveryTest(_ pattern: String) -> Bool {
        pattern.contains("*") && pattern.allSatisfy { "*./()".contains($0) || $0.isWhitespace }
    }

    /// The pattern names the test whole, by its last part, or through `*` wildcards; `Suite/test`
    /// and `test()` are the same as `Suite.test` and `test` (how Swift Testing and the console spell them).
    static func matches(_ pattern: String, _ identifier: String) -> Bool {
        if pattern == identifier || identifier.hasSuffix("." + pattern) { return true }
        if !pattern.contains("*") {
            let plain = { (text: String) -> String in
                let dotted = text.replacing("/", with: ".")
                return dotted.hasSuffix("()") ? String(dotted.dropLast(2)) : dotted
            }
            let (wanted, name) = (plain(pattern), plain(identifier))
            return wanted == name || name.hasSuffix("." + wanted)
        }
        guard pattern.contains("*") else { return false }
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false)
        var rest = identifier[...]
        guard let first = parts.first, rest.hasPrefix(first) else { return false }
        rest = rest.dropFirst(first.count)
        for (index, part) in parts.enumerated().dropFirst() {
            if index == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
            guard !part.isEmpty else { continue }
            guard let found = rest.firstRange(of: part) else { return false }
            rest = rest[found.upperBound...]
        }
        return true
    }
}
