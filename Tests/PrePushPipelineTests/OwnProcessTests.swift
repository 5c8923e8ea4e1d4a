import Foundation
import PrePushTestSupport
import Testing

/// A test that starts the built binary costs a process, and shows less than one run in-process when
/// a failure needs explaining (issue 55: "the ones that do are those that need a process of their
/// own, each saying why"). A scan of every Swift file under Tests/: a file whose tests start the
/// binary says why in its suite's doc comment, on a line that begins with the marker below, and
/// under a fifth of all test functions start it. The count is the one scripts and reviews use
/// (a test function starts the binary when its text, or a helper of its file, runs the binary's
/// path, pushes with git or starts the binary as a child), so the numbers in a report match this test.
@Suite struct OwnProcessTests {
    /// The line, in a suite's `///` comment, that says why its tests need a process of their own.
    static let marker = "/// Own process:"

    /// What starts the binary in a test: its path or `run`, a `git push` through a repository
    /// helper (which runs the installed hook), or the binary started as a child.
    static let startsTheBinary = #"PrepushBinary\.|\brepo\w*\.push\(|\.push\(\)|Command\.start\(PrepushBinary"#
    /// The same in a helper function of the file; a test that calls the helper starts the binary too.
    static let helperStartsTheBinary = #"PrepushBinary\.|\.push\(|pushes\(|Command\.start\(PrepushBinary"#

    @Test func everyFileWhoseTestsStartTheBinarySaysWhyAndTheyStayUnderAFifth() throws {
        let tests = Fixtures.repositoryRoot.appendingPathComponent("Tests")
        var total = 0, starting = 0, files = 0
        for path in try Self.swiftFiles(under: tests) {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            let count = try Self.count(text)
            total += count.tests
            starting += count.startingTheBinary
            guard count.startingTheBinary > 0 else { continue }
            files += 1
            let relative = String(path.dropFirst(Fixtures.repositoryRoot.path.count + 1))
            #expect(Self.saysWhy(text), """
            \(relative): \(count.startingTheBinary) test functions start the binary, and no suite says why: \
            add "\(Self.marker) <reason>" to the suite's doc comment, or run them with InProcessCLI
            """)
        }
        // The scan found the tests (a wrong folder would pass everything).
        #expect(total > 500, "test functions found: \(total)")
        #expect(files > 5, "files whose tests start the binary: \(files)")
        #expect(starting * 5 < total, "\(starting) of \(total) test functions start the binary (\(100 * starting / max(total, 1))%): the bar is under 20%")
    }

    /// The marker and a reason, on a doc-comment line of a block that a suite's declaration follows.
    static func saysWhy(_ text: String) -> Bool {
        let lines = text.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for (index, line) in lines.enumerated() where line.hasPrefix(marker) {
            guard line.dropFirst(marker.count).trimmingCharacters(in: .whitespaces).count >= 20 else { continue }
            let after = lines[(index + 1)...].first { !$0.hasPrefix("///") } ?? ""
            if after.hasPrefix("@Suite") || after.contains("struct ") || after.contains("class ") { return true }
        }
        return false
    }

    /// The Swift files under `folder`, hidden folders left out.
    static func swiftFiles(under folder: URL) throws -> [String] {
        guard let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else {
            return []
        }
        return walk.compactMap { ($0 as? URL)?.path }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The test functions of a file's text (Swift Testing's, and XCTest's `testX` methods), and how
    /// many of them start the binary: directly, or through a function of the same file that does.
    ///
    /// Offsets are counted in Unicode scalars, one per character, as the counting script does.
    static func count(_ source: String) throws -> (tests: Int, startingTheBinary: Int) {
        // One UTF-16 unit per scalar (none of the patterns names a character outside the BMP), and
        // line breaks as a script reading the file as text sees them.
        let scalars = source.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .unicodeScalars.map { $0.value > 0xFFFF ? "\u{FFFD}" : $0 }
        var flattened = String.UnicodeScalarView()
        flattened.append(contentsOf: scalars)
        let text = String(flattened) as NSString

        // Helpers: a function whose first 3,000 characters, up to its closing brace at four spaces,
        // start the binary (a function named test… is a test, not a helper).
        var helpers: [String] = []
        let function = try NSRegularExpression(pattern: #"func (\w+)\("#)
        let helperUse = try NSRegularExpression(pattern: helperStartsTheBinary)
        for match in function.matches(in: text as String, range: NSRange(location: 0, length: text.length)) {
            let name = text.substring(with: match.range(at: 1))
            var window = text.substring(with: NSRange(location: match.range.location, length: min(3000, text.length - match.range.location))) as NSString
            let end = window.range(of: "\n    }\n")
            if end.location != NSNotFound, end.location > 0 { window = window.substring(to: end.location) as NSString }
            if helperUse.firstMatch(in: window as String, range: NSRange(location: 0, length: window.length)) != nil, !name.hasPrefix("test") {
                helpers.append(name)
            }
        }

        // Tests: each runs from its mark to the next one (the last to the end of the file).
        let mark = try NSRegularExpression(pattern: #"@Test\b|\n\s*func test[A-Z]\w*\("#)
        var starts = mark.matches(in: text as String, range: NSRange(location: 0, length: text.length)).map(\.range.location)
        starts.append(text.length)
        let use = try NSRegularExpression(pattern: startsTheBinary)
        let anyFunction = try NSRegularExpression(pattern: #"func \w+\("#)
        let calls = try helpers.map { try NSRegularExpression(pattern: #"\b"# + $0 + #"\("#) }
        var tests = 0, starting = 0
        for (start, next) in zip(starts, starts.dropFirst()) {
            let body = text.substring(with: NSRange(location: start, length: next - start)) as NSString
            let head = body.substring(to: min(400, body.length))
            guard anyFunction.firstMatch(in: head, range: NSRange(location: 0, length: (head as NSString).length)) != nil else { continue }
            tests += 1
            if use.firstMatch(in: body as String, range: NSRange(location: 0, length: body.length)) != nil {
                starting += 1
                continue
            }
            // A helper called after the function's opening brace (none without one).
            let brace = body.range(of: "{")
            guard brace.location != NSNotFound else { continue }
            let rest = body.substring(from: brace.location)
            let restRange = NSRange(location: 0, length: (rest as NSString).length)
            if calls.contains(where: { $0.firstMatch(in: rest, range: restRange) != nil }) { starting += 1 }
        }
        return (tests, starting)
    }
}
