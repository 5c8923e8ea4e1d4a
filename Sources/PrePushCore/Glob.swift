/// A path pattern: `*` and `?` and `[…]` within one path segment (as fnmatch reads them), `**`
/// for any number of whole segments. `**/*View.swift` matches `HomeView.swift` and
/// `App/Views/HomeView.swift`.
///
/// Patterns come from `.prepush.yml`, which a pull request controls, so matching is bounded: the
/// segments are matched as a set of states (never by backtracking, which is exponential in the
/// number of `**`), and a segment's `*` by the two-pointer method, so a match costs at most
/// pattern length × path length steps.
public struct Glob: Sendable, Equatable, CustomStringConvertible {
    /// The pattern as written.
    public let pattern: String
    private let segments: [Segment]

    /// Creates a glob.
    public init(_ pattern: String) {
        self.pattern = pattern
        segments = pattern.split(separator: "/", omittingEmptySubsequences: true).map { Segment(Substring($0)) }
    }

    public var description: String { pattern }

    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }

    /// Whether a relative path (`/`-separated) matches.
    public func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map { Array($0.unicodeScalars) }
        // `active[p]`: the first p pattern segments can match the path segments read so far.
        var active = [Bool](repeating: false, count: segments.count + 1)
        active[0] = true
        closeOverEmptyMatches(&active)
        for part in parts {
            var next = [Bool](repeating: false, count: segments.count + 1)
            var any = false
            for index in segments.indices where active[index] {
                switch segments[index] {
                case .anySegments:
                    next[index] = true
                    any = true
                case .name(let tokens):
                    if Self.matchSegment(tokens, part) { next[index + 1] = true; any = true }
                }
            }
            guard any else { return false }
            closeOverEmptyMatches(&next)
            active = next
        }
        return active[segments.count]
    }

    /// `**` may match no segment: a state before it also stands after it.
    private func closeOverEmptyMatches(_ states: inout [Bool]) {
        for index in segments.indices where states[index] {
            if case .anySegments = segments[index] { states[index + 1] = true }
        }
    }

    /// One segment of the pattern.
    private enum Segment: Sendable {
        case anySegments
        case name([Token])

        init(_ text: Substring) {
            self = text == "**" ? .anySegments : .name(Token.parse(text))
        }
    }

    /// One element of a segment pattern.
    private enum Token: Sendable {
        case scalar(Unicode.Scalar)
        case anyOne
        case anyRun
        case set(negated: Bool, members: [ClosedRange<Unicode.Scalar>])

        func accepts(_ scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .scalar(let expected): return scalar == expected
            case .anyOne: return true
            case .anyRun: return false
            case .set(let negated, let members): return members.contains { $0.contains(scalar) } != negated
            }
        }

        /// fnmatch's grammar without flags: `\` escapes, `[!…]` or `[^…]` negates, `a-z` ranges,
        /// `[:alpha:]`-style classes; a `[` with no closing `]` is itself.
        static func parse(_ text: Substring) -> [Token] {
            let scalars = Array(text.unicodeScalars)
            var tokens: [Token] = []
            var index = 0
            while index < scalars.count {
                let scalar = scalars[index]
                switch scalar {
                case "*":
                    if case .anyRun? = tokens.last {} else { tokens.append(.anyRun) }
                    index += 1
                case "?":
                    tokens.append(.anyOne)
                    index += 1
                case "\\" where index + 1 < scalars.count:
                    tokens.append(.scalar(scalars[index + 1]))
                    index += 2
                case "[":
                    if let (set, end) = parseSet(scalars, from: index) {
                        tokens.append(set)
                        index = end
                    } else {
                        tokens.append(.scalar("["))
                        index += 1
                    }
                default:
                    tokens.append(.scalar(scalar))
                    index += 1
                }
            }
            return tokens
        }

        /// The set that starts at `start` (a `[`) and the index after its `]`, or nil when it never closes.
        private static func parseSet(_ scalars: [Unicode.Scalar], from start: Int) -> (Token, Int)? {
            var index = start + 1
            var negated = false
            if index < scalars.count, scalars[index] == "!" || scalars[index] == "^" {
                negated = true
                index += 1
            }
            var members: [ClosedRange<Unicode.Scalar>] = []
            var first = true
            while index < scalars.count {
                var scalar = scalars[index]
                if scalar == "]" && !first { return (.set(negated: negated, members: members), index + 1) }
                first = false
                if scalar == "[", index + 1 < scalars.count, scalars[index + 1] == ":",
                   let close = (index + 2..<scalars.count).first(where: { scalars[$0] == ":" && $0 + 1 < scalars.count && scalars[$0 + 1] == "]" }) {
                    members += characterClass(String(String.UnicodeScalarView(scalars[index + 2..<close])))
                    index = close + 2
                    continue
                }
                if scalar == "\\", index + 1 < scalars.count {
                    index += 1
                    scalar = scalars[index]
                }
                if index + 2 < scalars.count, scalars[index + 1] == "-", scalars[index + 2] != "]" {
                    let upper = scalars[index + 2]
                    if scalar <= upper { members.append(scalar...upper) }
                    index += 3
                } else {
                    members.append(scalar...scalar)
                    index += 1
                }
            }
            return nil
        }

        private static func characterClass(_ name: String) -> [ClosedRange<Unicode.Scalar>] {
            switch name {
            case "alpha": return ["a"..."z", "A"..."Z"]
            case "digit": return ["0"..."9"]
            case "alnum": return ["a"..."z", "A"..."Z", "0"..."9"]
            case "upper": return ["A"..."Z"]
            case "lower": return ["a"..."z"]
            case "space": return [" "..." ", "\t"..."\r"]
            case "xdigit": return ["0"..."9", "a"..."f", "A"..."F"]
            case "punct": return ["!"..."/", ":"..."@", "["..."`", "{"..."~"]
            default: return []
            }
        }
    }

    /// One segment against one pattern segment: at most one place to go back to (the last `*`), so
    /// the work is bounded by the product of their lengths.
    private static func matchSegment(_ tokens: [Token], _ text: [Unicode.Scalar]) -> Bool {
        var token = 0, position = 0
        var starToken = -1, starPosition = 0
        while position < text.count {
            if token < tokens.count, case .anyRun = tokens[token] {
                starToken = token
                starPosition = position
                token += 1
            } else if token < tokens.count, tokens[token].accepts(text[position]) {
                token += 1
                position += 1
            } else if starToken >= 0 {
                token = starToken + 1
                starPosition += 1
                position = starPosition
            } else {
                return false
            }
        }
        while token < tokens.count, case .anyRun = tokens[token] { token += 1 }
        return token == tokens.count
    }
}
