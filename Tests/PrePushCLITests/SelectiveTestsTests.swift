import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `selective: true` on a real package built here: Core ← Feature ← App, and Other beside them,
/// each with a test target. A change runs the tests of what it can affect and nothing else.
@Suite(.serialized) struct SelectiveTestsTests {
    static let manifest = """
    // swift-tools-version:6.0
    import PackageDescription

    let package = Package(
        name: "Chain",
        targets: [
            .target(name: "Core"),
            .target(name: "Feature", dependencies: ["Core"]),
            .target(name: "App", dependencies: ["Feature"]),
            .target(name: "Other"),
            .testTarget(name: "CoreTests", dependencies: ["Core"]),
            .testTarget(name: "FeatureTests", dependencies: ["Feature"]),
            .testTarget(name: "AppTests", dependencies: ["App"]),
            .testTarget(name: "OtherTests", dependencies: ["Other"]),
            // A test that runs an executable's binary without depending on it (as swift-argument-parser's do),
            // and an executable no test names.
            .executableTarget(name: "tool"),
            .testTarget(name: "ToolTests"),
            .executableTarget(name: "script"),
        ]
    )

    """

    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-selective")
        try repo.write(SelectiveTestsTests.manifest, to: "Package.swift")
        let modules: [(String, String?)] = [("Core", nil), ("Feature", "Core"), ("App", "Feature"), ("Other", nil)]
        for (name, dependency) in modules {
            let value = dependency.map { "\($0).value" } ?? "1"
            try repo.write("\(dependency.map { "import \($0)\n" } ?? "")public let value = \(value)\n", to: "Sources/\(name)/\(name).swift")
            try repo.write("import Testing\nimport \(name)\n\n@Test func works() { #expect(value == 1) }\n", to: "Tests/\(name)Tests/\(name)Tests.swift")
        }
        try repo.write("print(42)\n", to: "Sources/tool/main.swift")
        try repo.write("print(\"script\")\n", to: "Sources/script/main.swift")
        try repo.write("""
        import Foundation
        import Testing

        @Test func toolPrintsTheAnswer() throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath + "/.build/debug/tool")
            let pipe = Pipe()
            process.standardOutput = pipe
            try process.run()
            process.waitUntilExit()
            #expect(String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) == "42\\n")
        }

        """, to: "Tests/ToolTests/ToolTests.swift")
        try repo.write("# Chain\n", to: "README.md")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("""
        cache: false
        stages:
          unit:
            run: swift build --build-tests -q && swift test --skip-build --event-stream-output-path .build/events.jsonl --event-stream-version 0
            selective: true

        """, to: ".prepush.yml")
        try repo.commitAll("the package")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    static func package() throws -> GitRepository { try built.repository() }

    /// Commits `change` and runs the stage on that commit alone (`--base HEAD~1`).
    func runAfter(_ repo: GitRepository, writing text: String, to file: String) throws -> CommandResult {
        try repo.write(text, to: file)
        try repo.commitAll("change \(file)")
        return try InProcessCLI.run(["run", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)
    }

    @Test func aChangeInTheMiddleRunsItsTestsAndItsDependentsOnly() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "import Core\npublic let value = Core.value // \(UUID())\n", to: "Sources/Feature/Feature.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: unit: selective: 2 of 5 test targets (FeatureTests and AppTests), for changes in Feature"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("--filter '^(FeatureTests|AppTests)\\.'"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 2 passed, 0 failed"), "\(result.standardOutput)")
    }

    @Test func aChangeToALeafTestTargetRunsOnlyIt() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "import Testing\nimport Other\n\n@Test func works() { #expect(value == 1) } // \(UUID())\n",
                                  to: "Tests/OtherTests/OtherTests.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("selective: 1 of 5 test targets (OtherTests), for changes in OtherTests"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 1 passed, 0 failed"), "\(result.standardOutput)")
    }

    @Test func aPushOfDocsOnlyRunsNoTestStageAndSaysWhy() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "# Chain\n\(UUID())\n", to: "README.md")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush – unit: skipped (selective: the push changes no target, only README.md)"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("prepush: tests:"))
    }

    @Test func aManifestChangeRunsEverything() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: Self.manifest + "// \(UUID())\n", to: "Package.swift")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: note: unit: selective: every test runs (Package.swift changed)"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: tests: 5 passed, 0 failed"), "\(result.standardOutput)")
    }

    @Test func aChangeToAnExecutableRunsTheTestsThatRunItAndRefusesOnTheirFailure() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "print(41)\n", to: "Sources/tool/main.swift")
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("selective: 1 of 5 test targets (ToolTests), for changes in tool"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("toolPrintsTheAnswer"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("prepush: checks failed: unit: failed"), "\(result.standardOutput)")
        _ = try runAfter(repo, writing: "print(42)\n", to: "Sources/tool/main.swift")
    }

    @Test func aTypeErrorWhereNoTestReachesStillRefuses() throws {
        let repo = try Self.package()
        let broken = try runAfter(repo, writing: "let answer: Int = \"forty-two\"\nprint(answer)\n", to: "Sources/script/main.swift")
        #expect(broken.status == 1, "\(broken)")
        #expect(broken.standardOutput.contains("prepush: unit: selective: no test target depends on script; every target is built (swift build --build-tests), no test runs"), "\(broken.standardOutput)")
        #expect(broken.standardOutput.contains("error: cannot convert value of type 'String' to specified type 'Int'"), "\(broken.standardOutput)")
        // Fixed, the same push passes, and the verdict says what it left out.
        let fixed = try runAfter(repo, writing: "print(\"script\") // \(UUID())\n", to: "Sources/script/main.swift")
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.standardOutput.contains("prepush: all stages passed (unit "), "\(fixed.standardOutput)")
        #expect(fixed.standardOutput.contains(": 5 of 5 test targets left out, none reaches script)"), "\(fixed.standardOutput)")
    }

    @Test func aPushWhoseStagesAreAllLeftOutSaysWhy() throws {
        let repo = try Self.package()
        let result = try runAfter(repo, writing: "# Chain\n\(UUID())\n", to: "README.md")
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: passed; no stage ran (unit skipped (selective: the push changes no target, only README.md))"), "\(result.standardOutput)")
        #expect(!result.standardOutput.contains("all stages passed ()"), "\(result.standardOutput)")
    }
}
