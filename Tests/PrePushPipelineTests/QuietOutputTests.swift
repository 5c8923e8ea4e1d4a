import Foundation
import PrePushTestSupport
import Testing

/// What a push prints: a few lines when it passes on a terminal, only the verdict and failures with
/// `--quiet`, and nothing about stages nobody configured.
/// Own process: what stays on the screen is read from a pseudo-terminal (util-linux `script`) the binary
/// writes to, its `\r` rewrites included.
@Suite struct QuietOutputTests {
    static let passingConfiguration = """
    stages:
      unit:
        run: printf "Test Case '-[App.LoginTests testLogin]' started.\\nTest Case '-[App.LoginTests testLogin]' passed (0.010 seconds).\\n"
      lint:
        run: "true"

    """

    func repository(_ configuration: String) throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(configuration, to: ".prepush.yml")
        try repo.commitAll("config")
        return repo
    }

    /// Runs prepush on a pseudo-terminal (util-linux `script`), as a developer's push does, and
    /// returns the lines that stay on the screen once each `\r` has rewritten its line.
    func onATerminal(_ repo: GitRepository, _ arguments: [String]) throws -> [String] {
        let command = ([PrepushBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = repo.environment
        environment["NO_COLOR"] = "1"
        let result = try Command.run("script", ["-qec", command, "/dev/null"], in: repo.path, environment: environment)
        // Split on bytes: Swift reads "\r\n" as one character, which no "\n" separator matches.
        let text = result.standardOutput.replacingOccurrences(of: "\u{1B}[2K", with: "")
        return Array(text.utf8).split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
            .map { line in line.split(separator: UInt8(ascii: "\r")).last.map { String(decoding: $0, as: UTF8.self) } ?? "" }
            .filter { !$0.isEmpty }
    }

    @Test func aPassingRunOnATerminalPrintsAtMostFourLines() throws {
        let repo = try repository(Self.passingConfiguration)
        let lines = try onATerminal(repo, ["run", "--no-cache"])
        #expect(lines.count == 3, "\(lines)")
        #expect(Array(lines.prefix(2)) == [
            "prepush: tests: 1 passed, 0 failed",
            "prepush: reports: .prepush/reports/junit.xml, .prepush/reports/results.json, .prepush/reports/results.md",
        ], "\(lines)")
        #expect(lines.last?.hasPrefix("prepush: all stages passed (unit ") == true && lines.last?.contains(" s, lint ") == true, "\(lines)")
    }

    @Test func quietPrintsOnlyTheVerdictWhenAllPass() throws {
        let repo = try repository(Self.passingConfiguration)
        let result = try InProcess.run(["run", "--no-cache", "--quiet"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("prepush: all stages passed (unit "), "\(result.standardOutput)")
        #expect(result.standardOutput.split(separator: "\n").count == 1, "\(result.standardOutput)")
        var environment = repo.environment
        environment["PREPUSH_QUIET"] = "yes"
        let fromEnvironment = try InProcess.run(["run", "--no-cache"], in: repo.path, environment: environment)
        #expect(fromEnvironment.standardOutput.split(separator: "\n").count == 1, "\(fromEnvironment.standardOutput)")
    }

    @Test func quietKeepsTheFailureItsDetailsAndTheVerdict() throws {
        let repo = try repository("""
        stages:
          lint:
            run: "true"
          unit:
            run: 'echo "Tests/AppTests/LoginTests.swift:12: error: -[AppTests.LoginTests testLogin] : XCTAssertTrue failed"; exit 1'

        """)
        let result = try InProcess.run(["run", "--no-cache", "--quiet"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("prepush ✘ unit: failed (exit 1) after ") == true, "\(lines)")
        // The lone XCTest failure line is the failed test, shown with its place and message.
        #expect(lines.contains { $0 == "   Tests/AppTests/LoginTests.swift:12: error: AppTests.LoginTests.testLogin: XCTAssertTrue failed" }, "\(lines)")
        #expect(lines.last?.hasPrefix("prepush: checks failed: unit: failed (exit 1) after ") == true, "\(lines)")
        #expect(!lines.contains { $0.contains("▸") || $0.contains("✔") || $0.hasPrefix("prepush: reports") }, "\(lines)")
    }

    @Test func stagesNobodyConfiguredAreNotSaidOnEveryRun() throws {
        let repo = try repository("stages:\n  unit:\n    run: \"true\"\n")
        let result = try InProcess.run(["run", "--no-cache"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0)
        #expect(!result.standardOutput.contains("not configured"), "\(result.standardOutput)")
        let verbose = try InProcess.run(["run", "--no-cache", "--verbose"], in: repo.path, environment: repo.environment)
        #expect(verbose.standardOutput.contains("prepush – ui: not configured (set stages.ui.run in .prepush.yml)"))
    }
}
