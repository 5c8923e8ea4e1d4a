/// A regular expression matched in time linear in the text (times the pattern's size), for the
/// patterns a repository's configuration gives (`accessibility.identifierPattern`,
/// `traceability.testNamePattern`): a pull request controls them, and a backtracking engine takes
/// minutes on `(a|a)*b` against 32 characters.
///
/// The pattern is compiled to a Thompson automaton and run as a set of states, one step per
/// character. It reads the usual syntax — literals, `.`, `[…]` and `[^…]` with ranges, `\d \w \s`
/// and their negations, `^ $`, groups `(…)`, `(?:…)`, `(?<name>…)`, alternation, and the
/// quantifiers `* + ? {n} {n,} {n,m}` (lazy forms match the same texts) — and refuses what needs
/// backtracking (back-references, look-around, atomic groups, possessive quantifiers) with a reason.
public struct LinearRegex: Sendable {
    /// The pattern as written.
    public let pattern: String
    private let program: [Instruction]

    /// Why a pattern was refused.
    public struct SyntaxError: Error, Sendable, CustomStringConvertible {
        /// What is wrong, and where (1-based character offset).
        public let description: String
    }

    /// Largest automaton built: `{n,m}` copies its operand, and `(x{1000}){1000}` must not take a gigabyte.
    public static let maximumStates = 20_000

    /// Compiles `pattern`, or says why it cannot.
    public init(_ pattern: String) throws(SyntaxError) {
        self.pattern = pattern
        var parser = Parser(scalars: Array(pattern.unicodeScalars))
        let tree = try parser.parseWhole()
        var compiler = Compiler()
        try compiler.emit(tree)
        compiler.program.append(.match)
        program = compiler.program
    }

    /// Whether the whole of `text` matches.
    public func wholeMatch(_ text: String) -> Bool {
        let scalars = Array(text.unicodeScalars)
        var current = StateSet(count: program.count)
        var next = StateSet(count: program.count)
        add(0, to: &current, at: 0, length: scalars.count)
        for (index, scalar) in scalars.enumerated() {
            next.clear()
            for state in current.members {
                if case .scalar(let test) = program[state], test.accepts(scalar) {
                    add(state + 1, to: &next, at: index + 1, length: scalars.count)
                }
            }
            swap(&current, &next)
            if current.members.isEmpty { return false }
        }
        return current.members.contains { if case .match = program[$0] { return true } else { return false } }
    }

    /// Follows the moves that read nothing (splits, jumps, anchors) from `state`, iteratively.
    private func add(_ state: Int, to set: inout StateSet, at position: Int, length: Int) {
        var pending = [state]
        while let next = pending.popLast() {
            guard set.insert(next) else { continue }
            switch program[next] {
            case .jump(let target): pending.append(target)
            case .split(let first, let second): pending.append(second); pending.append(first)
            case .start: if position == 0 { pending.append(next + 1) }
            case .end: if position == length { pending.append(next + 1) }
            case .scalar, .match: break
            }
        }
    }

    /// States by index, cleared in time proportional to what was added.
    private struct StateSet {
        var flags: [Bool]
        var members: [Int] = []
        init(count: Int) { flags = [Bool](repeating: false, count: count) }
        mutating func insert(_ state: Int) -> Bool {
            guard !flags[state] else { return false }
            flags[state] = true
            members.append(state)
            return true
        }
        mutating func clear() {
            for state in members { flags[state] = false }
            members.removeAll(keepingCapacity: true)
        }
    }

    /// What one character may be.
    struct ScalarTest: Sendable {
        var ranges: [ClosedRange<UInt32>]
        var negated = false
        func accepts(_ scalar: Unicode.Scalar) -> Bool { ranges.contains { $0.contains(scalar.value) } != negated }
        static let any = ScalarTest(ranges: [10...10], negated: true)
        static let digit = ScalarTest(ranges: [48...57])
        static let word = ScalarTest(ranges: [48...57, 65...90, 95...95, 97...122])
        static let space = ScalarTest(ranges: [9...13, 32...32])
    }

    enum Instruction: Sendable {
        case scalar(ScalarTest)
        case split(Int, Int)
        case jump(Int)
        case start
        case end
        case match
    }

