import PrePushAccessibility
import PrePushCore

/// The style of the identifiers a repository already uses, for `prepush init` to propose an
/// `identifierPattern` a team's existing identifiers pass (a PascalCase or `screen-element` team
/// must not meet dozens of convention errors on its first push).
enum IdentifierStyle: String, CaseIterable {
    /// prepush's `{scope}_{type}_{name}` (the default pattern).
    case convention = "{scope}_{type}_{name}"
    /// Lower-case words joined by `_`, not always three parts: `home_add`.
    case snake = "snake_case"
    /// Lower-case words joined by `-`: `room-send-button`.
    case kebab = "kebab-case"
    /// Words run together, each capitalised (the first maybe not), parts maybe joined by `.`: `SendButton`, `roomScreen.sendButton`.
    case camel = "PascalCase or camelCase"

    /// The pattern to propose; nil for the default.
    var pattern: String? {
        switch self {
        case .convention: return nil
        case .snake: return #"^[a-z][a-z0-9]*(_[a-z0-9]+)*$"#
        case .kebab: return #"^[a-z][a-z0-9]*(-[a-z0-9]+)*$"#
        case .camel: return #"^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$"#
        }
    }

    /// Whether `identifier` is written in this style.
    func matches(_ identifier: String) -> Bool {
        let bytes = Array(identifier.utf8)
        guard let first = bytes.first else { return false }
        let lower: (UInt8) -> Bool = { $0 >= 0x61 && $0 <= 0x7A }
        let digit: (UInt8) -> Bool = { $0 >= 0x30 && $0 <= 0x39 }
        let upper: (UInt8) -> Bool = { $0 >= 0x41 && $0 <= 0x5A }
        func words(_ separator: UInt8) -> Bool {
            lower(first) && bytes.allSatisfy { lower($0) || digit($0) || $0 == separator }
                && !identifier.contains(String(UnicodeScalar(separator)) + String(UnicodeScalar(separator))) && bytes.last != separator
        }
        switch self {
        case .convention:
            return (try? LinearRegex(AccessibilitySettings.defaultPattern))?.wholeMatch(identifier) ?? false
        case .snake:
            return words(UInt8(ascii: "_"))
        case .kebab:
            return words(UInt8(ascii: "-"))
        case .camel:
            return identifier.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                guard let head = part.utf8.first, lower(head) || upper(head) else { return false }
                return part.utf8.allSatisfy { lower($0) || upper($0) || digit($0) }
            } && bytes.contains(where: upper)
        }
    }

    /// The style most of `identifiers` are written in (the default when most follow it, or when
    /// there are none), and how many of them it fits.
    static func propose(for identifiers: [String]) -> (style: IdentifierStyle, fits: Int) {
        guard !identifiers.isEmpty else { return (.convention, 0) }
        let counted = allCases.map { style in (style, identifiers.filter(style.matches).count) }
        // The convention wins a tie: it is what the docs and the demo use.
        return counted.max { $0.1 < $1.1 || ($0.1 == $1.1 && $1.0 == .convention) } ?? (.convention, 0)
    }

    /// The string literals given to `.accessibilityIdentifier("…")` in `text`.
    static func identifiers(in text: String) -> [String] {
        var found: [String] = []
        var rest = text.utf8[...]
        let mark = ".accessibilityIdentifier(\"".utf8
        while let range = rest.firstRange(of: mark) {
            let value = rest[range.upperBound...].prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != 10 }
            if !value.isEmpty, rest[value.endIndex...].first == UInt8(ascii: "\"") { found.append(String(decoding: value, as: UTF8.self)) }
            rest = rest[range.upperBound...]
        }
        return found
    }
}
