/// One test as `swift test list` prints it, with the identity the run history gives it and the
/// filter that runs it alone.
struct ListedTest: Sendable, Equatable {
    /// Which runner runs it: the test bundle takes each its own way.
    enum Framework: Sendable, Equatable {
        case xctest
        case swiftTesting
    }

    /// The line `swift test list` printed (`CoreTests.ArithmeticTests/testAdd`,
    /// `GreeterTests.GreeterTests/doubles(value:)`).
    let listed: String
    let framework: Framework

    /// The history's identity (`TestResult.testIdentifier`): the suite path, a dot, the name.
    /// `Module.Class/testAdd` → `Module.Class.testAdd`; `Module.Outer/Inner/run()` →
    /// `Module.Outer/Inner.run()` (the event stream's suite keeps `/` between nested types); a free
    /// function `Module.run()` stays as it is.
    var identifier: String {
        guard let slash = listed.lastIndex(of: "/") else { return listed }
        return "\(listed[..<slash]).\(listed[listed.index(after: slash)...])"
    }

    /// Reads `swift test list`'s standard output: one test per line. Swift Testing's names end in
    /// their parameter list (`run()`, `doubles(value:)`); an XCTest method's name has none.
    static func parse(_ output: String) -> [ListedTest] {
        var seen: Set<String> = []
        var tests: [ListedTest] = []
        for raw in output.split(separator: "\n") {
            let line = String(raw).trimmingSpaces
            // SwiftPM's own lines (`[0/1] Planning build`, `Build complete!`) are not tests.
            guard !line.isEmpty, !line.hasPrefix("["), !line.contains(" "), line.contains("."), seen.insert(line).inserted else { continue }
            tests.append(ListedTest(listed: line, framework: line.hasSuffix(")") ? .swiftTesting : .xctest))
        }
        return tests
    }

    /// Swift Testing's `--filter` for exactly this test. Swift Testing matches the regular
    /// expression against ids that end in a source location (`Module.Suite/run()/File.swift:3:2`):
    /// anchored with `$`, or with its parentheses unescaped, it matches nothing and the run passes
    /// with no test (issue 54). Anchored at the start and ended by the `/` before the location, it
    /// matches this test's id and no other (a suite's id never ends in `)`).
    var swiftTestingFilter: String {
        "^" + Self.escaped(listed) + "/"
    }

    /// SwiftPM's `--filter` for exactly this test (`swift test`, where XCTest ids have no location).
    var swiftPMFilter: String {
        framework == .xctest ? "^" + Self.escaped(listed) + "$" : swiftTestingFilter
    }

    /// `text` with every character a regular expression gives a meaning escaped.
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}

extension String {
    /// The text without spaces, tabs and carriage returns around it.
    fileprivate var trimmingSpaces: String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }
}
