#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PrePushCore
import Testing

@Suite struct PushUpdateTests {
    let sha1A = String(repeating: "a", count: 40)
    let sha1B = "67890" + String(repeating: "b", count: 35)
    let zero40 = String(repeating: "0", count: 40)
    let zero64 = String(repeating: "0", count: 64)

    @Test func parsesTheLinesGitWrites() throws {
        // The shape githooks(5) documents: `git push origin master:foreign`.
        let text = "refs/heads/master \(sha1A) refs/heads/foreign \(sha1B)\n"
        let updates = try PushUpdate.parseHookInput(text)
        #expect(updates == [PushUpdate(localRef: "refs/heads/master", localObjectID: sha1A, remoteRef: "refs/heads/foreign", remoteObjectID: sha1B)])
        #expect(!updates[0].isDeletion)
        #expect(!updates[0].createsRemoteRef)
    }

    @Test func newAndDeletedRefsUseZeroObjectNames() throws {
        let text = "refs/heads/new \(sha1A) refs/heads/new \(zero40)\n(delete) \(zero40) refs/heads/old \(sha1B)\n"
        let updates = try PushUpdate.parseHookInput(text)
        #expect(updates.count == 2)
        #expect(updates[0].createsRemoteRef && !updates[0].isDeletion)
        #expect(updates[1].isDeletion && updates[1].localRef == "(delete)")
    }

    @Test func acceptsSHA256ObjectNames() throws {
        let sha256 = String(repeating: "c", count: 64)
        let updates = try PushUpdate.parseHookInput("refs/heads/main \(sha256) refs/heads/main \(zero64)")
        #expect(updates.first?.localObjectID == sha256)
        #expect(updates.first?.createsRemoteRef == true)
    }

    @Test func ignoresBlankLinesAndCarriageReturns() throws {
        let updates = try PushUpdate.parseHookInput("\n  \nrefs/heads/main \(sha1A) refs/heads/main \(sha1B)\r\n\n")
        #expect(updates.count == 1)
        #expect(updates[0].remoteObjectID == sha1B)
    }

    @Test func keepsALocalRefAsTheUserTypedIt() throws {
        // "If the local commit was specified by something other than a name ... it will be supplied as it was originally given."
        let updates = try PushUpdate.parseHookInput(":/fix the bug \(sha1A) refs/heads/main \(sha1B)")
        #expect(updates[0].localRef == ":/fix the bug")
    }

