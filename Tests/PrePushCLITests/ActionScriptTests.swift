import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// The composite action's test step, run as GitHub runs it (`bash -e`): `inputs.arguments` reach
/// prepush as words, never as script text (issue 43: they were spliced into the script unquoted).
/// Own process: the docs' merge step is a bash script (`bash -e`, as GitHub runs it) that calls the binary
/// by its path; the step's status is the binary's exit status.
@Suite struct ActionScriptTests {
    /// The `run: |` block of the step named `name` in the action, unindented.
    static func script(ofStep name: String) throws -> String {
        let action = try String(contentsOfFile: Fixtures.repositoryRoot.appendingPathComponent(".github/actions/prepush/action.yml").path, encoding: .utf8)
        let lines = action.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let step = try #require(lines.firstIndex { $0.hasSuffix("- name: \(name)") })
        let run = try #require(lines[step...].firstIndex { $0.trimmingCharacters(in: .whitespaces) == "run: |" })
        let indent = lines[run].prefix { $0 == " " }.count + 2
        let body = lines[(run + 1)...].prefix { $0.isEmpty || $0.prefix { $0 == " " }.count >= indent }
        return body.map { String($0.dropFirst(min(indent, $0.count))) }.joined(separator: "\n")
    }

    @Test func theArgumentsAreWordsNotScriptText() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-action")
        let stub = try folder.write("#!/bin/sh\nfor word in \"$@\"; do printf '<%s>\\n' \"$word\"; done\n", to: "prepush", executable: true)
        _ = try folder.write("", to: "a-file-a-glob-would-find")
        let script = try Self.script(ofStep: "Test stages")
        var environment = ProcessInfo.processInfo.environment
        environment["PREPUSH"] = stub
        environment["PREPUSH_ARGUMENTS"] = "--skip-ui-tests --base \"origin/main\" $(touch pwned) `touch pwned` ; touch pwned *"
        let run = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(run.status == 0, "\(run)")
        #expect(run.standardOutput == "<run>\n<--skip-ui-tests>\n<--base>\n<\"origin/main\">\n<$(touch>\n<pwned)>\n<`touch>\n<pwned`>\n<;>\n<touch>\n<pwned>\n<*>\n", "\(run.standardOutput)")
        #expect(!folder.exists("pwned"))
        environment["PREPUSH_ARGUMENTS"] = ""
        let none = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(none.standardOutput == "<run>\n", "\(none)")
    }

    /// The comment step holds the token after the pull request's code ran: it runs the binary the
    /// earlier steps pinned, not `$PREPUSH` (a stage can set it through `$GITHUB_ENV`), and not a
    /// pinned file a stage wrote over.
    @Test func theCommentStepRunsOnlyThePinnedBinary() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-action")
        let pinned = try folder.write("#!/bin/sh\necho pinned \"$@\"\n", to: "prepush", executable: true)
        let evil = try folder.write("#!/bin/sh\necho evil \"$GITHUB_TOKEN\"\n", to: "evil", executable: true)
        let sha = try Command.run("sha256sum", [pinned], environment: ProcessInfo.processInfo.environment).standardOutput.prefix(64)
        let script = try Self.script(ofStep: "Pull-request comment")
        var environment = ProcessInfo.processInfo.environment
        environment["GITHUB_TOKEN"] = "secret-token"
        environment["PREPUSH"] = evil
        environment["PINNED_PREPUSH"] = pinned
        environment["PINNED_SHA256"] = String(sha)
        let run = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(run.status == 0 && run.standardOutput == "pinned comment\n", "\(run)")
        // A stage wrote over the pinned file: refused, nothing runs.
        _ = try folder.write("#!/bin/sh\necho evil \"$GITHUB_TOKEN\"\n", to: "prepush", executable: true)
        let replaced = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(replaced.status == 1 && !replaced.combined.contains("secret-token"), "\(replaced)")
        #expect(replaced.standardError.contains("changed since it was built or checked"), "\(replaced)")
        _ = evil
    }

    /// The `annotations` input becomes `PREPUSH_ANNOTATIONS` only when given: empty, the
    /// configuration file's `reports.annotations` decides (a set variable would beat it).
    @Test func theAnnotationsInputIsTheVariableOnlyWhenGiven() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-action")
        let stub = try folder.write("#!/bin/sh\nprintf '%s\\n' \"${PREPUSH_ANNOTATIONS-unset}\"\n", to: "prepush", executable: true)
        let script = try Self.script(ofStep: "Test stages")
        var environment = ProcessInfo.processInfo.environment
        environment["PREPUSH"] = stub
        environment["PREPUSH_ARGUMENTS"] = ""
        environment["PREPUSH_ANNOTATIONS"] = nil
        environment["INPUT_ANNOTATIONS"] = "30"
        let given = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(given.standardOutput == "30\n", "\(given)")
        environment["INPUT_ANNOTATIONS"] = ""
        let empty = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: folder.path, environment: environment)
        #expect(empty.standardOutput == "unset\n", "\(empty)")
    }

    /// The merge step of docs/ci.md, run as GitHub runs it (`bash -e`) on a red shard: every report
    /// is written, and the step fails with the results' status.
    @Test func theMergeRecipeOfTheDocsWritesEveryReportOnARedShard() throws {
        let docs = try String(contentsOfFile: Fixtures.repositoryRoot.appendingPathComponent("docs/ci.md").path, encoding: .utf8)
        let lines = docs.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex { $0.contains("status=0") }.map { index in lines[..<index].lastIndex { $0.hasSuffix("- run: |") }! })
        let indent = lines[start].prefix { $0 == " " }.count + 2
        let body = lines[(start + 1)...].prefix { $0.prefix { $0 == " " }.count >= indent }.map { String($0.dropFirst(indent)) }
        let script = body.joined(separator: "\n").replacingOccurrences(of: "P=tools/prepush/.build/release/prepush", with: "P='\(PrepushBinary.path)'")
        let repo = try GitRepository(prefix: "prepush-merge")
        for (shard, log) in [("1", "console/xcbeautify__TestData__MixedTestLog_6_0_Linux.txt")] {
            let json = try InProcessCLI.run(["results", Fixtures.shared + "/" + log, "--format", "json"], in: repo.path, environment: repo.environment)
            try repo.root.write(json.standardOutput, to: "work/shards/shard-\(shard)/results.json")
        }
        let run = try Command.run("bash", ["--noprofile", "--norc", "-eo", "pipefail", "-c", script], in: repo.path, environment: repo.environment)
        #expect(run.status == 1, "the red shard fails the step: \(run)")
        for report in ["merged/junit.xml", "merged/results.json", "merged/results.md", "merged/traceability.html"] {
            #expect(FileManager.default.fileExists(atPath: repo.path + "/" + report), "\(report) written: \(run)")
        }
    }
}
