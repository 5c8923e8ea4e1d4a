import Foundation

/// A real git repository in a temporary folder with a local bare remote named `origin`, driven by
/// the real `git` command with a configuration isolated from the machine's.
public final class GitRepository: @unchecked Sendable {
    /// Holds everything; removed with the value.
    public let root: TemporaryDirectory
    /// The working tree.
    public let path: String
    /// The bare remote.
    public let remotePath: String
    /// The environment every command here runs with (no global or system git config).
    public let environment: [String: String]

    /// Creates `work/` (branch `main`) and `origin.git/`, and adds `origin`.
    public init(prefix: String = "prepush-repo") throws {
        root = try TemporaryDirectory(prefix: prefix)
        path = root.url("work")
        remotePath = root.url("origin.git")
        try root.write("", to: "gitconfig")
        environment = Self.isolatedEnvironment(globalConfig: root.url("gitconfig"), home: root.path)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try git("init", "--quiet", "--bare", remotePath)
        try git("init", "--quiet", "-b", "main")
        try git("remote", "add", "origin", remotePath)
    }

    /// prepush's and git's variables removed, git's configuration isolated, author fixed.
    public static func isolatedEnvironment(globalConfig: String, home: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("GIT_") && !key.hasPrefix("PREPUSH_")
                && !["UI_TEST_TIMEOUT", "UI_TEST_VERBOSE", "SKIP_UI_TESTS", "GITHUB_ACTIONS", "CI", "NO_COLOR"].contains(key)
        }
        environment["GIT_CONFIG_GLOBAL"] = globalConfig
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_AUTHOR_NAME"] = "Test"
        environment["GIT_AUTHOR_EMAIL"] = "test@prepush.invalid"
        environment["GIT_COMMITTER_NAME"] = "Test"
        environment["GIT_COMMITTER_EMAIL"] = "test@prepush.invalid"
        environment["HOME"] = home
        return environment
    }

    /// Runs git in the working tree; throws with its output when it fails.
    @discardableResult
    public func git(_ arguments: String..., environment extra: [String: String] = [:]) throws -> String {
        try gitResult(arguments, environment: extra).checked().standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs git in the working tree and returns whatever happened.
    public func gitResult(_ arguments: [String], environment extra: [String: String] = [:]) throws -> CommandResult {
        try Command.run("git", arguments, in: path, environment: environment.merging(extra) { $1 })
    }

    /// Writes a file in the working tree.
    @discardableResult
    public func write(_ text: String, to relative: String, executable: Bool = false) throws -> String {
        let full = (path as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: full) }
        return full
    }

    /// Writes bytes (a binary, text in another encoding) to a file in the working tree.
    public func write(_ data: Data, to relative: String) throws {
        let full = (path as NSString).appendingPathComponent(relative)
        try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
    }

    /// A UI test target's file (`XCUIApplication`) that queries an identifier, and the tagged screen
    /// it queries: the repository of a team whose UI tests use identifiers, so `missing-identifier`
    /// applies to it (it is quiet where a repository shows no such practice).
    @discardableResult
    public func addUITests() throws -> String {
        try addTaggedScreen()
        return try write("""
        import XCTest

        final class AppUITests: XCTestCase {
            func test_home_addsAnItem() {
                let app = XCUIApplication()
                app.launch()
                app.buttons["home_button_add"].tap()
            }
        }

        """, to: "UITests/AppUITests.swift")
    }

    /// Writes a screen whose six controls all have identifiers: the repository shows a team that
    /// tags its controls, so `missing-identifier` applies to it (docs/accessibility.md).
    @discardableResult
    public func addTaggedScreen(at relative: String = "App/Tagged/TaggedScreen.swift") throws -> String {
        try write("""
        import SwiftUI

        struct TaggedScreen: View {
            @State private var name = ""
            @State private var on = false
            var body: some View {
                Form {
                    Button("Add") { add() }.accessibilityIdentifier("home_button_add")
                    Button("Share") { share() }.accessibilityIdentifier("home_button_share")
                    TextField("Name", text: $name).accessibilityIdentifier("home_field_name")
                    Toggle("Done", isOn: $on).accessibilityIdentifier("home_toggle_done")
                    Button("Delete") { delete() }.accessibilityIdentifier("home_button_delete")
                    Button("Archive") { archive() }.accessibilityIdentifier("home_button_archive")
                }
            }
        }

        """, to: relative)
    }

    /// Whether a file exists in the working tree.
    public func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent(relative))
    }

    /// Stages everything and commits.
    public func commitAll(_ message: String) throws {
        try git("add", "-A")
        try git("commit", "--quiet", "-m", message)
    }

    /// `git push origin <refspec>` with the repository's environment plus `extra`.
    public func push(_ refspec: String = "main", environment extra: [String: String] = [:]) throws -> CommandResult {
        try gitResult(["push", "origin", refspec], environment: extra)
    }

    /// `git push`, awaited without holding a thread of the test run (see the `async` `Command.run`).
    public func push(_ refspec: String = "main", environment extra: [String: String] = [:]) async throws -> CommandResult {
        try await Command.run("git", ["push", "origin", refspec], in: path, environment: environment.merging(extra) { $1 })
    }

    /// The object a branch points at on the remote, or nil when it does not exist there.
    public func remoteHead(_ branch: String = "main") throws -> String? {
        let result = try Command.run("git", ["--git-dir", remotePath, "rev-parse", "--verify", "--quiet", "refs/heads/\(branch)"],
                                     environment: environment)
        return result.status == 0 ? result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    /// The commit `HEAD` points at.
    public func head() throws -> String { try git("rev-parse", "HEAD") }
}

/// Raised when a helper command fails.
public struct CommandFailure: Error, CustomStringConvertible {
    /// What ran and what it printed.
    public let result: CommandResult
    public var description: String { "command failed: \(result)" }
}

extension CommandResult {
    /// Self when the status is 0; otherwise throws with the output.
    public func checked() throws -> CommandResult {
        guard status == 0 else { throw CommandFailure(result: self) }
        return self
    }
}
