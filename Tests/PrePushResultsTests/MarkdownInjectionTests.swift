import PrePushCore
import PrePushResults
import Testing

/// results.md (and the step summary and pull-request comment made from it) as a renderer reads it:
/// a test's name, message or log line, which a pull request writes, never becomes a heading, a
/// list item, a table row, an HTML comment or a fence's end.
@Suite struct MarkdownInjectionTests {
    /// The lines of `markdown` as GitHub's renderer (cmark-gfm) cuts them, and as other readers do:
    /// at LF, CR, CRLF, VT, FF, NEL, U+2028 and U+2029.
    static func renderedLines(_ markdown: String) -> [String] {
        markdown.replacing("\r\n", with: "\n").unicodeScalars
            .split(omittingEmptySubsequences: false) { MarkdownText.isLineBreak($0) }.map { String(String.UnicodeScalarView($0)) }
    }

    static let hostile = "boom\r## ✅ Tests passed\r<!--"

    @Test(arguments: OutputLines.breaks)
    func aFailureMessageStartsNoLineOfItsOwn(_ lineBreak: String) {
        let message = Self.hostile.replacing("\r", with: lineBreak)
        let run = TestRun(results: [
            UITestResult(suite: "A", name: "test_a\(lineBreak)- [x] approved", status: .failed, duration: 1,
                         failures: [TestFailure(message: message, location: SourceLocation(file: "A`|.swift", line: 3, column: 0))]),
            UITestResult(suite: "A", name: "# heading", status: .passed, duration: 2),
        ])
        let markdown = MarkdownReporter().render(run)
        let lines = Self.renderedLines(markdown)
        #expect(lines.first == "## ❌ 1 of 2 tests failed")
        #expect(lines.filter { $0.hasPrefix("#") } == ["## ❌ 1 of 2 tests failed", "### Failures", "### Slowest tests"], "\(markdown)")
        #expect(!markdown.contains("<"), "no HTML: \(markdown)")
        #expect(lines.contains("- **A.test_a ⏎ - \\[x\\] approved**"), "\(markdown)")
        #expect(lines.contains("  - ``A`|.swift:3``: boom ⏎ ## ✅ Tests passed ⏎ &lt;!--"), "\(markdown)")
        #expect(lines.contains("| A.# heading | 2.000 s |"), "\(markdown)")
        #expect(lines.contains("| A.test_a ⏎ - \\[x\\] approved | 1.000 s |"), "\(markdown)")
    }

    /// A red build's log tail is fenced: a line of `~` or a CR in it cannot close the fence.
    @Test func aLogTailCannotCloseItsFence() {
        var run = TestRun(results: [], runFailures: ["the build failed"])
        run.buildLogs = [BuildLog(stage: "unit`x", tail: ["ld: error", "~~~~~", "ok\r~~~~\r## ✅ Tests passed", "   ~~~~~~~~"])]
        let lines = Self.renderedLines(MarkdownReporter().render(run))
        guard let open = lines.firstIndex(where: { $0.hasPrefix("~~~~") }) else { Issue.record("no fence: \(lines)"); return }
        let fence = lines[open]
        let close = lines[(open + 1)...].firstIndex(of: fence) ?? open + 1
        #expect(Array(lines[(open + 1)..<close]) == ["ld: error", "~~~~~", "ok", "~~~~", "## ✅ Tests passed", "   ~~~~~~~~"], "\(lines)")
        #expect(fence.count == 9, "\(fence)")
        #expect(lines.contains("Stage ``unit`x`` failed before its tests ran; its log ends:"))
    }
}

/// The line breaks some reader starts a line at.
enum OutputLines {
    static let breaks = ["\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
}
