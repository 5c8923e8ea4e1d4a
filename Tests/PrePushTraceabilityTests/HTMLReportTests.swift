import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushTraceability
import Testing

/// Headless Chromium, which the tests drive to render the HTML report for real.
enum Chromium {
    static let path: String? = {
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome",
                          "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Linux CI installs it (scripts/bootstrap.sh --tests); elsewhere the test runs when it is there.
    static var shouldRun: Bool {
        #if os(Linux)
        return true
        #else
        return path != nil
        #endif
    }

    /// The DOM after the page's script ran.
    static func renderedDOM(of url: String, in folder: TemporaryDirectory) throws -> String {
        let binary = try #require(path, "chromium is not installed (Debian: apt-get install chromium; scripts/bootstrap.sh --tests does it)")
        let result = try Command.run(binary, ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                              "--user-data-dir=\(folder.url("profile"))", "--dump-dom", url],
                                     environment: ProcessInfo.processInfo.environment)
        #expect(result.status == 0, "\(result.standardError.suffix(2000))")
        return result.standardOutput
    }
}

@Suite struct HTMLReportTests {
    func render() throws -> (TemporaryDirectory, String) {
        let folder = try TemporaryDirectory()
        let html = TraceabilityFormat.html.render(try MatrixTests.matrix(), gate: TraceabilityGate())
        return (folder, try folder.write(html, to: "report with space.html"))
    }

    /// `prepush report --format html` without a catalog: the page names no catalog file it never read.
    @Test func aReportWithoutACatalogNamesNoCatalogFile() throws {
        let matrix = TraceabilityMatrix(catalog: ScenarioCatalog.empty(path: ".prepush/scenarios.yml"), inventory: DiscoveryTests.inventory(), results: [])
        let html = TraceabilityFormat.html.render(matrix, gate: TraceabilityGate())
        #expect(!html.contains("scenarios.yml"))
        #expect(html.contains("No scenario catalog"))
        #expect(TraceabilityFormat.html.render(try MatrixTests.matrix(), gate: TraceabilityGate()).contains("Catalog <code>scenarios.yml</code>"))
    }

    @Test func theReportIsOneFileThatFetchesNothing() throws {
        let (folder, path) = try render()
        defer { withExtendedLifetime(folder) {} }
        let html = try String(contentsOfFile: path, encoding: .utf8)
        for reference in ["src=\"http", "href=\"http", "<link", "@import", "url(http", "<script src"] {
            #expect(!html.contains(reference), "\(reference)")
        }
        #expect(html.contains("<svg class=\"chart\""))
        #expect(html.contains("<style>") && html.contains("<script>"))
    }

    @Test(.enabled(if: Chromium.shouldRun))
    func chromiumRendersARowPerScenarioAndTheFilterWorks() throws {
        let (folder, path) = try render()
        let url = URL(fileURLWithPath: path).absoluteString
        let dom = try Chromium.renderedDOM(of: url, in: folder)
        #expect(dom.contains("<body data-ready=\"true\">"), "the page's script ran")
        #expect(dom.components(separatedBy: "<tr class=\"scenario\"").count - 1 == 7, "a row per scenario")
        #expect(!dom.contains(" hidden=\"\""), "every row shows without a filter")
        #expect(dom.contains("7 of 7 scenarios"))

        let failed = try Chromium.renderedDOM(of: url + "#status=failed", in: folder)
        // Each row's opening tag: which status it has and whether the filter hid it.
        let tags = failed.components(separatedBy: "<tr class=\"scenario\"").dropFirst().map { $0.prefix { $0 != ">" } }
        #expect(tags.count == 7)
        #expect(tags.filter { !$0.contains("hidden") }.map { String($0) } == [" data-status=\"failed\" data-priority=\"P1\""])
        #expect(tags.filter { $0.contains("hidden") }.count == 6, "the other six are hidden")
        #expect(failed.contains("1 of 7 scenarios"))
        #expect(failed.contains("<button data-status=\"failed\" class=\"active\">"))
    }

    @Test func textIsEscaped() {
        let catalog = try? ScenarioCatalog.decode("""
        scenarios:
          - story: "<US1>"
            priority: P1
            description: "Tom & Jerry <script>alert(1)</script>"
            test: test_a_b
        """, path: "s.yml")
        let matrix = TraceabilityMatrix(catalog: catalog!, inventory: TestInventory(tests: [], suites: [], skippedFiles: []), results: [])
        let html = TraceabilityFormat.html.render(matrix, gate: TraceabilityGate())
        #expect(html.contains("Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;US1&gt;"))
    }

    @Test func aFailureScreenshotIsEmbeddedAndAMissingOneNamed() throws {
        let folder = try TemporaryDirectory()
        // The smallest valid PNG: a 1×1 image.
        let png = Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")!
        try png.write(to: URL(fileURLWithPath: folder.url("failure.png")))
        let catalog = try ScenarioCatalog.decode("""
        scenarios:
          - {story: US1, priority: P2, description: Shot, test: test_a_shot}
          - {story: US1, priority: P2, description: Gone, test: test_a_gone}
        """, path: "s.yml")
        let results = [
            UITestResult(suite: "A", name: "test_a_shot", status: .failed, duration: 1, failures: [TestFailure(message: "boom", location: nil)])
                .withScreenshot(folder.url("failure.png")),
            UITestResult(suite: "A", name: "test_a_gone", status: .failed, duration: 1, failures: [TestFailure(message: "boom", location: nil)])
                .withScreenshot(folder.url("missing.png")),
        ]
        let html = TraceabilityFormat.html.render(TraceabilityMatrix(catalog: catalog, inventory: TestInventory(tests: []), results: results),
                                                  gate: TraceabilityGate())
        #expect(html.contains("src=\"data:image/png;base64,\(png.base64EncodedString())\""))
        #expect(html.contains("screenshot: <code>\(folder.url("missing.png"))</code>"))
    }
}