    indirect enum Node {
        case test(ScalarTest)
        case start, end
        case sequence([Node])
        case alternation([Node])
        case repeated(Node, min: Int, max: Int?)
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        var index = 0

        /// An error at the 0-based `position` (default: the character about to be read).
        func fail(_ message: String, at position: Int? = nil) -> SyntaxError {
            SyntaxError(description: "\(message) at character \((position ?? index) + 1)")
        }

        mutating func parseWhole() throws(SyntaxError) -> Node {
            let node = try alternation()
            guard index == scalars.count else { throw fail("unbalanced ')'") }
            return node
        }

        mutating func alternation() throws(SyntaxError) -> Node {
            var branches = [try sequence()]
            while index < scalars.count, scalars[index] == "|" {
                index += 1
                branches.append(try sequence())
            }
            return branches.count == 1 ? branches[0] : .alternation(branches)
        }

        mutating func sequence() throws(SyntaxError) -> Node {
            var items: [Node] = []
            while index < scalars.count, scalars[index] != "|", scalars[index] != ")" {
                var atom = try self.atom()
                while let (low, high) = try quantifier() { atom = .repeated(atom, min: low, max: high) }
                items.append(atom)
            }
            return .sequence(items)
        }

        mutating func quantifier() throws(SyntaxError) -> (Int, Int?)? {
            guard index < scalars.count else { return nil }
            var bounds: (Int, Int?)
            switch scalars[index] {
            case "*": bounds = (0, nil); index += 1
            case "+": bounds = (1, nil); index += 1
            case "?": bounds = (0, 1); index += 1
            case "{":
                guard let counted = countedBounds() else { return nil }
                bounds = counted
            default: return nil
            }
            if index < scalars.count, scalars[index] == "?" { index += 1 }  // lazy: the same texts match
            else if index < scalars.count, scalars[index] == "+" { throw fail("possessive quantifiers are not supported") }
            if let high = bounds.1, high < bounds.0 { throw fail("a repetition's maximum is below its minimum") }
            return bounds
        }

        /// `{n}`, `{n,}`, `{n,m}`; nil (and nothing read) when the brace is a literal.
        mutating func countedBounds() -> (Int, Int?)? {
            var cursor = index + 1
            func number() -> Int? {
                var value: Int?
                while cursor < scalars.count, let digit = Int(String(scalars[cursor])), scalars[cursor].isASCII {
                    value = min((value ?? 0) * 10 + digit, 100_000)
                    cursor += 1
                }
                return value
            }
            // `{,m}` is `{0,m}`, as Swift's Regex reads it.
            let written = number()
            guard written != nil || (cursor < scalars.count && scalars[cursor] == ",") else { return nil }
            let low = written ?? 0
            var high: Int? = low
            if cursor < scalars.count, scalars[cursor] == "," {
                cursor += 1
                high = number()
            }
            guard cursor < scalars.count, scalars[cursor] == "}" else { return nil }
            index = cursor + 1
            return (low, high)
        }

        mutating func atom() throws(SyntaxError) -> Node {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case ".": return .test(.any)
            case "^": return .start
            case "$": return .end
            case "(":
                if index < scalars.count, scalars[index] == "?" {
                    let rest = String(String.UnicodeScalarView(scalars[index..<min(scalars.count, index + 3)]))
                    if rest.hasPrefix("?:") {
                        index += 2
                    } else if rest.hasPrefix("?<") && !rest.hasPrefix("?<=") && !rest.hasPrefix("?<!") || rest.hasPrefix("?P<") {
                        guard let close = scalars[index...].firstIndex(of: ">") else { throw fail("unterminated group name") }
                        index = close + 1
                    } else {
                        throw fail("look-around, atomic groups and inline options are not supported")
                    }
                }
                let inner = try alternation()
                guard index < scalars.count, scalars[index] == ")" else { throw fail("missing ')'") }
                index += 1
                return inner
            case ")": throw fail("unbalanced ')'")
            case "[": return .test(try characterClass())
            case "\\": return try escape(inClass: false).map(Node.test) ?? .test(ScalarTest(ranges: []))
            case "*", "+", "?": throw fail("'\(scalar)' has nothing to repeat", at: index - 1)
            default: return .test(ScalarTest(ranges: [scalar.value...scalar.value]))
            }
        }

