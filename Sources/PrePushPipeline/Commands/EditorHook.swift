#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit

/// `prepush a11y --editor-hook`: the check as a coding agent's post-edit hook (Claude Code's
/// `PostToolUse`). The event arrives as JSON on stdin; when the edited file is a view the
/// configuration selects, the whole file is checked, and findings go to stderr with exit 2, the
/// status the agent reads back. Anything else (another file, a tool without a file, a file outside a
/// repository's view globs) passes with 0 and prints nothing, so the hook can run after every edit.
package enum EditorHook {
    /// The part of a hook event this reads.
    struct Event: Decodable {
        struct ToolInput: Decodable {
            let filePath: String?
            enum CodingKeys: String, CodingKey { case filePath = "file_path" }
        }
        let cwd: String?
        let toolInput: ToolInput?
        enum CodingKeys: String, CodingKey { case cwd, toolInput = "tool_input" }
    }

    /// Exit status when findings are reported: Claude Code shows stderr to the agent on 2.
    package static let findingsStatus: Int32 = 2

    /// Reads the event from `input`, checks the file, and returns the process's exit status:
    /// 0 nothing to say, 2 findings (on stderr), 1 the event or configuration could not be read
    /// (shown to the user, not the agent).
    package static func run(input: [UInt8], environment: [String: String], console: Console) -> Int32 {
        // What the editor hook says is for the agent or editor, on standard error.
        let diagnostics = Diagnostics(console: console, standardOutputIsReport: true)
        GitLibrary.initialize()
        let event: Event
        do {
            event = try JSONDecoder().decode(Event.self, from: Data(input))
        } catch {
            diagnostics.aside("prepush: the editor hook expects the hook event as JSON on stdin: \(error)")
            return 1
        }
        guard let written = event.toolInput?.filePath, written.hasSuffix(".swift") else { return 0 }
        let base = event.cwd ?? CommandContext.now.here
        let path = written.hasPrefix("/") ? written : FilePath.join(base, written)
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        guard let repository = try? Repository.discover(from: folder.isEmpty ? "/" : folder),
              let root = repository.workingDirectory.flatMap({ FileSystem.realPath($0) }),
              let real = FileSystem.realPath(path), real.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return 0 }
        let relative = String(real.dropFirst(root.hasSuffix("/") ? root.count : root.count + 1))
        let step: AccessibilityStep
        do {
            let request = ConfigurationRequest(flags: ConfigurationFlags(), environment: environment, repositoryRoot: root, currentDirectory: root)
            let configuration = try ConfigurationResolver.resolve(request)
            step = try AccessibilityStep(configuration, root: root)
        } catch {
            diagnostics.error(describing: error)
            return 1
        }
        guard step.selects(relative), case .success(let text) = step.text(ofFile: relative, at: real),
              step.selection(of: relative, text: text).checked else { return 0 }
        let findings = step.baseline.newFindings(step.checkFile(path: relative, text: text))
        guard !findings.isEmpty else { return 0 }
        for finding in findings { diagnostics.aside(AccessibilityStep.line(finding)) }
        diagnostics.aside("prepush: \(findings.count) accessibility finding\(findings.count == 1 ? "" : "s") in \(relative); fix them, or suppress one with // prepush:disable-next-line RULE and say why")
        return findingsStatus
    }
}
