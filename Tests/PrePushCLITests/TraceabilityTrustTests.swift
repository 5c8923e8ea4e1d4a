import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The traceability gate as a QA lead relies on it, on a real package built in the test: XCTest
/// and Swift Testing, the same test name in two suites, a skipped and a disabled test with their
/// reasons, a parameterized test, a tag on a suite, a test that passes only on retry, and a
/// failing test no scenario names. Each hole of the old gate is a case with its exit status and
/// the report's words.
/// Own process: the gate's refusals are real `git push`es through the installed hook, the remote left
/// where it was until the push is allowed.
@Suite struct TraceabilityTrustTests {
    static let package = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Library",
        targets: [
            .target(name: "Library"),
            .testTarget(name: "LibraryTests", dependencies: ["Library"]),
        ]
    )

    """
    static let library = """
    public func fine(days: Int) -> Int { days * 10 }
    public func compile(_ pages: [String]) -> String { pages.joined(separator: "\\n") }

    """
    static let books = """
    import XCTest
    import Library

    final class BooksTests: XCTestCase {
        func test_books_lend() {
            XCTAssertEqual(fine(days: 0), 0)
        }

        func test_books_return() throws {
            throw XCTSkip("needs a barcode scanner")
        }
    }

    """
    static let renderers = """
    import Foundation
    import Testing
    import Library

    let broken = ProcessInfo.processInfo.environment["LIBRARY_BROKEN"] != nil

    extension Tag {
        @Tag static var smoke: Self
    }

    @Suite struct HTMLRenderer {
        @Test func compile() {
            #expect(Library.compile(["a", "b"]) == "a\\nb")
        }
    }

    @Suite struct PDFRenderer {
        @Test func compile() {
            #expect(Library.compile(["a"]) == (broken ? "b" : "a"), "the PDF lost its page")
        }
    }

    @Suite(.tags(.smoke)) struct SearchTests {
        @Test func byTitle() { #expect(Library.compile(["x"]) == "x") }
        @Test func byAuthor() { #expect(Library.compile(["y"]) == "y") }
    }

    @Suite struct FineTests {
        @Test(arguments: [1, 2, 3]) func fine(days: Int) {
            #expect(days != 3 || !broken, "three days is thirty")
            #expect(Library.fine(days: days) == days * 10)
        }

        @Test(.disabled("waiting for the export API")) func export() {}

        @Test func audit() {
            #expect(!broken, "the audit found a gap")
        }

        /// Fails on its first run in a stage, passes when run again.
        @Test func sync() throws {
            let marker = try #require(ProcessInfo.processInfo.environment["LIBRARY_MARKER"])
            let first = !FileManager.default.fileExists(atPath: marker)
            FileManager.default.createFile(atPath: marker, contents: Data())
            #expect(!first, "the first sync times out")
        }
    }

    """
    /// US2 comes first in `stories:`: the reports keep that order, not the scenarios'.
    static let catalog = """
    stories:
      US2: Search and fines
      US1: Lending
    scenarios:
      - story: US1
        priority: P1
        description: Lend a book
        test: test_books_lend
      - story: US1
        priority: P1
        description: Return a book
        test: test_books_return
      - story: US1
        priority: P1
        description: Compile the catalog
        test: compile()
      - story: US2
        priority: P1
        description: Search the shelves
        tag: smoke
      - story: US2
        priority: P2
        description: Export the catalog
        test: FineTests/export()
      - story: US2
        priority: P1
        description: Charge a fine
        test: fine(days:)
      - story: US1
        priority: P1
        description: Sync the loans
        test: sync()
        links: [QA-7]
      - story: US1
        priority: P2
        description: Every books test
        suite: BooksTests

    """
    static let configuration = """
    stages:
      unit:
        run: swift test --event-stream-output-path .build/prepush-events.jsonl
        retry: 1
        env:
          LIBRARY_MARKER: "@MARKER@"
    traceability:
      testNamePattern: '^(test_[a-z]+_[a-zA-Z]+|[a-z][A-Za-z]*)$'
      linkPattern: "https://qa.example.com/{id}"

    """

    static func repository() throws -> (GitRepository, marker: String) {
        let repo = try GitRepository(prefix: "prepush-trust")
        try repo.write(package, to: "Package.swift")
        try repo.write(library, to: "Sources/Library/Library.swift")
        try repo.write(books, to: "Tests/LibraryTests/BooksTests.swift")
        try repo.write(renderers, to: "Tests/LibraryTests/RendererTests.swift")
        try repo.write(catalog, to: ".prepush/scenarios.yml")
        let marker = repo.root.url("sync-marker")
        try repo.write(configuration.replacingOccurrences(of: "@MARKER@", with: marker), to: ".prepush.yml")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.commitAll("the library")
        return (repo, marker)
    }

    /// The scenario table's line of a scenario in a Markdown report.
    static func row(_ description: String, in markdown: String) -> String {
        markdown.split(separator: "\n").first { $0.contains("| \(description) ") && $0.hasPrefix("| ") && !$0.hasPrefix("| Story") }.map(String.init) ?? ""
    }

    @Test func everyHoleIsARefusalWithItsReasonAndTheReportsCarryWhatTheResultsKnow() throws {
        let (repo, _) = try Self.repository()
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let push = try repo.push(environment: ["LIBRARY_BROKEN": "1"])
        #expect(push.status != 0)
        #expect(try repo.remoteHead() == nil)
        let output = push.combined
        #expect(output.contains("prepush: scenarios: 8, 8 implemented, 3 passed, 2 failed, 3 skipped; 1 failing test in no scenario; 1 test in no scenario"), "\(output)")
        // A skipped P1 test proves nothing; its reason is said.
        #expect(output.contains("error: P1 scenario test_books_return (US1: Return a book) was skipped: needs a barcode scanner; a skipped test proves nothing"), "\(output)")
        // `compile()` is declared by two suites: the scenario links both and fails with the broken one,
        // which the old gate bound away (the first suite's passing copy stood for it).
        #expect(output.contains("error: P1 scenario compile() (US1: Compile the catalog) failed (PDFRenderer/compile): Expectation failed"), "\(output)")
        #expect(output.contains("      the PDF lost its page (Tests/LibraryTests/RendererTests.swift:19:9)"), "a message's later lines stay under their error: \(output)")
        // The failing case of the parameterized test: the event stream does not say it, the console does.
        #expect(output.contains("error: P1 scenario fine(days:) (US2: Charge a fine) failed: Expectation failed: (days != 3 → false) || (!broken → false) (1 argument days → 3)"), "\(output)")
        // The tag links both tests of the tagged suite; they pass. The retried test passed: flaky, not refused.
        #expect(!output.contains("tag smoke"))
        #expect(!output.contains("scenario sync()"))

        let markdown = try String(contentsOfFile: repo.path + "/.prepush/reports/traceability.md", encoding: .utf8)
        #expect(markdown.contains("_commit \(try repo.head().prefix(12)) · branch main · "), "the stamp: \(markdown)")
        #expect(markdown.contains(" · Swift version "), "the stamp names the toolchain: \(markdown)")
        let us2 = try #require(markdown.range(of: "| US2 Search and fines |")), us1 = try #require(markdown.range(of: "| US1 Lending |"))
        #expect(us2.lowerBound < us1.lowerBound, "stories in the catalog's stories: order")
        #expect(markdown.contains("| ✅ passed | P1 | US1 | Sync the loans [QA-7](https://qa.example.com/QA-7) | `FineTests/sync` Tests/LibraryTests/RendererTests.swift:41 |"), "\(markdown)")
        #expect(markdown.contains("flaky: passed on attempt 2 of 2"))
        let export = Self.row("Export the catalog", in: markdown)
        #expect(export.hasPrefix("| ⏭️ skipped | P2 | US2 | Export the catalog | `FineTests/export` Tests/LibraryTests/RendererTests.swift:34 |"), "\(export)")
        #expect(export.hasSuffix("| skipped: waiting for the export API | ⏭️ |"), "the first tree in its history: \(export)")
        #expect(markdown.contains("`HTMLRenderer/compile` Tests/LibraryTests/RendererTests.swift:12<br>`PDFRenderer/compile` Tests/LibraryTests/RendererTests.swift:18"))
        #expect(markdown.contains("1 failing test in no scenario:\n\n- ❌ `LibraryTests.FineTests/audit()` failed Tests/LibraryTests/RendererTests.swift:37:9: Expectation failed"), "\(markdown)")
        let html = try String(contentsOfFile: repo.path + "/.prepush/reports/traceability.html", encoding: .utf8)
        #expect(html.contains("<strong>Gate refused the push:</strong>"))
        #expect(html.contains("<span class=\"number\">3</span> skipped</div>"), "a skipped card")
        #expect(html.contains("<h2>Failing tests in no scenario (1)</h2>"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/.prepush/reports/traceability.json"))) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        let compile = try #require(scenarios.first { $0["description"] as? String == "Compile the catalog" })
        let links = try #require(compile["links"] as? [[String: Any]])
        #expect(links.map { $0["name"] as? String } == ["HTMLRenderer/compile", "PDFRenderer/compile"])
        #expect(links.map { $0["status"] as? String } == ["passed", "failed"])
        #expect((json["stamp"] as? [String: Any])?["branch"] as? String == "main")

        // Fixed, but the skipped P1 test still refuses; `allowSkip` with a reason accepts it.
        let fixed = try repo.push()
        #expect(fixed.status != 0)
        #expect(fixed.combined.contains("error: P1 scenario test_books_return (US1: Return a book) was skipped"), "\(fixed.combined)")
        // The tests passed and the gate refused: the tests' reports say refused, as the exit status does.
        let refusedSummary = try String(contentsOfFile: repo.path + "/.prepush/reports/results.md", encoding: .utf8)
        #expect(refusedSummary.hasPrefix("## ❌ Refused: the traceability gate found "), "\(refusedSummary)")
        #expect(!refusedSummary.contains("✅"), "\(refusedSummary)")
        let refusedJUnit = try String(contentsOfFile: repo.path + "/.prepush/reports/junit.xml", encoding: .utf8)
        #expect(refusedJUnit.contains("type=\"refusal\">the traceability gate found "), "\(refusedJUnit)")
        try repo.write(Self.catalog.replacingOccurrences(of: "    test: test_books_return\n", with: "    test: test_books_return\n    allowSkip: the scanner lab signs it off\n"),
                       to: ".prepush/scenarios.yml")
        try repo.commitAll("the scanner lab signs returns off")
        let allowed = try repo.push()
        #expect(allowed.status == 0, "\(allowed.combined)")
        #expect(try repo.remoteHead() == (try repo.head()))
        let allowedMarkdown = try String(contentsOfFile: repo.path + "/.prepush/reports/traceability.md", encoding: .utf8)
        #expect(allowedMarkdown.contains("skipped: needs a barcode scanner (allowed: the scanner lab signs it off)"), "\(allowedMarkdown)")
        // The history strip, a mark per tree: the broken and the fixed push tested the same tree (the
        // break was in the environment), so failed-then-passed there is flaky; the sign-off's tree passed.
        #expect(allowedMarkdown.contains("| Details | History, oldest first |"), "\(allowedMarkdown)")
        #expect(Self.row("Compile the catalog", in: allowedMarkdown).hasSuffix("|  | ⚠️✅ |"), "\(allowedMarkdown)")
        #expect(Self.row("Lend a book", in: allowedMarkdown).hasSuffix("|  | ✅✅ |"), "\(allowedMarkdown)")
        #expect(allowedMarkdown.contains("| ⏭️⏭️ |"))
    }

    /// `prepush report` in a CI merge job: what the saved results do not prove refuses.
    @Test func aReportRefusesWhatTheSavedResultsDoNotProve() throws {
        let (repo, _) = try Self.repository()
        let run = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment.merging(["LIBRARY_BROKEN": "1"]) { $1 })
        #expect(run.status == 1, "\(run)")
        let saved = repo.root.url("results.json"), events = repo.root.url("events.jsonl")
        try FileManager.default.copyItem(atPath: repo.path + "/.prepush/reports/results.json", toPath: saved)
        try FileManager.default.copyItem(atPath: repo.path + "/.build/prepush-events.jsonl", toPath: events)
        func report(_ arguments: String...) throws -> CommandResult {
            try InProcessCLI.run(["report"] + arguments, in: repo.path, environment: repo.environment)
        }

        // The event stream alone holds no XCTest result: the XCTest scenarios did not run, and a
        // truncated or forgotten results file is no longer a green gate.
        let streamOnly = try report("--results", events, "--format", "html")
        #expect(streamOnly.status == 1, "\(streamOnly)")
        #expect(streamOnly.standardError.contains("error: P1 scenario test_books_lend (US1: Lend a book) did not run: no result names BooksTests/test_books_lend"), "\(streamOnly.standardError)")
        #expect(streamOnly.standardOutput.contains("<strong>Gate refused:</strong>"), "outside a push, no push was refused")
        #expect(!streamOnly.standardOutput.contains("Swift version"), "an event stream does not say its toolchain, and the report does not guess it")
        // The stream holds the first attempt and then the retry's (which ran the 4 failed tests): only
        // the 3 XCTest scenarios, which no Swift Testing stream names, did not run.
        #expect(streamOnly.standardOutput.contains("<span class=\"number\">3</span> not run</div>"), "\(streamOnly.standardOutput)")

        // JUnit for tools that read nothing else: a refused scenario is a failure with its reason.
        // results.json recorded the toolchain the tests ran with: the report made from it names it.
        let fromSaved = try report("--results", saved, "--format", "markdown")
        #expect(fromSaved.standardOutput.contains(" · Swift version "), "\(fromSaved.standardOutput)")
        let junit = try report("--results", saved, "--format", "junit", "--output", "traceability.xml")
        #expect(junit.status == 1)
        let xml = try String(contentsOfFile: repo.path + "/traceability.xml", encoding: .utf8)
        #expect(xml.contains("<testsuites name=\"traceability\" tests=\"8\" failures=\"3\" errors=\"0\">"), "\(xml)")
        #expect(xml.contains("<testcase classname=\"US2\" name=\"P2 Export the catalog\" time=\"0.000\">\n      <skipped message=\"skipped: waiting for the export API\"/>"), "\(xml)")
        #expect(xml.contains("name=\"P1 Return a book\""))
        #expect(xml.contains("<failure message=\"P1 scenario test_books_return (US1: Return a book) was skipped: needs a barcode scanner"), "\(xml)")
        #expect(xml.contains("<property name=\"branch\" value=\"main\"/>"), "the stamp: \(xml)")
        #expect(xml.contains("link: https://qa.example.com/QA-7</system-out>"), "\(xml)")
        let schema = Fixtures.shared + "/junit/jenkinsci-xunit-plugin__junit-10.xsd"
        let lint = try Command.run("xmllint", ["--noout", "--schema", schema, repo.path + "/traceability.xml"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 0, "\(lint)")

        // The gate's own options: a failing test no scenario names, and too few results.
        try repo.write("traceability:\n  testNamePattern: '^(test_[a-z]+_[a-zA-Z]+|[a-z][A-Za-z]*)$'\n  gate:\n    blocking: [P1]\n    unmappedFailures: refuse\n    minTests: 50\n",
                       to: "strict.yml")
        let strict = try report("--config", "strict.yml", "--results", saved, "--format", "markdown")
        #expect(strict.status == 1)
        #expect(strict.standardError.contains("error: LibraryTests.FineTests/audit() failed and no scenario names it (gate.unmappedFailures: refuse): Expectation failed"), "\(strict.standardError)")
        #expect(strict.standardError.contains("error: the results hold 10 tests, fewer than gate.minTests (50): a results file is missing or cut short"), "\(strict.standardError)")
    }

    /// `prepush scenarios lint` in the repository checks the links against the tests the sources declare.
    @Test func lintWarnsOfABareNameInTwoSuitesAndSuggestsARenamedTest() throws {
        let repo = try GitRepository(prefix: "prepush-trust-lint")
        try repo.write(Self.books, to: "Tests/LibraryTests/BooksTests.swift")
        try repo.write(Self.renderers, to: "Tests/LibraryTests/RendererTests.swift")
        try repo.write("traceability:\n  testNamePattern: '^(test_[a-z]+_[a-zA-Z]+|[a-z][A-Za-z]*)$'\n", to: ".prepush.yml")
        try repo.write("""
        scenarios:
          - {story: US1, priority: P1, description: Compile, test: compile()}
          - {story: US1, priority: P1, description: Lend, test: testBooksLend}
          - {story: US1, priority: P2, description: Qualified, tests: [PDFRenderer/compile(), test_books_return]}

        """, to: ".prepush/scenarios.yml")
        let lint = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 0, "warnings do not fail the lint: \(lint)")
        #expect(lint.standardError.contains(".prepush/scenarios.yml:2:5: warning: compile() names 2 tests (HTMLRenderer/compile, PDFRenderer/compile); the scenario links them all: qualify it as Suite/compile to link one"), "\(lint.standardError)")
        #expect(lint.standardError.contains(".prepush/scenarios.yml:3:5: warning: testBooksLend has no test in the sources (did you mean BooksTests/test_books_lend?)"), "\(lint.standardError)")
        #expect(lint.standardOutput.contains(".prepush/scenarios.yml: 3 scenarios in 1 stories (0 manual): 2 warnings"), "\(lint.standardOutput)")
    }
}
