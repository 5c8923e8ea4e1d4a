import PrePushCore
import Testing

/// One escaper per output language: what each promises, on the text a pull request can hold.
@Suite struct OutputEscaperTests {
    /// Every character some reader starts a line at.
    static let lineBreaks = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]

    @Test(arguments: lineBreaks)
    func markdownTextFoldsEveryLineBreakAndMakesHTMLInert(_ lineBreak: String) {
        let hostile = "boom\(lineBreak)## ✅ Tests passed\(lineBreak)<!-- hidden"
        let escaped = MarkdownText.text(hostile)
        #expect(escaped == "boom ⏎ ## ✅ Tests passed ⏎ &lt;!-- hidden")
        #expect(!escaped.unicodeScalars.contains { MarkdownText.isLineBreak($0) })
    }

    @Test func markdownTextEndsNoCellAndStartsNoLinkCodeOrBlock() {
        #expect(MarkdownText.text("a | b") == "a \\| b")
        #expect(MarkdownText.text("a\\|b") == "a\\\\\\|b", "a backslash before a pipe cannot unescape it")
        #expect(MarkdownText.text("[click](https://evil) ![x](y)") == "\\[click\\](https://evil) !\\[x\\](y)")
        #expect(MarkdownText.text("`code`") == "\\`code\\`")
        #expect(MarkdownText.text("<details><img src=x>") == "&lt;details>&lt;img src=x>")
        for (start, escaped) in [("# Passed", "\\# Passed"), ("- item", "\\- item"), ("> quote", "\\> quote"), ("1. one", "1\\. one"),
                                 ("    code", "code"), ("~~~", "\\~~~"), ("=====", "\\=====")] {
            #expect(MarkdownText.text(start) == escaped, "\(start)")
        }
        #expect(MarkdownText.text("\u{1B}[2J") == "\\u{1b}\\[2J")
        #expect(MarkdownText.text("Plain words stay as they are") == "Plain words stay as they are")
    }

    @Test func aCodeSpanCannotBeClosedByItsText() {
        #expect(MarkdownText.code("Sources/A.swift:3") == "`Sources/A.swift:3`")
        #expect(MarkdownText.code("a`b``c") == "```a`b``c```")
        #expect(MarkdownText.code("`x") == "`` `x ``")
        #expect(MarkdownText.code("a|b", inTable: true) == "`a\\|b`")
        #expect(MarkdownText.code("a\r<!--\nb") == "`a ⏎ <!-- ⏎ b`")
    }

    @Test func aFencedBlockCannotBeClosedByItsLines() {
        let block = MarkdownText.fencedBlock(["ld: error", "~~~~~~", "ok\r## ✅ Tests passed", "\u{1B}[31mred"])
        #expect(block == ["~~~~~~~", "ld: error", "~~~~~~", "ok", "## ✅ Tests passed", "\\u{1b}[31mred", "~~~~~~~"])
        #expect(MarkdownText.fencedBlock(["x"]) == ["~~~~", "x", "~~~~"])
    }

    @Test(arguments: [
        ("https://jira.example.com/browse/QA-1", true), ("HTTP://example.com/x", true), ("docs/QA-1.html", true), ("/browse/QA-1", true),
        ("?id=1&x=2", true), ("#QA-1", true),
        ("javascript:alert(1)//QA-1", false), ("JaVaScRiPt:alert(1)", false), (" javascript:alert(1)", false),
        ("\u{1}javascript:alert(1)", false), ("java\tscript:alert(1)", false), ("java\nscript:alert(1)", false),
        ("javascript&#58;alert(1)", false), ("javascript&colon;alert(1)", false), ("data:text/html,<script>", false),
        ("vbscript:msgbox", false), ("file:///etc/passwd", false), ("//evil.example.com/x", false), ("https:evil", false),
        ("http:", false), ("", false), ("https://a.example/\"onclick=\"x", false), ("\\\\evil\\share", false), ("https://a.example/\u{2028}", false),
    ])
    func onlyHTTPAndRelativeLinksPass(_ url: String, _ allowed: Bool) {
        #expect(LinkTarget.isAllowed(url) == allowed, "\(url.debugDescription)")
    }

    @Test func aMarkdownLinkIsTextWhenItsSchemeIsRefusedAndCannotEndEarly() {
        #expect(MarkdownText.link("QA-1", to: "javascript:alert(1)//QA-1") == "QA-1")
        #expect(MarkdownText.link("QA-1", to: "https://x.example/a(b)?q=1&c=[2]") == "[QA-1](https://x.example/a\\(b\\)?q=1\\&c=%5B2%5D)")
        #expect(MarkdownText.link("a](javascript:x) [b", to: "https://x.example/") == "[a\\](javascript:x) \\[b](https://x.example/)")
    }

    @Test func yamlScalarsArePlainOnlyWhenNothingCanReadThemOtherwise() {
        #expect(YAMLText.scalar("Packages/Chat") == "Packages/Chat")
        #expect(YAMLText.scalar("rm -rf x && xcodebuild test -scheme 'A B' -destination \"$d\"") == "rm -rf x && xcodebuild test -scheme 'A B' -destination \"$d\"")
        #expect(YAMLText.scalar("Evil\n  lint: {run: touch pwned}") == "\"Evil\\n  lint: {run: touch pwned}\"")
        #expect(YAMLText.scalar("a\r\u{85}\u{2028}\u{2029}\u{1B}\u{FEFF}\"\\") == "\"a\\r\\N\\L\\P\\x1B\\uFEFF\\\"\\\\\"")
        for word in ["true", "No", "null", "~", "", "- x", "#x", "a #b", "a: b", "x:", "12", ".5", "&a", "*a", "!t", "{x}", "[x]", " x", "x "] {
            #expect(YAMLText.scalar(word).hasPrefix("\""), "\(word.debugDescription)")
        }
    }

    @Test func aYAMLLineHoldsNoLineBreak() {
        #expect(YAMLText.line("    # Evil\n  lint:\r\n    run: touch pwned\u{2028}x/Package.swift") == "    # Evil ⏎   lint: ⏎     run: touch pwned ⏎ x/Package.swift")
        #expect(YAMLText.line("  unit:") == "  unit:")
    }

    @Test(arguments: [
        ("", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
        ("abc", "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0="),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "JI1qYdIGOLjlwCaTDD5gOaM85Flk/yFn9uzt1BnbBsE="),
    ])
    func sha256MatchesTheStandardsVectors(_ text: String, _ digest: String) {
        #expect(SHA256.base64Digest(of: text) == digest)
    }
}
