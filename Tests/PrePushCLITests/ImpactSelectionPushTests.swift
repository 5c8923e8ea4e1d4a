import Foundation
import PrePushCore
import PrePushHistory
import PrePushPipeline
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `selective: tests` through the installed hook: real `git push`es to a local bare remote of a
/// package built here, with XCTest and Swift Testing tests, and an impact map saved in the store.
/// Own process: the selection is made from the range a real `git push` gives the installed hook, and a
/// failing selected test refuses the push itself.
@Suite(.serialized) struct ImpactSelectionPushTests {
    static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Impact",
        targets: [
            .target(name: "Lib"),
            .testTarget(name: "LibTests", dependencies: ["Lib"]),
        ]
    )

    """

    /// `double` on lines 3–5, `triple` on lines 7–9: the map's coordinates.
    static let library = """
    public let unit = 1

    public func double(_ x: Int) -> Int {
        x * 2
    }

    public func triple(_ x: Int) -> Int {
        x * 3
    }

    """

    static let xctests = """
    import XCTest
    import Lib

    final class MathTests: XCTestCase {
        func testDouble() { XCTAssertEqual(double(2), 4) }
        func testDoubleTwice() { XCTAssertEqual(double(double(1)), 4) }
        func testTriple() { XCTAssertEqual(triple(2), 6) }
    }

    """

    static let swiftTests = """
    import Testing
    import Lib

    @Suite struct Numbers {
        @Test func doubled() { #expect(double(3) == 6) }
        @Test(arguments: [1, 2]) func tripled(_ x: Int) { #expect(triple(x) == x * 3) }
    }

    @Test func freeTriple() { #expect(triple(2) == 6) }

    """

    /// A test that reads a file of no target, README.md, at run time: coverage cannot see that, so
    /// a change to README.md must run it.
    static let readmeTests = """
    import Foundation
    import XCTest

    final class ReadmeTests: XCTestCase {
        func testReadmeGreets() throws {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8).contains("hello"))
        }
    }

    """

    /// Each test by its `swift test list` name, with the functions it executes (0: double, 1: triple).
    static let recorded: [(listed: String, identifier: String, file: String, functions: [Int])] = [
        ("LibTests.MathTests/testDouble", "LibTests.MathTests.testDouble", "Tests/LibTests/MathTests.swift", [0]),
        ("LibTests.MathTests/testDoubleTwice", "LibTests.MathTests.testDoubleTwice", "Tests/LibTests/MathTests.swift", [0]),
        ("LibTests.MathTests/testTriple", "LibTests.MathTests.testTriple", "Tests/LibTests/MathTests.swift", [1]),
        ("LibTests.Numbers/doubled()", "LibTests.Numbers.doubled()", "Tests/LibTests/Numbers.swift", [0]),
        ("LibTests.Numbers/tripled(_:)", "LibTests.Numbers.tripled(_:)", "Tests/LibTests/Numbers.swift", [1]),
        ("LibTests.freeTriple()", "LibTests.freeTriple()", "Tests/LibTests/Numbers.swift", [1]),
        ("LibTests.ReadmeTests/testReadmeGreets", "LibTests.ReadmeTests.testReadmeGreets", "Tests/LibTests/ReadmeTests.swift", []),
    ]

    /// The package committed, built, the hook installed, pushed once without checks, and a map of
    /// that commit in the store.
    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-impact")
        try repo.write(manifest, to: "Package.swift")
        try repo.write(library, to: "Sources/Lib/Lib.swift")
        try repo.write(xctests, to: "Tests/LibTests/MathTests.swift")
        try repo.write(swiftTests, to: "Tests/LibTests/Numbers.swift")
        try repo.write(readmeTests, to: "Tests/LibTests/ReadmeTests.swift")
        try repo.write("# Impact\n\nSays hello.\n", to: "README.md")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("""
        stages:
          unit:
            run: swift build --build-tests -q && swift test --skip-build
            selective: tests

        """, to: ".prepush.yml")
        try repo.commitAll("the package")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        _ = try repo.push(environment: ["PREPUSH_SKIP": "1"]).checked()
        let commit = try repo.git("rev-parse", "HEAD").trimmingCharacters(in: .whitespacesAndNewlines)
        let version = try Command.run("swift", ["--version"], in: repo.path, environment: repo.environment).standardOutput
        let functions = [
            ImpactMap.Function(file: "Sources/Lib/Lib.swift", name: "double(_:)", startLine: 3, endLine: 5),
            ImpactMap.Function(file: "Sources/Lib/Lib.swift", name: "triple(_:)", startLine: 7, endLine: 9),
        ]
        let tests = recorded.map { ImpactMap.Test(identifier: $0.identifier, listed: $0.listed, file: $0.file, functions: $0.functions) }
        let map = ImpactMap(stage: "unit", packageFolder: "", commit: commit,
                            toolchain: String(version.split(separator: "\n").first(where: { $0.contains("Swift version") }) ?? ""),
                            recorded: Date().timeIntervalSince1970, seconds: 1, functions: functions, tests: tests)
        let common = try repo.git("rev-parse", "--git-common-dir").trimmingCharacters(in: .whitespacesAndNewlines)
        let store = try ImpactStore(path: ImpactStore.path(commonDirectory: common.hasPrefix("/") ? common : repo.path + "/" + common))
        try store.save(map)
        return repo
    }

    static func package() throws -> GitRepository { try built.repository() }

    /// Commits `text` to `file` and pushes through the hook.
    func push(_ repo: GitRepository, _ text: String, to file: String) throws -> CommandResult {
        try repo.write(text, to: file)
        try repo.commitAll("change \(file)")
        return try repo.push()
    }

    @Test func anEditToOneFunctionRunsOnlyTheTestsThatExecutedIt() throws {
        let repo = try Self.package()
        let before = try repo.remoteHead()
        let verdicts = repo.path + "/.git/prepush/verdicts"
        let kept = (try? FileManager.default.contentsOfDirectory(atPath: verdicts)) ?? []
        let result = try push(repo, Self.library.replacing("    x * 3\n", with: "    x + x + x\n"), to: "Sources/Lib/Lib.swift")
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("prepush: unit: selective: 3 of 7 tests (impact map of "), "\(output)")
        #expect(output.contains(", 1 file changed)"), "\(output)")
        // Each filter ran exactly its test: the three that call triple ran, none of those that call only double.
        #expect(output.contains("prepush: tests: 3 passed, 0 failed"), "\(output)")
        let results = try String(contentsOfFile: repo.path + "/.prepush/reports/results.json", encoding: .utf8)
        for ran in ["testTriple", "tripled(_:)", "freeTriple()"] { #expect(results.contains("\"\(ran)\""), "\(ran): \(results)") }
        for other in ["testDouble", "testDoubleTwice", "doubled()"] { #expect(!results.contains("\"\(other)\""), "\(other) ran: \(results)") }
        #expect(output.contains("4 of 7 tests not run: the impact map of "), "\(output)")
        #expect(try repo.remoteHead() != before)
        // The verdict cache is on (a hook, not CI), and a pass of some tests is not kept as the stage's pass.
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: verdicts)) ?? []).sorted() == kept.sorted())
    }

    @Test func aFailingTestTheChangeReachesRefusesThePush() throws {
        let repo = try Self.package()
        let before = try repo.remoteHead()
        let result = try push(repo, Self.library.replacing("    x * 2\n", with: "    x * 2 + 1\n"), to: "Sources/Lib/Lib.swift")
        let output = result.standardOutput + result.standardError
        #expect(result.status != 0, "\(output)")
        #expect(output.contains("prepush: push refused: unit: failed"), "\(output)")
        #expect(output.contains("testDouble"), "\(output)")
        #expect(try repo.remoteHead() == before)
        // Put back: the next test pushes from the last pushed commit.
        _ = try repo.git("reset", "--hard", "HEAD~1")
    }

    @Test func aManifestChangeRunsEveryTest() throws {
        let repo = try Self.package()
        let result = try push(repo, Self.manifest + "// \(UUID())\n", to: "Package.swift")
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("prepush: note: unit: selective: every test runs (Package.swift changed)"), "\(output)")
        #expect(output.contains("prepush: tests: 7 passed, 0 failed"), "\(output)")
        // The manifest back, unpushed: the next push's tree matches the map's manifest again.
        try repo.write(Self.manifest, to: "Package.swift")
        try repo.commitAll("the manifest back")
    }

    @Test func ciSettingsChangedSinceTheMapDoNotTurnSelectionOff() throws {
        let repo = try Self.package()
        // Commits other tests left unpushed (the manifest put back) go first, unchecked: this push is the workflow alone.
        _ = try repo.push(environment: ["PREPUSH_SKIP": "1"]).checked()
        // A workflow change alone: no target changes and nothing in the package names the file.
        let settings = try push(repo, "on: push\njobs: {}\n# \(UUID())\n", to: ".github/workflows/ci.yml")
        let settingsOutput = settings.standardOutput + settings.standardError
        #expect(settings.status == 0, "\(settingsOutput)")
        #expect(settingsOutput.contains("unit: skipped (selective: the push changes no target, only .github/workflows/ci.yml)"), "\(settingsOutput)")
        // The next push is compared with the map's tree, which lacks that change: before, every test ran.
        let result = try push(repo, Self.library.replacing("    x * 3\n", with: "    3 * x\n"), to: "Sources/Lib/Lib.swift")
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("prepush: unit: selective: 3 of 7 tests (impact map of "), "\(output)")
        #expect(output.contains("prepush: tests: 3 passed, 0 failed"), "\(output)")
    }

    @Test func aFileATestReadsStillRunsEveryTestAndRefusesWhatBreaksIt() throws {
        let repo = try Self.package()
        let before = try repo.remoteHead()
        // README.md is documentation, but ReadmeTests names it: leaving the stage out would be a false green.
        let result = try push(repo, "# Impact\n\nSays goodbye.\n", to: "README.md")
        let output = result.standardOutput + result.standardError
        #expect(result.status != 0, "\(output)")
        #expect(output.contains("unit: selective: every test runs (README.md changed and Tests/LibTests/ReadmeTests.swift names readme and md, so a test may read it)"),
                "\(output)")
        #expect(output.contains("testReadmeGreets"), "\(output)")
        #expect(try repo.remoteHead() == before)
        _ = try repo.git("reset", "--hard", "HEAD~1")
    }

    @Test func aSkipCommandRunsEveryTestButTheSkippedOnes() throws {
        // What a push that chose more tests than one command can filter runs, on the real runner:
        // XCTest and Swift Testing both honour the grouped --skip, parameterized cases included.
        let repo = try Self.package()
        let skipped = ["LibTests.MathTests/testDouble", "LibTests.MathTests/testDoubleTwice", "LibTests.Numbers/tripled(_:)"]
        let command = try #require(ImpactStep.command("swift build --build-tests -q && swift test --skip-build", skipping: skipped))
        let run = try Command.run("/bin/sh", ["-c", command], in: repo.path, environment: repo.environment)
        let output = run.standardOutput + run.standardError
        #expect(run.status == 0, "\(output)")
        for ran in ["testTriple", "testReadmeGreets", "doubled()", "freeTriple()"] { #expect(output.contains(ran), "\(ran): \(output)") }
        // Neither testDouble nor testDoubleTwice (whose name it begins) nor any case of tripled(_:) ran.
        for left in ["testDouble", "tripled(_:)"] { #expect(!output.contains(left), "\(left) ran: \(output)") }
    }

    @Test func noSelectiveRunsEveryTest() throws {
        let repo = try Self.package()
        try repo.write(Self.library.replacing("    x * 2\n", with: "    x + x\n"), to: "Sources/Lib/Lib.swift")
        try repo.commitAll("double by adding")
        let result = try repo.push(environment: ["PREPUSH_SELECTIVE": "0"])
        let output = result.standardOutput + result.standardError
        #expect(result.status == 0, "\(output)")
        #expect(output.contains("unit: selective: every test runs (selective off: environment PREPUSH_SELECTIVE)"), "\(output)")
        #expect(output.contains("prepush: tests: 7 passed, 0 failed"), "\(output)")
    }
}
