import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushTraceability
import Testing

/// The traceability reports hold a pull request's text (the catalog, test names, failure messages)
/// and make its `links:` clickable: no text becomes Markdown or HTML structure, no link runs script,
/// and the HTML runs nothing but its own style and script.
@Suite struct ReportEscapingTests {
    static func matrix(linkPattern: String?) throws -> TraceabilityMatrix {
        let catalog = try ScenarioCatalog.decode("""
        scenarios:
          - story: "US1\\r## ✅ Tests passed"
            priority: P1
            description: "Log in\\r<!-- hidden -->| x"
            test: test_login_works
            links: [QA-1, "javascript:alert(2)", "JaVaScRiPt:alert(3)", "https://qa.example.com/QA-2"]
        """, path: "s.yml")
        let results = [UITestResult(suite: "LoginTests", name: "test_login_works", status: .failed, duration: 1,
                                    failures: [TestFailure(message: "boom\r# Passed\n<img src=x onerror=alert(1)>", location: nil)])]
        var matrix = TraceabilityMatrix(catalog: catalog, inventory: TestInventory(tests: []), results: results)
        matrix.linkPattern = linkPattern
        return matrix
    }

    /// Through the config, such a pattern is refused (PrePushConfigTests); here the writers get it anyway.
    @Test(arguments: ["javascript:alert(1)//{id}", " javascript:alert(1)//{id}", "data:text/html,{id}", "vbscript:{id}", "java\tscript:{id}"])
    func noReportLinksAnotherScheme(_ pattern: String) throws {
        let matrix = try Self.matrix(linkPattern: pattern)
        let html = TraceabilityFormat.html.render(matrix, gate: TraceabilityGate())
        let markdown = TraceabilityFormat.markdown.render(matrix, gate: TraceabilityGate())
        let hrefs = html.components(separatedBy: "href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(hrefs == ["https://qa.example.com/QA-2"], "\(hrefs)")
        #expect(!markdown.lowercased().contains("](javascript") && !markdown.contains("](data") && !markdown.contains("](vbscript"), "\(markdown)")
        #expect(markdown.contains("[https://qa.example.com/QA-2](https://qa.example.com/QA-2)"), "\(markdown)")
        let safe = try Self.matrix(linkPattern: "https://jira.example.com/browse/{id}")
        #expect(TraceabilityFormat.markdown.render(safe, gate: TraceabilityGate()).contains(" [QA-1](https://jira.example.com/browse/QA-1) "))
    }

    @Test func markdownTextMakesNoStructure() throws {
        let markdown = TraceabilityFormat.markdown.render(try Self.matrix(linkPattern: nil), gate: TraceabilityGate())
        let lines = markdown.unicodeScalars.split(omittingEmptySubsequences: false) { MarkdownText.isLineBreak($0) }.map { String(String.UnicodeScalarView($0)) }
        #expect(lines.filter { $0.hasPrefix("#") }.count == 1 && lines[0].hasPrefix("## Traceability: "), "the title alone: \(markdown)")
        #expect(!markdown.replacing("<br>", with: "").contains("<"), "\(markdown)")
        #expect(markdown.contains("| US1 ⏎ ## ✅ Tests passed | Log in ⏎ &lt;!-- hidden -->\\| x QA-1 javascript:alert(2) JaVaScRiPt:alert(3) "), "\(markdown)")
        #expect(markdown.contains("boom ⏎ # Passed ⏎ &lt;img src=x onerror=alert(1)>"), "\(markdown)")
    }

    /// The policy names the exact style and script the page holds, and nothing else may run.
    @Test func theHTMLCarriesAContentSecurityPolicyOfItsOwnBlocks() throws {
        let html = TraceabilityFormat.html.render(try Self.matrix(linkPattern: nil), gate: TraceabilityGate())
        func block(_ tag: String) -> String {
            String(html.components(separatedBy: "<\(tag)>")[1].components(separatedBy: "</\(tag)>")[0])
        }
        let policy = "default-src 'none'; style-src 'sha256-\(SHA256.base64Digest(of: block("style")))'; "
            + "script-src 'sha256-\(SHA256.base64Digest(of: block("script")))'; img-src data:; base-uri 'none'; form-action 'none'"
        #expect(html.contains("<meta http-equiv=\"Content-Security-Policy\" content=\"\(policy)\">"), "\(html.prefix(800))")
        #expect(!html.contains(" style=\""), "an inline style attribute would be refused by the policy")
    }

    /// Chromium runs the page's own script under the policy, and refuses one that got into the page.
    @Test(.enabled(if: Chromium.shouldRun))
    func chromiumRunsTheReportsScriptAndRefusesAnother() throws {
        let folder = try TemporaryDirectory()
        var html = TraceabilityFormat.html.render(try MatrixTests.matrix(), gate: TraceabilityGate())
        // What escaping would have to miss for this to be in the page: a script and a style attribute.
        html = html.replacing("</header>", with: "</header><script>document.body.setAttribute('data-pwned','yes')</script><p id=\"styled\" style=\"color:red\">x</p>")
        let path = try folder.write(html, to: "report.html")
        let dom = try Chromium.renderedDOM(of: URL(fileURLWithPath: path).absoluteString, in: folder)
        #expect(dom.contains("<body data-ready=\"true\">"), "the report's own script ran")
        #expect(!dom.contains("data-pwned=\"yes\""), "an injected inline script did not run")
        #expect(dom.contains("7 of 7 scenarios"))
    }
}
