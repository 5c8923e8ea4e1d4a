import Foundation
@testable import PrePushPipeline
import PrePushTestSupport
import Testing

/// Which files outside every target a push may leave out of a `swift test` run: the kinds no build
/// step reads, and what in a real package folder could read one all the same.
@Suite struct UnreadFilesTests {
    /// Lib ← LibTests, and a local build tool plugin target nobody applies.
    static let graph = PackageGraph(targets: [
        .init(name: "Lib", path: "Sources/Lib", isTest: false, dependencies: []),
        .init(name: "LibTests", path: "Tests/LibTests", isTest: true, dependencies: ["Lib"]),
    ])

    static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription
    let package = Package(name: "P", targets: [.target(name: "Lib"), .testTarget(name: "LibTests", dependencies: ["Lib"])])

    """

    /// A package folder with `files` (path: text) besides the manifest and one source per target.
    func package(_ files: [String: String] = [:], manifest: String = manifest) throws -> GitRepository {
        let repo = try GitRepository(prefix: "prepush-unread")
        try repo.write(manifest, to: "Package.swift")
        try repo.write("public func double(_ x: Int) -> Int { x * 2 }\n", to: "Sources/Lib/Lib.swift")
        try repo.write("import XCTest\nimport Lib\nfinal class LibTests: XCTestCase { func testDouble() { XCTAssertEqual(double(2), 4) } }\n",
                       to: "Tests/LibTests/LibTests.swift")
        for (path, text) in files { try repo.write(text, to: path) }
        return repo
    }

    @Test func theKindsNoBuildStepReads() {
        for path in [".github/workflows/ci.yml", ".github/dependabot.yml", ".gitignore", ".spi.yml", ".swift-format", "CODEOWNERS",
                     "README.md", "docs/guide.md", "LICENSE.txt"] {
            #expect(UnreadFiles.isInertKind(path), "\(path)")
        }
        for path in ["Package.swift", "scripts/gen.sh", "Makefile", ".swift-version", ".gitmodules", "Fixtures/data.json", "Plugins/P/P.swift"] {
            #expect(!UnreadFiles.isInertKind(path), "\(path)")
        }
        #expect(UnreadFiles.nameWords(of: ".github/workflows/pull_request.yml") == (["pull_request"], "yml"))
        #expect(UnreadFiles.nameWords(of: ".spi.yml") == (["spi"], "yml"))
        #expect(UnreadFiles.nameWords(of: ".gitignore") == (["gitignore"], nil))
        #expect(UnreadFiles.nameWords(of: "README.md") == (["readme"], "md"))
    }

    @Test func nothingInThePackageNamesCISettingsOrDocumentation() throws {
        let repo = try package()
        let readers = FileReaders(packageRoot: repo.path, graph: Self.graph)
        for path in [".github/workflows/ci.yml", ".spi.yml", ".gitignore", "README.md", "docs/guide.md"] {
            #expect(readers.reader(of: path, inPackage: path) == nil, "\(path)")
        }
    }

    @Test func aTestThatNamesAFileMayReadIt() throws {
        let repo = try package(["Tests/LibTests/ReadmeTests.swift": """
        import XCTest
        final class ReadmeTests: XCTestCase {
            func testReadme() throws {
                let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                XCTAssertTrue(try String(contentsOf: root.appendingPathComponent("readme.md"), encoding: .utf8).contains("hello"))
            }
        }

