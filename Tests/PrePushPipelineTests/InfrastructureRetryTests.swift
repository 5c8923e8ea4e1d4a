import Foundation
import PrePushTestSupport
import Testing

/// `retryOn: infrastructure`: a stage the test infrastructure stopped before any test began (one of
/// the known messages, no test result) runs again whole, once; any other failure does not.
@Suite struct InfrastructureRetryTests {
    /// A repository whose UI stage fails the first time with `output` and exit 65, then exits 0;
    /// the attempts are counted in a file outside the working tree.
    func repository(first output: String, retryOn: String?, messages: String? = nil) throws -> (GitRepository, TemporaryDirectory) {
        let repo = try GitRepository()
        let state = try TemporaryDirectory(prefix: "prepush-infrastructure")
        try repo.write("""
        #!/bin/sh
        n=$(cat "$ATTEMPTS" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$ATTEMPTS"
        if [ "$n" -eq 1 ]; then printf '%s\\n' "\(output)"; exit 65; fi
        echo "attempt $n ran"

        """, to: "ui.sh", executable: true)
        try repo.write("""
        cache: false
        stages:
          ui:
            run: ./ui.sh
        \(retryOn.map { "    retryOn: \($0)\n" } ?? "")\(messages.map { "    infrastructureMessages: \($0)\n" } ?? "")    env:
              ATTEMPTS: \(state.url("attempts"))

        """, to: ".prepush.yml")
        try repo.commitAll("a UI stage")
        return (repo, state)
    }

    static let runnerNeverBegan = "Testing failed: Test runner never began executing tests after launching."

    @Test func aRunTheInfrastructureStoppedRunsAgainOnce() throws {
        let (repo, state) = try repository(first: Self.runnerNeverBegan, retryOn: "infrastructure")
        let run = try InProcess.run(in: repo.path, environment: repo.environment, base: "HEAD")
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput.contains("prepush: note: ui: the test infrastructure failed before any test began (Test runner never began executing tests after launching); running the stage again, once"), "\(run)")
        #expect(state.read("attempts") == "2\n")
        #expect(FileManager.default.fileExists(atPath: repo.path + "/.prepush/reports/ui.attempt-2.log"))
    }

    @Test func aTeamsOwnMessageCountsToo() throws {
        let (repo, state) = try repository(first: "CoreSimulatorService connection interrupted", retryOn: "infrastructure",
                                           messages: "[\"CoreSimulatorService connection interrupted\"]")
        let run = try InProcess.run(in: repo.path, environment: repo.environment, base: "HEAD")
        #expect(run.status == 0, "\(run)")
        #expect(state.read("attempts") == "2\n")
    }

    @Test func withoutRetryOnOrWithoutAKnownMessageTheFailureStands() throws {
        let (plain, plainState) = try repository(first: Self.runnerNeverBegan, retryOn: nil)
        let once = try InProcess.run(in: plain.path, environment: plain.environment, base: "HEAD")
        #expect(once.status == 1, "\(once)")
        #expect(plainState.read("attempts") == "1\n")

        let (other, otherState) = try repository(first: "error: the build failed", retryOn: "infrastructure")
        let failed = try InProcess.run(in: other.path, environment: other.environment, base: "HEAD")
        #expect(failed.status == 1, "\(failed)")
        #expect(otherState.read("attempts") == "1\n")
    }
}
