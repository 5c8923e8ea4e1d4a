import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// A team that already runs lefthook gets, from `prepush init`, the entry that runs prepush from its
/// lefthook.yml; the entry works as printed: real lefthook, a real push to a bare remote.
/// Own process: lefthook runs the `prepush` it finds on PATH on a real `git push`: that entry is what is tested.
@Suite struct HookManagerTests {
    static var lefthook: String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/lefthook" }
        return paths.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: HookManagerTests.lefthook != nil))
    func theLefthookEntryInitPrintsRunsPrepushOnPush() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("pre-commit:\n  commands:\n    whitespace:\n      run: git diff --cached --check\n", to: "lefthook.yml")
        let initialised = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(initialised.status == 0, "\(initialised)")
        let lines = initialised.standardOutput.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.hasPrefix("prepush: lefthook.yml is here:") }, "\(initialised)")
        #expect(!initialised.standardOutput.contains("then `prepush install`"), "\(initialised)")
        let entry = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }.joined(separator: "\n")
        try repo.write(try #require(repo.root.read("work/lefthook.yml")) + entry + "\n", to: "lefthook.yml")
        // A stage that leaves a mark when it passes, and fails when asked to.
        try repo.write("stages:\n  unit:\n    run: test ! -e fail && touch '\(repo.root.url("stage-ran"))'\n", to: ".prepush.yml")
        try repo.commitAll("lefthook and prepush")

        var environment = repo.environment
        let binaries = (PrepushBinary.path as NSString).deletingLastPathComponent
        environment["PATH"] = binaries + ":" + (environment["PATH"] ?? "")
        let install = try Command.run(try #require(Self.lefthook), ["install"], in: repo.path, environment: environment)
        #expect(install.status == 0, "\(install)")
        let pushed = try repo.push(environment: ["PATH": environment["PATH"]!])
        #expect(pushed.status == 0 && repo.root.exists("stage-ran"), "\(pushed)")
        #expect(try repo.remoteHead() == (try repo.git("rev-parse", "HEAD")))

        try repo.write("x\n", to: "fail")
        try repo.write("y\n", to: "note.txt")
        try repo.commitAll("a push the stage refuses")
        let refused = try repo.push(environment: ["PATH": environment["PATH"]!])
        #expect(refused.status != 0 && refused.combined.contains("prepush: push refused"), "\(refused)")
        #expect(try repo.remoteHead() != (try repo.git("rev-parse", "HEAD")))
    }

    /// pre-commit's entry is printed too (pre-commit gives no refs on standard input, so it runs `prepush run`).
    @Test func thePreCommitEntryIsPrinted() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("repos: []\n", to: ".pre-commit-config.yaml")
        let result = try InProcessCLI.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains("prepush: .pre-commit-config.yaml is here: run prepush from it (then `pre-commit install --hook-type pre-push`):\n  - repo: local\n"), "\(result)")
        #expect(result.standardOutput.contains("        entry: prepush run ") && result.standardOutput.contains("        stages: [pre-push]\n"))
    }
}
