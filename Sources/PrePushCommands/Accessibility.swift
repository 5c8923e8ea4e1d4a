import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushPipeline

extension Prepush {
    struct A11y: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "a11y",
            abstract: "Check SwiftUI views for accessibility: files, a range, or the whole tree.",
            discussion: """
            Exit status: 0 no error finding, 1 an error finding, 2 bad usage or configuration.

            Examples:
              prepush a11y App/Views/HomeView.swift          whole files as they are on disk
              prepush a11y --base origin/main --head HEAD    the lines a range changed (CI)
              prepush a11y --all --format json               every view file of the working tree
              prepush a11y                                   in GitHub Actions, GitLab CI or Jenkins: the job's range
              prepush a11y --base origin/main --format sarif > a11y.sarif   for code scanning
              prepush a11y --editor-hook < event.json        as Claude Code's PostToolUse hook (hooks/claude-post-edit)
            """
        )

        @Argument(help: "Files to check whole.")
        var files: [String] = []

        @Option(help: "Check the range from this revision (with --head).")
        var base: String?

        @Option(help: "The end of the range (default HEAD).")
        var head: String = "HEAD"

        @Flag(help: "Check every selected view file of the working tree.")
        var all = false

        @Flag(name: .customLong("editor-hook"), help: "Read a coding agent's post-edit hook event (JSON) on stdin and check the edited view; findings to stderr, exit 2.")
        var editorHook = false

        @Flag(name: .customLong("all-lines"), help: "With --base: whole changed files, not only the changed lines.")
        var allLines = false

        @Flag(name: .customLong("explain-selection"), help: "Say for every Swift file looked at whether it was checked, and why (SwiftUI code, include/exclude).")
        var explainSelection = false

        @Option(name: .customLong("stdin-path"), help: ArgumentHelp("Check the text on standard input as the file at this path (an editor's buffer).", valueName: "path"))
        var stdinPath: String?

        @Option(name: .customLong("write-baseline"), help: ArgumentHelp("Record the findings in this file instead of reporting them; with accessibility.baseline set to it, only new findings are reported.", valueName: "path"))
        var writeBaseline: String?

        @Option(help: "text, json or sarif (SARIF 2.1.0 for code scanning).")
        var format: String = "text"

        @OptionGroup var configFile: ConfigFileOption

        func validate() throws {
            let modes = [!files.isEmpty, base != nil, all, editorHook, stdinPath != nil].filter { $0 }.count
            if modes > 1 || (modes == 0 && CIRange.detect(environment: CommandContext.now.environment) == nil) {
                throw ValidationError("name files, or --base REF, or --all, or --editor-hook, or --stdin-path PATH (one of them); in CI the range comes from the job")
            }
            if AccessibilityOutput(rawValue: format) == nil { throw ValidationError("--format is text, json or sarif") }
        }

        func run() throws {
            if editorHook {
                let status = EditorHook.run(input: FileSystem.readAll(CommandContext.now.standardInput), environment: CommandContext.now.environment, console: CommandContext.now.console)
                throw ExitCode(status)
            }
            var target: AccessibilityTarget = all ? .all : base.map { .range(base: $0, head: head, allLines: allLines) } ?? .files(files)
            if let stdinPath { target = .standardInput(path: stdinPath, bytes: FileSystem.readAll(CommandContext.now.standardInput)) }
            // Nothing named, in CI: the range the job pushes.
            if files.isEmpty, base == nil, !all, stdinPath == nil { target = .ciRange(allLines: allLines) }
            let flags = configFile.flags
            let status = AccessibilityRun.run(target, output: AccessibilityOutput(rawValue: format) ?? .text, flags: flags,
                                              environment: CommandContext.now.environment,
                                              explainSelection: explainSelection, writeBaseline: writeBaseline, console: CommandContext.now.console)
            throw ExitCode(status.rawValue)
        }
    }
}