        /// After a backslash: a class (`\d`), an escaped character, or an error for back-references.
        mutating func escape(inClass: Bool) throws(SyntaxError) -> ScalarTest? {
            guard index < scalars.count else { throw fail("a pattern cannot end with '\\'", at: index - 1) }
            let scalar = scalars[index]
            let backslash = index - 1
            index += 1
            switch scalar {
            case "d": return .digit
            case "D": return ScalarTest(ranges: ScalarTest.digit.ranges, negated: true)
            case "w": return .word
            case "W": return ScalarTest(ranges: ScalarTest.word.ranges, negated: true)
            case "s": return .space
            case "S": return ScalarTest(ranges: ScalarTest.space.ranges, negated: true)
            case "t": return ScalarTest(ranges: [9...9])
            case "n": return ScalarTest(ranges: [10...10])
            case "r": return ScalarTest(ranges: [13...13])
            case "1"..."9", "k": throw fail("back-references are not supported", at: backslash)
            case "b", "B", "A", "z", "Z", "G": throw fail("'\\\(scalar)' is not supported", at: backslash)
            default:
                if scalar.properties.isAlphabetic && scalar.isASCII { throw fail("unknown escape '\\\(scalar)'", at: backslash) }
                return ScalarTest(ranges: [scalar.value...scalar.value])
            }
        }

        static let posixClasses: [String: [ClosedRange<UInt32>]] = [
            "alpha": [65...90, 97...122], "digit": [48...57], "alnum": [48...57, 65...90, 97...122], "upper": [65...90], "lower": [97...122],
            "space": [9...13, 32...32], "xdigit": [48...57, 65...70, 97...102], "word": [48...57, 65...90, 95...95, 97...122],
            "punct": [33...47, 58...64, 91...96, 123...126],
        ]

        mutating func characterClass() throws(SyntaxError) -> ScalarTest {
            var test = ScalarTest(ranges: [])
            if index < scalars.count, scalars[index] == "^" { test.negated = true; index += 1 }
            var first = true
            while index < scalars.count {
                let scalar = scalars[index]
                if scalar == "]" && !first {
                    index += 1
                    return test
                }
                first = false
                if scalar == "[", index + 1 < scalars.count, scalars[index + 1] == ":",
                   let close = (index + 2..<scalars.count).first(where: { scalars[$0] == ":" && $0 + 1 < scalars.count && scalars[$0 + 1] == "]" }) {
                    let name = String(String.UnicodeScalarView(scalars[index + 2..<close]))
                    guard let members = Self.posixClasses[name] else { throw fail("unknown class '[:\(name):]'") }
                    test.ranges += members
                    index = close + 2
                    continue
                }
                index += 1
                var low: UInt32
                if scalar == "\\" {
                    guard let escaped = try escape(inClass: true) else { continue }
                    if escaped.ranges.count != 1 || escaped.negated || escaped.ranges[0].count != 1 {
                        if escaped.negated { throw fail("a negated class inside '[…]' is not supported") }
                        test.ranges += escaped.ranges
                        continue
                    }
                    low = escaped.ranges[0].lowerBound
                } else {
                    low = scalar.value
                }
                if index + 1 < scalars.count, scalars[index] == "-", scalars[index + 1] != "]" {
                    var high = scalars[index + 1].value
                    index += 2
                    if scalars[index - 1] == "\\" {
                        guard let escaped = try escape(inClass: true), escaped.ranges.count == 1, !escaped.negated else { throw fail("a bad range") }
                        high = escaped.ranges[0].lowerBound
                    }
                    guard low <= high else { throw fail("a range out of order") }
                    test.ranges.append(low...high)
                } else {
                    test.ranges.append(low...low)
                }
            }
            throw fail("missing ']'")
        }
    }

    private struct Compiler {
        var program: [Instruction] = []

        mutating func emit(_ node: Node) throws(SyntaxError) {
            guard program.count <= LinearRegex.maximumStates else {
                throw SyntaxError(description: "the pattern's repetitions make more than \(LinearRegex.maximumStates) states")
            }
            switch node {
            case .test(let test): program.append(.scalar(test))
            case .start: program.append(.start)
            case .end: program.append(.end)
            case .sequence(let items): for item in items { try emit(item) }
            case .alternation(let branches):
                var jumps: [Int] = []
                for (offset, branch) in branches.enumerated() {
                    if offset < branches.count - 1 {
                        let split = program.count
                        program.append(.split(split + 1, -1))
                        try emit(branch)
                        jumps.append(program.count)
                        program.append(.jump(-1))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repeated(let inner, let low, let high):
                for _ in 0..<low { try emit(inner) }
                if let high {
                    // Each optional copy may be skipped to the end.
                    var splits: [Int] = []
                    for _ in low..<high {
                        splits.append(program.count)
                        program.append(.split(program.count + 1, -1))
                        try emit(inner)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    program.append(.split(loop + 1, -1))
                    try emit(inner)
                    program.append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
        }
    }
}