    @Test func missingFieldIsAnErrorWithItsLine() {
        let text = "refs/heads/main \(sha1A) refs/heads/main \(sha1B)\nrefs/heads/x \(sha1A)\n"
        #expect(throws: PushUpdateError.self) { try PushUpdate.parseHookInput(text) }
        do {
            _ = try PushUpdate.parseHookInput(text)
        } catch {
            #expect(error.description == """
            <stdin>:2:1: error: malformed pre-push line: expected four fields separated by single spaces: <local ref> <local object name> <remote ref> <remote object name>
            refs/heads/x \(sha1A)
            ^
            """)
        }
    }

    @Test func badObjectNameIsPointedAt() {
        do {
            _ = try PushUpdate.parseHookInput("refs/heads/main \(sha1A) refs/heads/main 12345")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == """
            <stdin>:1:74: error: malformed pre-push line: expected an object name of 40 or 64 hexadecimal digits, found "12345"
            refs/heads/main \(sha1A) refs/heads/main 12345
                                                                                     ^
            """)
        }
    }

    @Test func mixedObjectNameLengthsAreRefused() {
        let sha256 = String(repeating: "c", count: 64)
        #expect(throws: PushUpdateError.self) { try PushUpdate.parseHookInput("refs/heads/main \(sha1A) refs/heads/main \(sha256)") }
    }

    @Test func uppercaseHexIsNotWhatGitWrites() {
        #expect(throws: PushUpdateError.self) {
            try PushUpdate.parseHookInput("refs/heads/main \(sha1A.uppercased()) refs/heads/main \(sha1B)")
        }
    }
}

@Suite struct DiagnosticTests {
    @Test func crlfLinesAreFound() {
        #expect(Diagnostic.line(2, of: "a\r\nbb\r\nc") == "bb")
        #expect(Diagnostic.line(4, of: "a\r\nbb\r\nc") == nil)
    }

    @Test func caretSitsUnderTheColumn() {
        let diagnostic = Diagnostic(location: SourceLocation(file: "a.yml", line: 2, column: 5), message: "bad", sourceText: "x: 1\ny:  oops\n")
        #expect(diagnostic.description == "a.yml:2:5: error: bad\ny:  oops\n    ^")
    }

    @Test func tabsAreKeptSoTheCaretLinesUp() {
        let diagnostic = Diagnostic(location: SourceLocation(file: "f", line: 1, column: 3), message: "m", sourceLine: "\t\tx")
        #expect(diagnostic.description == "f:1:3: error: m\n\t\tx\n\t\t^")
    }

    @Test func columnsCountUnicodeScalarsNotBytes() {
        let diagnostic = Diagnostic(location: SourceLocation(file: "f", line: 1, column: 4), message: "m", sourceLine: "éé x")
        #expect(diagnostic.description.hasSuffix("éé x\n   ^"))
    }

    @Test func noExcerptWithoutTheLine() {
        let diagnostic = Diagnostic(location: SourceLocation(file: "f", line: 9, column: 1), severity: .warning, message: "m", sourceText: "one line")
        #expect(diagnostic.description == "f:9:1: warning: m")
    }
}

@Suite struct PrePushHookConfigTests {
    @Test func defaultsAreTheDataModels() {
        let config = PrePushHookConfig.default
        #expect(config.skipUITests == false)
        #expect(config.uiTestsOnly == false)
        #expect(config.uiTestTimeout == 600)
        #expect(config.verbose == false)
        #expect(config.syncMode == .scp)
        #expect(config.validate().isEmpty)
    }

    @Test(arguments: [0.0, -1, 601, 0.5])
    func ruleFourBoundsTheUITimeout(seconds: Double) {
        let config = PrePushHookConfig(skipUITests: false, uiTestsOnly: false, uiTestTimeout: seconds, verbose: false, syncMode: .rsync)
        #expect(config.validate() == [.uiTestTimeoutOutOfRange(seconds)])
    }

    @Test(arguments: [1.0, 600])
    func ruleFourAcceptsItsBounds(seconds: Double) {
        let config = PrePushHookConfig(skipUITests: false, uiTestsOnly: false, uiTestTimeout: seconds, verbose: false, syncMode: .rsync)
        #expect(config.validate().isEmpty)
    }

    @Test func skippingAndOnlyUITestsContradict() {
        let config = PrePushHookConfig(skipUITests: true, uiTestsOnly: true, uiTestTimeout: 10, verbose: false, syncMode: .scp)
        #expect(config.validate() == [.skipAndOnlyUITests])
    }
}

@Suite struct GlobTests {
    @Test(arguments: [
        ("**/*View.swift", "HomeView.swift", true), ("**/*View.swift", "App/Screens/HomeView.swift", true),
        ("**/*View.swift", "App/HomeViewModel.swift", false), ("**/Views/**/*.swift", "App/Views/Rows/Row.swift", true),
        ("**/Views/**/*.swift", "Views/Row.swift", true), ("**/Views/**/*.swift", "App/Models/Task.swift", false),
        ("Sources/*.swift", "Sources/A.swift", true), ("Sources/*.swift", "Sources/X/A.swift", false),
        ("**/Generated/**", "App/Generated/A.swift", true), ("**/My View.swift", "App/My View.swift", true),
    ])
    func matching(pattern: String, path: String, expected: Bool) {
        #expect(Glob(pattern).matches(path) == expected)
    }

    /// A segment pattern reads as the C library's fnmatch reads it (no flags), on every pair of a
    /// set of patterns and names that exercise `*`, `?`, sets, ranges, classes, negation and escapes.
    @Test func aSegmentMatchesAsFnmatchDoes() {
        let patterns = ["*", "a*", "*a", "a*b*c", "?", "??b", "[ab]c", "[!ab]c", "[^a-c]*", "[a-c]?", "[]a]", "[[:digit:]]*",
                        "\\*", "a\\?", "[", "a[b", "*[0-9]", "*.swift", "x*y*z*", "[!]]"]
        let names = ["", "a", "b", "c", "ab", "abc", "aXbYc", "bc", "cc", "dc", "]", "7up", "*", "a?", "ab?", "[", "a[b", "file9",
                     "View.swift", "xyz", "xxyyzz", "!", "^"]
        for pattern in patterns {
            for name in names where !name.isEmpty {
                let expected = fnmatch(pattern, name, 0) == 0
                #expect(Glob(pattern).matches(name) == expected, "\(pattern) against \(name)")
            }
        }
    }

    /// Patterns come from a file a pull request controls: twenty `**` on a deep path, and a segment
    /// of many `*`, are answered at once (backtracking took minutes on these; the time limit catches a
    /// return to it, docs/benchmarks.md has the figures).
    @Test(.timeLimit(.minutes(10))) func hostilePatternsAreBounded() {
        let deep = (1...40).map { "d\($0)" }.joined(separator: "/") + "/y.txt"
        let twenty = Array(repeating: "**", count: 20).joined(separator: "/") + "/x.txt"
        #expect(!Glob(twenty).matches(deep))
        #expect(Glob(twenty).matches(String(deep.dropLast(5)) + "x.txt"))
        let stars = String(repeating: "a*", count: 30) + "b"
        #expect(!Glob(stars).matches(String(repeating: "a", count: 200)))
        #expect(Glob("**/" + stars).matches("x/" + String(repeating: "a", count: 40) + "b"))
    }
}
