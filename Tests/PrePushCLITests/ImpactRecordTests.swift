import Foundation
import PrePushCore
import PrePushCommandTestSupport
@testable import PrePushPipeline
import PrePushRunner
import PrePushTestSupport
import Testing

/// `prepush impact record|show|export|import` on a real package built here: Core ← Greeter ← the
/// `greet` tool; CoreTests (XCTest: one test passes, one fails) and GreeterTests (Swift Testing: a
/// plain test, a parameterized one, one that crashes, and one that runs `greet` with an environment
/// of its own, so the tool drops `LLVM_PROFILE_FILE`). One recording, made once, is what every test reads.
@Suite(.serialized) struct ImpactRecordTests {
    static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Impact",
        targets: [
            .target(name: "Core"),
            .target(name: "Greeter", dependencies: ["Core"]),
            .executableTarget(name: "greet", dependencies: ["Greeter"]),
            .testTarget(name: "CoreTests", dependencies: ["Core"]),
            .testTarget(name: "GreeterTests", dependencies: ["Greeter"]),
        ]
    )

    """

    static let sources: [(String, String)] = [
        ("Sources/Core/Arithmetic.swift", "public func add(_ a: Int, _ b: Int) -> Int {\n    a + b\n}\n\npublic func twice(_ value: Int) -> Int {\n    value * 2\n}\n"),
        ("Sources/Core/Unused.swift", "public func neverCalled() -> Int {\n    42\n}\n"),
        ("Sources/Greeter/Greeter.swift", "import Core\n\npublic func greeting(for name: String) -> String {\n    \"Hello, \\(name)! \\(add(1, 1))\"\n}\n"),
        ("Sources/greet/main.swift", "import Greeter\n\nprint(greeting(for: CommandLine.arguments.dropFirst().first ?? \"world\"))\n"),
        ("Tests/CoreTests/ArithmeticTests.swift", """
        import Core
        import XCTest

        final class ArithmeticTests: XCTestCase {
            func testAdd() {
                XCTAssertEqual(add(2, 3), 5)
            }

            func testBroken() {
                XCTAssertEqual(twice(2), 5)
            }
        }

        """),
        ("Tests/GreeterTests/GreeterTests.swift", """
        import Core
        import Foundation
        import Greeter
        import Testing

        @Suite struct GreeterTests {
            @Test func greets() {
                #expect(greeting(for: "Ada") == "Hello, Ada! 2")
            }

            @Test(arguments: [1, 2, 3])
            func doubles(value: Int) {
                #expect(twice(value) == value + value)
            }

            /// Ends its process by a signal (an index out of range traps): recorded as unknown, never mapped.
            @Test func crashes() {
                let values: [Int] = []
                #expect(values[values.count] == 0)
            }

            /// Runs the package's own tool with an environment of its own: the profile settings are dropped.
            @Test func runsTheTool() throws {
                let tool = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("greet")
                let process = Process()
                process.executableURL = tool
                process.arguments = ["Grace"]
                process.environment = ["HOME": NSTemporaryDirectory()]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                process.waitUntilExit()
                #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "Hello, Grace! 2\\n")
            }
        }

        """),
    ]

    /// The package, committed, and its recording's output.
    static let recorded = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-impact")
        try repo.write(manifest, to: "Package.swift")
        for (path, text) in sources { try repo.write(text, to: path) }
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("cache: false\nstages:\n  unit:\n    run: swift test\n", to: ".prepush.yml")
        try repo.commitAll("the package")
        let result = try InProcessCLI.run(["impact", "record"], in: repo.path, environment: repo.environment)
        try repo.root.write(result.description, to: "record.txt")
        return repo
    }

    static func repository() throws -> (GitRepository, CommandResult) {
        let repo = try recorded.repository()
        let text = repo.root.read("record.txt") ?? ""
        let status = Int32(text.split(separator: "\n").first?.dropFirst("exit ".count) ?? "") ?? -1
        return (repo, CommandResult(status: status, standardOutput: text, standardError: ""))
    }

    /// The recorded map, exported outside the checkout and read back.
    static func map() throws -> ImpactMap {
        let (repo, _) = try repository()
        let file = repo.root.url("map-\(UUID()).json")
        let exported = try InProcessCLI.run(["impact", "export", file], in: repo.path, environment: repo.environment)
        #expect(exported.status == 0, "\(exported)")
        return try ImpactMap.imported(Array(try Data(contentsOf: URL(fileURLWithPath: file)))).get()
    }

    static func functions(of identifier: String, in map: ImpactMap) -> [ImpactMap.Function] {
        (map.tests.first { $0.identifier == identifier }?.functions ?? []).map { map.functions[$0] }
    }

    @Test func recordingMapsEveryPassingTestAndSaysTheFailingOneIsUnknown() throws {
        let (_, result) = try Self.repository()
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: impact: mapped 4 of 6 tests (2 unknown: CoreTests.ArithmeticTests.testBroken, GreeterTests.GreeterTests.crashes()) in "), "\(result)")
        #expect(result.standardOutput.contains("  CoreTests.ArithmeticTests.testBroken: failed while recording: XCTAssertEqual failed"), "\(result)")
        // A crash is given one more run alone, and crashes again.
        #expect(result.standardOutput.contains("prepush: impact: 1 test ended by a signal or with an unreadable profile beside others: running it again alone"), "\(result)")
        #expect(result.standardOutput.contains("  GreeterTests.GreeterTests.crashes(): crashed (signal "), "\(result)")
    }

    @Test func recordingLeavesTheCheckoutCleanAndTheDevelopersBuildFolderAlone() throws {
        let (repo, _) = try Self.repository()
        #expect(try repo.git("status", "--porcelain", "--ignored") == "")
        #expect(!repo.exists("default.profraw"))
        #expect(!repo.exists(".build"))
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.git/prepush/impact-build/_root/debug"))
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/prepush/impact-profiles"))
    }

    @Test func eachTestIsMappedToTheFunctionsItExecutedWithTheirLines() throws {
        let map = try Self.map()
        let add = Self.functions(of: "CoreTests.ArithmeticTests.testAdd", in: map)
        #expect(add.contains { $0.file == "Sources/Core/Arithmetic.swift" && $0.startLine == 1 && $0.endLine == 3 }, "\(add)")
        #expect(!add.contains { $0.file == "Sources/Core/Arithmetic.swift" && $0.startLine == 5 }, "\(add)")
        #expect(!add.contains { $0.file.hasPrefix("Sources/Greeter") }, "\(add)")
        #expect(map.tests.first { $0.identifier == "CoreTests.ArithmeticTests.testAdd" }?.file == "Tests/CoreTests/ArithmeticTests.swift")
        #expect(map.tests.first { $0.identifier == "CoreTests.ArithmeticTests.testAdd" }?.listed == "CoreTests.ArithmeticTests/testAdd")
        // Nothing of the toolchain, of SwiftPM's generated runner (in the scratch path) or of a dependency.
        #expect(!map.functions.contains { $0.file.hasPrefix("/") || $0.file.hasPrefix(".git") || $0.file.contains(".build") }, "\(map.functions)")
        #expect(!map.functions.contains { $0.file == "Sources/Core/Unused.swift" })
        #expect(map.stage == "unit" && map.packageFolder == "" && map.commit.count == 40 && map.toolchain.contains("Swift version"))
    }

    @Test func aParameterizedTestIsOneTestByItsFunction() throws {
        let map = try Self.map()
        #expect(map.tests.filter { $0.identifier.hasPrefix("GreeterTests.GreeterTests.doubles") }.map(\.identifier) == ["GreeterTests.GreeterTests.doubles(value:)"])
        let doubles = Self.functions(of: "GreeterTests.GreeterTests.doubles(value:)", in: map)
        #expect(doubles.contains { $0.file == "Sources/Core/Arithmetic.swift" && $0.startLine == 5 && $0.endLine == 7 }, "\(doubles)")
        #expect(map.tests.first { $0.identifier == "GreeterTests.GreeterTests.doubles(value:)" }?.unknown == nil)
        let crashed = try #require(map.tests.first { $0.identifier == "GreeterTests.GreeterTests.crashes()" })
        #expect(crashed.functions.isEmpty && crashed.unknown?.hasPrefix("crashed (signal ") == true, "\(crashed)")
    }

    @Test func aToolStartedWithAReplacedEnvironmentKeepsItsCoverage() throws {
        let map = try Self.map()
        let tool = Self.functions(of: "GreeterTests.GreeterTests.runsTheTool()", in: map)
        #expect(tool.contains { $0.file == "Sources/greet/main.swift" }, "\(tool)")
        #expect(tool.contains { $0.file == "Sources/Greeter/Greeter.swift" }, "\(tool)")
        // The test itself never calls greeting(for:) in its own process: only the child's profile can say it.
        let greets = Self.functions(of: "GreeterTests.GreeterTests.greets()", in: map)
        #expect(!greets.contains { $0.file == "Sources/greet/main.swift" }, "\(greets)")
    }

    @Test func aRawProfileReadInProcessNamesWhatTheToolNames() throws {
        // The recording's own test bundle, run once more for one test, and its profile read both ways.
        let (repo, _) = try Self.repository()
        let build = repo.path + "/.git/prepush/impact-build/_root/debug"
        let bundle = try #require(try FileManager.default.contentsOfDirectory(atPath: build).first { $0.hasSuffix("PackageTests.xctest") })
        let folder = repo.root.url("profiles-\(UUID())")
        var environment = repo.environment
        environment["LLVM_PROFILE_FILE"] = folder + "/%m.profraw"
        let ran = try CommandOutput.run(ProcessSpec(executable: build + "/" + bundle, arguments: ["CoreTests.ArithmeticTests/testAdd"],
                                                    environment: environment, workingDirectory: repo.path), timeout: 120)
        #expect(ran.succeeded, "\(ran.text)")
        let profile = try #require(try FileManager.default.contentsOfDirectory(atPath: folder).first { $0.hasSuffix(".profraw") })
        let path = folder + "/" + profile
        let tools = try CoverageTools.locate(environment: environment).get()
        let shown = try #require(tools.executedFunctions(in: [path], environment: environment))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        let raw = try #require(RawProfile(bytes))
        #expect(raw.recordCount > 0 && !raw.executed.isEmpty && raw.executed.count < raw.recordCount)
        // Read twice: the first reading is checked against the tool, the second is this reader's own.
        let names = RawProfileNames(tools: tools, environment: environment)
        #expect(names.readsInProcess == nil)
        #expect(names.executedFunctions(in: [path]) == shown)
        #expect(names.readsInProcess == true)
        #expect(names.executedFunctions(in: [path]) == shown)
        #expect(shown.contains { $0.contains("4Core3add") }, "\(shown)")
        // Anything else is left to the tool: another version, a cut file.
        var otherVersion = bytes
        otherVersion[8] = 9
        #expect(RawProfile(otherVersion) == nil)
        #expect(RawProfile(Array(bytes.prefix(bytes.count / 2))) == nil)
        #expect(RawProfile([]) == nil)
    }

    @Test func showListsTheTestsCoveringAFileOnePerLine() throws {
        let (repo, _) = try Self.repository()
        let shown = try InProcessCLI.run(["impact", "show", "Sources/Core/Arithmetic.swift"], in: repo.path, environment: repo.environment)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.standardOutput == """
        CoreTests.ArithmeticTests.testAdd
        GreeterTests.GreeterTests.doubles(value:)
        GreeterTests.GreeterTests.greets()
        GreeterTests.GreeterTests.runsTheTool()

        """, "\(shown)")
        let tool = try InProcessCLI.run(["impact", "show", "greet/main.swift"], in: repo.path + "/Sources", environment: repo.environment)
        #expect(tool.standardOutput == "GreeterTests.GreeterTests.runsTheTool()\n", "\(tool)")
    }

    @Test func aBadFileIsNotImportedAndSaysWhy() throws {
        let (repo, _) = try Self.repository()
        try repo.root.write("{\"version\": 1, \"stage\": \"unit\"", to: "broken.json")
        let broken = try InProcessCLI.run(["impact", "import", repo.root.url("broken.json")], in: repo.path, environment: repo.environment)
        #expect(broken.status == 2, "\(broken)")
        #expect(broken.standardError.contains("broken.json: not an impact map prepush wrote"), "\(broken)")
        let missing = try InProcessCLI.run(["impact", "import", repo.root.url("nothing.json")], in: repo.path, environment: repo.environment)
        #expect(missing.status == 2, "\(missing)")
    }

    @Test func anExportedMapImportsOnAnotherCloneAndShowsTheSame() throws {
        let (repo, _) = try Self.repository()
        let file = repo.root.url("exported.json")
        #expect(try InProcessCLI.run(["impact", "export", file], in: repo.path, environment: repo.environment).status == 0)
        let other = try GitRepository(prefix: "prepush-impact-clone")
        try other.write(".build/\n", to: ".gitignore")
        try other.write("stages:\n  unit:\n    run: swift test\n", to: ".prepush.yml")
        try other.commitAll("another clone")
        let none = try InProcessCLI.run(["impact", "show", "Sources/Core/Arithmetic.swift"], in: other.path, environment: other.environment)
        #expect(none.status == 1 && none.standardError.contains("no impact map of stage unit"), "\(none)")
        let imported = try InProcessCLI.run(["impact", "import", file], in: other.path, environment: other.environment)
        #expect(imported.status == 0, "\(imported)")
        let shown = try InProcessCLI.run(["impact", "show", "Sources/greet/main.swift"], in: other.path, environment: other.environment)
        #expect(shown.standardOutput == "GreeterTests.GreeterTests.runsTheTool()\n", "\(shown)")
    }

    @Test func anExportOverATrackedFileIsRefusedAndLeavesItWhole() throws {
        let (repo, _) = try Self.repository()
        let refused = try InProcessCLI.run(["impact", "export", "Package.swift"], in: repo.path, environment: repo.environment)
        #expect(refused.status == 1, "\(refused)")
        #expect(refused.standardError.contains("tracked by git"), "\(refused)")
        #expect(try String(contentsOfFile: repo.path + "/Package.swift", encoding: .utf8) == Self.manifest)
    }

    @Test func aSecondRecordingOfTheCheckoutWaitsForNoneAndSaysWhy() throws {
        let (repo, _) = try Self.repository()
        let lockPath = repo.path + "/.git/prepush/impact-record.lock"
        let held = open(lockPath, O_RDWR | O_CREAT, 0o644)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        defer { close(held) }
        let result = try InProcessCLI.run(["impact", "record"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("another prepush impact record is running in this checkout"), "\(result)")
    }

    #if !os(macOS)
    @Test func anXcodebuildStageIsRecordedOnAMacAndSaysSoElsewhere() throws {
        let repo = try GitRepository(prefix: "prepush-impact-xcodebuild")
        try repo.write("stages:\n  unit:\n    run: xcodebuild test -scheme App\n    selective: tests\n", to: ".prepush.yml")
        try repo.commitAll("an xcodebuild stage")
        let result = try InProcessCLI.run(["impact", "record"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardError.contains("the xcodebuild stage cannot be recorded: xcodebuild stages are recorded on a Mac with Xcode"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: repo.path + "/.git/prepush/impact-xcode"))
    }
    #endif

    @Test func aStageThatDoesNotRunSwiftTestIsAUsageError() throws {
        let repo = try GitRepository(prefix: "prepush-impact-lint")
        try repo.write("stages:\n  lint:\n    run: swiftlint\n", to: ".prepush.yml")
        try repo.commitAll("lint only")
        let result = try InProcessCLI.run(["impact", "record", "--stage", "lint"], in: repo.path, environment: repo.environment)
        #expect(result.status == 2, "\(result)")
        #expect(result.standardError.contains("stage lint runs neither swift test nor xcodebuild test"), "\(result)")
    }
}
