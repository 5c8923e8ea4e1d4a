#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushRunner

/// `prepush demo`: builds a temporary repository holding the AgenticTodo app as a Swift package (model,
/// app state, SwiftUI views with the spec's identifiers, unit and flow tests, a scenario catalog,
/// `.prepush.yml`), a local bare remote and the installed hook, then pushes twice for real: the first
/// passes every step and writes every report (the remote moves); the second drops an identifier and
/// adds an icon-only button, and is refused with the findings (the remote stays).
package struct DemoRun {
    /// Keep the temporary folder afterwards.
    package let keep: Bool
    /// The prepush binary the demo's hook runs.
    package let executablePath: String
    /// Where the demo reports.
    package let console: Console
    /// Where the demo's own errors go.
    let diagnostics: Diagnostics

    /// Creates a demo run.
    package init(keep: Bool, executablePath: String, console: Console) {
        self.keep = keep
        self.executablePath = executablePath
        self.console = console
        diagnostics = Diagnostics(console: console)
    }

    /// Runs the demo; `.success` when both pushes had the expected outcome.
    package func run() -> ExitStatus {
        let root = FilePath.join(ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp", "prepush-demo-\(UUID().uuidString.prefix(8))")
        defer {
            if keep {
                console.line("demo: kept \(root)")
            } else {
                try? FileManager.default.removeItem(atPath: root)
            }
        }
        let clock = ContinuousClock()
        let started = clock.now
        defer { console.line("demo: finished in \((clock.now - started).components.seconds) s, the package build included") }
        do {
            return try runSteps(root: root)
        } catch {
            diagnostics.aside("demo: \(error)")
            return .failure
        }
    }

    private func runSteps(root: String) throws -> ExitStatus {
        let app = FilePath.join(root, "AgenticTodo")
        let remote = FilePath.join(root, "origin.git")
        let git = DemoGit(environment: Self.isolatedEnvironment(root: root), console: console)
        try FileManager.default.createDirectory(atPath: app, withIntermediateDirectories: true)
        try Data().write(to: URL(fileURLWithPath: FilePath.join(root, "gitconfig")))

        guard let source = DemoFiles.sourceFolder(environment: ProcessInfo.processInfo.environment, executablePath: executablePath) else {
            diagnostics.aside("demo: the example app is not here: set PREPUSH_DEMO_SOURCE to a copy of prepush's Examples/AgenticTodo")
            return .usage
        }
        console.line("demo: creating \(app): the AgenticTodo app (a Swift package with a scenario catalog and .prepush.yml, copied from \(source)) and a bare remote")
        try git.run(["init", "--quiet", "--bare", remote], in: root)
        try git.run(["init", "--quiet", "-b", "main"], in: app)
        for path in try DemoFiles.files(in: source) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: FilePath.join(source, path)))
            try write(String(decoding: bytes, as: UTF8.self), to: path, in: app)
        }
        // With Xcode and an iPhone simulator here, the UI stage is the app's XCUITest target.
        let uiStage: String
        if let simulator = DemoUIStage.findSimulator(environment: ProcessInfo.processInfo.environment),
           let original = try? String(contentsOfFile: FilePath.join(app, ".prepush.yml"), encoding: .utf8),
           let configuration = DemoUIStage.configuration(original, testingOn: simulator) {
            try write(configuration, to: ".prepush.yml", in: app)
            uiStage = "demo: the UI stage runs the XCUITest target of App/AgenticTodoApp.xcodeproj with xcodebuild on the \(simulator.name) simulator (\(simulator.udid)); prepush reads its result bundle"
        } else {
            uiStage = "demo: the UI stage runs the app's flow tests with swift test: there is no Xcode with an iPhone simulator here (xcrun simctl), which the XCUITest target in App/AgenticTodoApp.xcodeproj needs"
        }
        try git.run(["remote", "add", "origin", remote], in: app)
        let installer = HookInstaller(hooksDirectory: FilePath.join(app, ".git/hooks"),
                                      executablePath: executablePath)
        _ = try installer.install()
        console.line("demo: installed the pre-push hook at \(installer.hookPath)")
        try git.run(["add", "-A"], in: app)
        try git.run(["commit", "--quiet", "-m", "AgenticTodo: model, app state, SwiftUI screens, unit and flow tests, scenarios"], in: app)

        console.line(uiStage)
        console.line("\ndemo: push 1 — the views pass the accessibility check, the unit and UI stages pass, every report is written")
        let first = try git.push(in: app)
        let afterFirst = git.branchHead("main", in: remote)
        let head = try git.output(["rev-parse", "HEAD"], in: app)
        let reports = FilePath.join(app, ".prepush/reports")
        let missingReports = DemoFiles.expectedReports.filter { !FileManager.default.fileExists(atPath: FilePath.join(reports, $0)) }
        let firstOK = first.termination == .exited(0) && afterFirst == head && missingReports.isEmpty

        let homeScreen = FilePath.join(app, DemoFiles.homeScreen)
        guard let original = FileManager.default.contents(atPath: homeScreen),
              let broken = DemoFiles.brokenHomeScreen(String(decoding: original, as: UTF8.self)) else {
            diagnostics.aside("demo: could not edit \(DemoFiles.homeScreen)")
            return .failure
        }
        try Data(broken.utf8).write(to: URL(fileURLWithPath: homeScreen))
        try git.run(["commit", "--quiet", "-am", "Home screen: a sort button (and the add button loses its identifier)"], in: app)
        console.line("\ndemo: push 2 — the home screen drops an identifier and adds an icon-only button; the push should be refused with the findings")
        let second = try git.push(in: app)
        let afterSecond = git.branchHead("main", in: remote)
        let findingsShown = ["[missing-identifier]", "[icon-button-missing-label]"].allSatisfy { second.output.contains($0) }
        let secondOK = second.termination != .exited(0) && afterSecond == afterFirst && findingsShown

        console.line("")
        console.line("demo: push 1 \(firstOK ? "passed as expected" : "did NOT pass as expected"); origin/main is \(afterFirst.map { String($0.prefix(7)) } ?? "absent")")
        if !missingReports.isEmpty { console.line("demo: missing reports: \(missingReports.joined(separator: ", "))") }
        console.line("demo: push 2 \(secondOK ? "was refused as expected" : "was NOT refused as expected"); origin/main \(afterSecond == afterFirst ? "did not move" : "moved")")
        console.line("demo: reports of push 1 in \(reports)\(keep ? "" : " (deleted on exit; pass --keep to keep them)"):")
        for report in DemoFiles.expectedReports where FileManager.default.fileExists(atPath: FilePath.join(reports, report)) {
            console.line("   \(FilePath.join(reports, report))")
        }
        return firstOK && secondOK ? .success : .failure
    }

    private func write(_ text: String, to path: String, in folder: String) throws {
        let full = FilePath.join(folder, path)
        try FileManager.default.createDirectory(atPath: FilePath.parent(full), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: full))
    }

    /// The demo must behave the same on every machine: no global git configuration (a global
    /// core.hooksPath would bypass the demo's hook), none of prepush's own variables, and no CI's
    /// (the demo is a developer's push from a laptop, also when CI runs it).
    static func isolatedEnvironment(root: String) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { key, _ in
            !key.hasPrefix("GIT_") && !key.hasPrefix("PREPUSH_") && !key.hasPrefix("GITHUB_")
                && !["UI_TEST_TIMEOUT", "UI_TEST_VERBOSE", "SKIP_UI_TESTS", "CI"].contains(key)
        }
        environment["GIT_CONFIG_GLOBAL"] = FilePath.join(root, "gitconfig")
        environment["GIT_CONFIG_NOSYSTEM"] = "1"
        environment["GIT_AUTHOR_NAME"] = "prepush demo"
        environment["GIT_AUTHOR_EMAIL"] = "demo@prepush.invalid"
        environment["GIT_COMMITTER_NAME"] = "prepush demo"
        environment["GIT_COMMITTER_EMAIL"] = "demo@prepush.invalid"
        return environment
    }
}

