import Foundation
import PrePushPipeline
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

@Suite struct CIRangeTests {
    @Test func gitHubPullRequestsAndPushes() throws {
        #expect(CIRange.detect(environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"])
            == CIRange(base: "refs/remotes/origin/main", head: "HEAD", origin: "GitHub pull_request into main"))
        let folder = try TemporaryDirectory()
        let push = try folder.write(#"{"before": "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d", "repository": {"default_branch": "trunk"}}"#, to: "push.json")
        #expect(CIRange.detect(environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": push])?.base
            == "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d")
        let newBranch = try folder.write(#"{"before": "0000000000000000000000000000000000000000", "repository": {"default_branch": "trunk"}}"#, to: "new.json")
        #expect(CIRange.detect(environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": newBranch])?.base == "refs/remotes/origin/trunk")
        #expect(CIRange.detect(environment: ["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "workflow_dispatch"]) == nil)
    }

    @Test func gitLabAndJenkins() {
        #expect(CIRange.detect(environment: ["GITLAB_CI": "true", "CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "develop"])?.base == "refs/remotes/origin/develop")
        #expect(CIRange.detect(environment: ["GITLAB_CI": "true", "CI_COMMIT_BEFORE_SHA": "abc123"])?.base == "abc123")
        #expect(CIRange.detect(environment: ["GITLAB_CI": "true", "CI_COMMIT_BEFORE_SHA": "0000000000000000000000000000000000000000",
                                             "CI_DEFAULT_BRANCH": "main"])?.base == "refs/remotes/origin/main")
        #expect(CIRange.detect(environment: ["JENKINS_URL": "https://ci.example", "CHANGE_TARGET": "main"])?.base == "refs/remotes/origin/main")
        #expect(CIRange.detect(environment: ["JENKINS_URL": "https://ci.example"]) == nil, "a branch build without a change")
        #expect(CIRange.detect(environment: [:]) == nil)
    }

    /// A pull request's job, as GitHub Actions runs it: the check finds the range from the event and
    /// writes annotations.
    @Test func a11yInAPullRequestJobChecksTheBranchesChanges() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write("import SwiftUI\nstruct OldView: View { var body: some View { Toggle(\"x\", isOn: .constant(true)) } }\n", to: "Views/OldView.swift")
        try repo.commitAll("legacy")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        try repo.git("fetch", "--quiet", "origin")
        try repo.git("checkout", "--quiet", "-b", "feature")
        try repo.write("import SwiftUI\nstruct NewView: View { var body: some View { Button(\"Go\") { } } }\n", to: "Views/NewView.swift")
        try repo.commitAll("new view")
        let environment = repo.environment.merging(["GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "pull_request", "GITHUB_BASE_REF": "main"]) { $1 }
        let result = try InProcessCLI.run(["a11y"], in: repo.path, environment: environment)
        #expect(result.status == 1)
        #expect(result.standardError.contains("prepush: checking refs/remotes/origin/main...HEAD (GitHub pull_request into main)"))
        #expect(result.standardOutput.contains("Views/NewView.swift:2:46: error: Button has no .accessibilityIdentifier"))
        #expect(result.standardOutput.contains("::error file=Views/NewView.swift,line=2,col=46"))
        #expect(!result.standardOutput.contains("OldView"), "the base branch's legacy view is not the branch's doing")
        #expect(try InProcessCLI.run(["a11y"], in: repo.path, environment: repo.environment).status == 2, "outside CI a mode is required")
    }
}
