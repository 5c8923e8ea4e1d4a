import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Colour on a terminal, none in logs and pipes, none with NO_COLOR (no-color.org).
/// Own process: colour follows a real terminal: the binary runs under a pseudo-terminal (util-linux
/// `script`), which a test process's captured output is not.
@Suite struct ColourTests {
    static let red = "\u{1B}[1;31m"

    /// util-linux's `script` (Linux): `-qec COMMAND`; BSD's on macOS takes other arguments.
    static var hasUtilLinuxScript: Bool {
        #if os(Linux)
        return FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
        #else
        return false
        #endif
    }

    /// Runs prepush under a pseudo-terminal (util-linux `script`), as a person at a terminal would.
    func runOnTerminal(_ arguments: [String], in repo: GitRepository, environment extra: [String: String] = [:]) throws -> CommandResult {
        let command = ([PrepushBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        var environment = repo.environment.merging(extra) { $1 }
        environment["TERM"] = "xterm-256color"
        return try Command.run("script", ["-qec", command, "/dev/null"], in: repo.path, environment: environment)
    }

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write("import SwiftUI\nstruct HomeView: View { var body: some View { Button(\"Add\") { } } }\n", to: "Views/HomeView.swift")
        return repo
    }

    @Test(.enabled(if: ColourTests.hasUtilLinuxScript))
    func errorsAreRedOnATerminal() throws {
        let repo = try repository()
        let result = try runOnTerminal(["a11y", "Views/HomeView.swift"], in: repo)
        #expect(result.standardOutput.contains(Self.red + "Views/HomeView.swift:2:47: error: Button has no .accessibilityIdentifier"), "\(result)")
    }

    @Test(.enabled(if: ColourTests.hasUtilLinuxScript))
    func noColourSaysNo() throws {
        let repo = try repository()
        let result = try runOnTerminal(["a11y", "Views/HomeView.swift"], in: repo, environment: ["NO_COLOR": "1"])
        #expect(result.standardOutput.contains("Views/HomeView.swift:2:47: error: Button has no .accessibilityIdentifier"))
        #expect(!result.standardOutput.contains("\u{1B}["))
    }

    @Test func logsAndPipesArePlain() throws {
        let repo = try repository()
        let result = try InProcessCLI.run(["a11y", "Views/HomeView.swift"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1)
        #expect(!result.standardOutput.contains("\u{1B}["))
    }
}