/// Why a step of the demo failed.
enum DemoError: Error, CustomStringConvertible {
    case gitFailed(arguments: [String], termination: Termination, output: String)

    var description: String {
        switch self {
        case .gitFailed(let arguments, let termination, let output):
            return "git \(arguments.joined(separator: " ")) failed (\(termination)):\n\(output)"
        }
    }
}

/// Runs git for the demo with argv arrays.
struct DemoGit {
    let environment: [String: String]
    let console: Console

    func run(_ arguments: [String], in folder: String) throws {
        _ = try output(arguments, in: folder)
    }

    func output(_ arguments: [String], in folder: String) throws -> String {
        let ran = try CommandOutput.run(ProcessSpec(executable: "git", arguments: arguments, environment: environment, workingDirectory: folder),
                                        timeout: 60, mergingStandardError: true)
        guard ran.succeeded else { throw DemoError.gitFailed(arguments: arguments, termination: ran.outcome.termination, output: ran.text) }
        return ran.text
    }

    /// The commit a branch points at, or nil when the branch does not exist.
    func branchHead(_ branch: String, in folder: String) -> String? {
        try? output(["rev-parse", "--verify", "--quiet", "refs/heads/\(branch)"], in: folder)
    }

    /// `git push`, its output (and the hook's) shown as it comes and kept to check.
    func push(in folder: String) throws -> (termination: Termination, output: String) {
        let console = self.console
        var collected: [UInt8] = []
        let outcome = try ProcessGroupRunner.run(
            ProcessSpec(executable: "git", arguments: ["push", "origin", "main"], environment: environment, workingDirectory: folder),
            options: RunOptions(timeout: 900, signals: nil) { channel, bytes in
                collected += bytes
                console.passThrough(bytes, fromStandardError: channel == .standardError)
            })
        return (outcome.termination, String(decoding: collected, as: UTF8.self))
    }
}

