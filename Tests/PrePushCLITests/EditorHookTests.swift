import Foundation
import PrePushTestSupport
import Testing

/// hooks/claude-post-edit, fed the events Claude Code sends after an edit.
/// Own process: hooks/claude-post-edit is a shell script that runs the `prepush` it finds on PATH, fed
/// the event on stdin; its exit status and stderr are what Claude Code reads.
@Suite struct EditorHookTests {
    let script = Fixtures.repositoryRoot.appendingPathComponent("hooks/claude-post-edit").path

    /// A PostToolUse event as Claude Code writes it for its Edit tool.
    func event(file: String, cwd: String, tool: String = "Edit") -> String {
        """
        {"session_id":"abc123","transcript_path":"/tmp/t.jsonl","cwd":"\(cwd)","hook_event_name":"PostToolUse",\
        "tool_name":"\(tool)","tool_input":{"file_path":"\(file)","old_string":"a","new_string":"b"},\
        "tool_response":{"filePath":"\(file)","success":true}}
        """
    }

    /// Runs the script with prepush on PATH.
    func runHook(_ input: String, in repo: GitRepository, path: String? = nil) throws -> CommandResult {
        let folder = (PrepushBinary.path as NSString).deletingLastPathComponent
        var environment = repo.environment
        environment["PATH"] = path ?? "\(folder):/usr/bin:/bin"
        return try Command.run(script, [], in: repo.path, environment: environment, standardInput: input)
    }

    @Test func findingsInAnEditedViewGoToStderrWithStatus2() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        let file = try repo.write("import SwiftUI\nstruct HomeView: View {\n    var body: some View {\n        Button(\"Add\") { }\n    }\n}\n", to: "App/Views/HomeView.swift")
        let result = try runHook(event(file: file, cwd: repo.path), in: repo)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("App/Views/HomeView.swift:4:9: error: Button has no .accessibilityIdentifier"))
        #expect(result.standardError.contains("1 accessibility finding in App/Views/HomeView.swift"))
    }

    @Test func aCleanViewAnotherFileOrAnotherToolSaysNothing() throws {
        let repo = try GitRepository()
        let clean = try repo.write("import SwiftUI\nstruct HomeView: View {\n    var body: some View { Text(\"Hi\") }\n}\n", to: "App/Views/HomeView.swift")
        let model = try repo.write("struct Model { func b() { Button(\"x\") { } } }\n", to: "App/Model/Model.swift")
        for input in [event(file: clean, cwd: repo.path), event(file: model, cwd: repo.path),
                      event(file: "App/Views/HomeView.swift", cwd: repo.path, tool: "Write"),
                      #"{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}"#] {
            let result = try runHook(input, in: repo)
            #expect(result.status == 0, "\(input): \(result)")
            #expect(result.combined.isEmpty)
        }
    }

    @Test func aRelativePathIsReadFromTheEventsFolder() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write("import SwiftUI\nstruct V: View { var body: some View { Toggle(\"On\", isOn: $on) } }\n", to: "Views/SettingsView.swift")
        let result = try runHook(event(file: "Views/SettingsView.swift", cwd: repo.path), in: repo)
        #expect(result.status == 2)
        #expect(result.standardError.contains("Views/SettingsView.swift:2:40: error: Toggle has no .accessibilityIdentifier"))
    }

    @Test func aBadEventOrAMissingPrepushIsTheUsersNotTheAgents() throws {
        let repo = try GitRepository()
        let garbled = try runHook("not json", in: repo)
        #expect(garbled.status == 1)
        #expect(garbled.standardError.contains("expects the hook event as JSON on stdin"))
        let missing = try runHook(event(file: "x.swift", cwd: repo.path), in: repo, path: "/usr/bin:/bin")
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("needs prepush on PATH"))
    }
}