        """])
        let readers = FileReaders(packageRoot: repo.path, graph: Self.graph)
        // Any case: a file system that ignores case opens README.md by that name.
        #expect(readers.reader(of: "README.md", inPackage: "README.md") == "Tests/LibTests/ReadmeTests.swift names readme and md, so a test may read it")
        #expect(readers.reader(of: ".github/workflows/ci.yml", inPackage: ".github/workflows/ci.yml") == nil)
    }

    /// OpenAPIKit's manifest says "just for tests" and its workflow is `.github/workflows/tests.yml`:
    /// the name's word alone ran every test on 54 of 100 replayed commits. To open the file a test
    /// needs its extension's word and a word of each folder on the way too; with `yml`, `github`
    /// and `workflows` written somewhere it may, and the note says which words.
    @Test func aFileInAFolderNoFileNamesCannotBeOpenedByName() throws {
        let repo = try package(manifest: Self.manifest + "// Yams: just for tests\n")
        let workflow = ".github/workflows/tests.yml"
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: workflow, inPackage: workflow) == nil)
        try repo.write("import XCTest\nfinal class CITests: XCTestCase { func testCI() { _ = \"https://github.com/org/repo/actions/workflows\" } }\n",
                       to: "Tests/LibTests/CITests.swift")
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: workflow, inPackage: workflow) == nil,
                "no file says yml, the extension")
        try repo.write("import XCTest\nfinal class CITests: XCTestCase { func testCI() { _ = \"https://github.com/org/repo/actions/workflows/ci.yml\" } }\n",
                       to: "Tests/LibTests/CITests.swift")
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: workflow, inPackage: workflow)
                == "Package.swift names tests, yml, github and workflows, so a test may read it")
        // A folder named by numbers only is one any file can name.
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: "2024/tests.yml", inPackage: "2024/tests.yml")
                == "Package.swift names tests and yml, so a test may read it")
        // OpenAPIKit's tests say `license` for a document's field: LICENSE.txt needs `txt` as well.
        try repo.write("import XCTest\nfinal class DocTests: XCTestCase { func testDoc() { _ = [\"license\": \"MIT\"] } }\n", to: "Tests/LibTests/DocTests.swift")
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: "LICENSE.txt", inPackage: "LICENSE.txt") == nil)
    }

    @Test func aResourceOrTheManifestThatNamesAFileCounts() throws {
        let resource = try package(["Tests/LibTests/Fixtures/list.txt": "see CHANGELOG.md\n"])
        #expect(FileReaders(packageRoot: resource.path, graph: Self.graph).reader(of: "CHANGELOG.md", inPackage: "CHANGELOG.md")
                == "Tests/LibTests/Fixtures/list.txt names changelog and md, so a test may read it")
        let manifest = try package(manifest: Self.manifest + "let version = try? String(contentsOfFile: \"NOTES.md\", encoding: .utf8)\n")
        #expect(FileReaders(packageRoot: manifest.path, graph: Self.graph).reader(of: "NOTES.md", inPackage: "NOTES.md")
                == "Package.swift names notes and md, so a test may read it")
    }

    @Test func aTestTargetsSnapshotIsReadOnlyByItsOwnTestsUnlessAnotherTargetNamesIt() throws {
        // Lib ← LibTests, Lib ← OtherTests; LibTests keeps snapshots named after its tests.
        let graph = PackageGraph(targets: Self.graph.targets + [.init(name: "OtherTests", path: "Tests/OtherTests", isTest: true, dependencies: ["Lib"])])
        let repo = try package(["Tests/LibTests/Snapshots/testDouble.1.txt": "4\n",
                                "Tests/OtherTests/OtherTests.swift": "import XCTest\nfinal class OtherTests: XCTestCase { func testTriple() { XCTAssertEqual(1, 1) } }\n"])
        let snapshot = "Tests/LibTests/Snapshots/testDouble.1.txt"
        // Only LibTests names `testDouble` (the `1` is a counter: any file holds numbers).
        #expect(FileReaders(packageRoot: repo.path, graph: graph).reader(of: snapshot, outside: "LibTests") == nil)
        // OtherTests names it too: its tests may read the file.
        try repo.write("import XCTest\nfinal class OtherTests: XCTestCase { func testDouble() { XCTAssertEqual(1, 1) } }\n", to: "Tests/OtherTests/OtherTests.swift")
        #expect(FileReaders(packageRoot: repo.path, graph: graph).reader(of: snapshot, outside: "LibTests")
                == "OtherTests names testdouble, so a test outside LibTests may read it")
        // A name of numbers only can be built anywhere; a listing in another target finds anything.
        #expect(FileReaders(packageRoot: repo.path, graph: graph).reader(of: "Tests/LibTests/Fixtures/1.json", outside: "LibTests") != nil)
        try repo.write("import XCTest\nfinal class OtherTests: XCTestCase { func testAll() { _ = try? FileManager.default.contentsOfDirectory(atPath: \"..\") } }\n",
                       to: "Tests/OtherTests/OtherTests.swift")
        #expect(FileReaders(packageRoot: repo.path, graph: graph).reader(of: snapshot, outside: "LibTests")
                == "Tests/OtherTests/OtherTests.swift lists folders, so a test outside LibTests may read it")
    }

    @Test func aListingFindsWhatItDoesNotFilterOut() throws {
        let filtered = try package(["Tests/LibTests/ExampleTests.swift": """
        import Foundation
        func examples(in folder: URL) -> [URL] {
            (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [])?.allObjects as? [URL] ?? [])
                .filter { $0.pathExtension == "json" }
        }

        """])
        let readers = FileReaders(packageRoot: filtered.path, graph: Self.graph)
        #expect(readers.reader(of: ".github/workflows/ci.yml", inPackage: ".github/workflows/ci.yml") == nil)
        #expect(readers.reader(of: ".github/settings.json", inPackage: ".github/settings.json")
                == "Tests/LibTests/ExampleTests.swift lists folders and names json, so a test may read it")
        // No extension: a filter by extension cannot be told to leave it out.
        #expect(readers.reader(of: "CODEOWNERS", inPackage: "CODEOWNERS") == "Tests/LibTests/ExampleTests.swift lists folders, so a test may read it")
        let unfiltered = try package(["Tests/LibTests/WalkTests.swift": "import Foundation\nlet all = try? FileManager.default.subpathsOfDirectory(atPath: \"..\")\n"])
        #expect(FileReaders(packageRoot: unfiltered.path, graph: Self.graph).reader(of: "README.md", inPackage: "README.md")
                == "Tests/LibTests/WalkTests.swift lists folders, so a test may read it")
    }

    @Test func aLinkInATargetReadsWhatItPointsAt() throws {
        let repo = try package(["docs/guide.md": "# Guide\n"])
        try FileManager.default.createSymbolicLink(atPath: repo.path + "/Tests/LibTests/Guides", withDestinationPath: "../../docs")
        let readers = FileReaders(packageRoot: repo.path, graph: Self.graph)
        #expect(readers.reader(of: "docs/guide.md", inPackage: "docs/guide.md") == "Tests/LibTests/Guides links to it, so a test may read it")
        #expect(readers.reader(of: ".spi.yml", inPackage: ".spi.yml") == nil)
    }

    @Test func anAppliedBuildToolPluginMayReadAnything() throws {
        let repo = try package(manifest: Self.manifest.replacing(".target(name: \"Lib\")",
                                                                 with: ".target(name: \"Lib\", plugins: [.plugin(name: \"Lint\", package: \"lint\")])"))
        #expect(FileReaders(packageRoot: repo.path, graph: Self.graph).reader(of: ".swiftlint.yml", inPackage: ".swiftlint.yml")
                == "Package.swift applies a build tool plugin, which may read any file of the package")
    }

    @Test func targetLevelSelectionLeavesOutOnlyWhatNothingReads() throws {
        let repo = try package()
        let readers = FileReaders(packageRoot: repo.path, graph: Self.graph)
        #expect(SelectiveTests.select(changed: [".github/workflows/ci.yml", "README.md"], packageFolder: "", graph: Self.graph,
                                      configurationFile: nil, reader: readers.reader(of:inPackage:))
                == .none(reason: "the push changes no target, only .github/workflows/ci.yml, README.md"))
        // Before, README.md was left out without a look: now a test that names it makes every test run.
        try repo.write("let readme = \"README.md\"\n", to: "Tests/LibTests/Paths.swift")
        let reading = FileReaders(packageRoot: repo.path, graph: Self.graph)
        #expect(SelectiveTests.select(changed: ["README.md"], packageFolder: "", graph: Self.graph, configurationFile: nil,
                                      reader: reading.reader(of:inPackage:))
                == .all(reason: "README.md changed and Tests/LibTests/Paths.swift names readme and md, so a test may read it"))
    }
}
