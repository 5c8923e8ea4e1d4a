import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `prepush run --shard i/n` and the merge, on a real package built here: 2,000 tests in 200 types
/// (XCTest classes in two targets and Swift Testing suites), a failing test in each framework and a
/// skipped one, split four ways and merged: exactly the report of the unsharded run.
/// Own process: the shards run one after another in one checkout, each read from the reports folder,
/// which a run holds until its process ends: only separate processes write it each time, as CI's jobs do.
@Suite(.serialized) struct ShardTests {
    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-shards")
        try repo.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(
            name: "Big",
            targets: [
                .target(name: "Big"),
                .testTarget(name: "BigTests", dependencies: ["Big"]),
                .testTarget(name: "MoreTests", dependencies: ["Big"]),
            ]
        )

        """, to: "Package.swift")
        try repo.write("public let answer = 42\n", to: "Sources/Big/Big.swift")
        for type in 0..<200 {
            let name = String(format: "Type%03d", type)
            let target = type < 120 ? "BigTests" : "MoreTests"
            var text: String
            if type >= 190 {
                text = "import Testing\nimport Big\n\nstruct \(name) {\n"
                for test in 0..<10 {
                    let check = type == 195 && test == 3 ? "#expect(answer == 41)" : "#expect(answer == 42)"
                    text += "    @Test func case\(test)() { \(check) }\n"
                }
            } else {
                text = "import XCTest\nimport Big\n\nfinal class \(name): XCTestCase {\n"
                for test in 0..<10 {
                    var body = "XCTAssertEqual(answer, 42)"
                    if type == 7 && test == 3 { body = "XCTAssertEqual(answer, 41, \"the answer changed\")" }
                    if type == 150 && test == 9 { body = "throw XCTSkip(\"not on Linux\")" }
                    text += "    func test\(test)() throws { \(body) }\n"
                }
            }
            try repo.write(text + "}\n", to: "Tests/\(target)/\(name).swift")
        }
        try repo.write(".build/\n", to: ".gitignore")
        try repo.write("""
        cache: false
        stages:
          lint:
            run: echo lint ran
          unit:
            run: swift test --skip-build --event-stream-output-path .build/events.jsonl --event-stream-version 0
            timeout: 600
            shard: true
        traceability:
          testNamePattern: '^(test|case)[0-9]+$'

        """, to: ".prepush.yml")
        try repo.write("""
        scenarios:
          - story: US1
            priority: P1
            description: The answer holds
            test: Type001/test1

        """, to: ".prepush/scenarios.yml")
        try repo.commitAll("a big suite")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    static func package() throws -> GitRepository { try built.repository() }

    /// Runs prepush and keeps the run's results.json under `name` (outside the reports folder, which the next run clears).
    static func run(_ arguments: [String], keeping name: String, in repo: GitRepository, environment extra: [String: String] = [:]) throws -> (CommandResult, String) {
        let reports = "\(repo.path)/.prepush/reports/results.json"
        try? FileManager.default.removeItem(atPath: reports)
        let result = try PrepushBinary.run(["run", "--base", "HEAD"] + arguments, in: repo.path, environment: repo.environment.merging(extra) { $1 })
        let kept = "\(repo.path)/.build/kept/\(name).json"
        try FileManager.default.createDirectory(atPath: "\(repo.path)/.build/kept", withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: kept)
        try FileManager.default.copyItem(atPath: "\(repo.path)/.prepush/reports/results.json", toPath: kept)
        return (result, kept)
    }

    /// Each test's identifier and status in a results.json.
    static func statuses(_ path: String) throws -> [String: String] {
        let root = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as! [String: Any]
        var statuses: [String: String] = [:]
        for test in root["tests"] as! [[String: Any]] {
            let identifier = test["testIdentifier"] as! String
            #expect(statuses[identifier] == nil, "\(identifier) twice in \(path)")
            statuses[identifier] = test["status"] as? String
        }
        return statuses
    }

    @Test func fourShardsMergedGiveExactlyTheUnshardedReport() throws {
        let repo = try Self.package()
        let (whole, wholeFile) = try Self.run([], keeping: "whole", in: repo)
        #expect(whole.status == 1, "\(whole)")
        let expected = try Self.statuses(wholeFile)
        #expect(expected.count == 2000)
        #expect(expected.values.filter { $0 == "failed" }.count == 2)
        #expect(expected.values.filter { $0 == "skipped" }.count == 1)

        var shardFiles: [String] = []
        for index in 1...4 {
            let (result, file) = try Self.run(["--shard", "\(index)/4"], keeping: "shard\(index)", in: repo)
            #expect(result.standardOutput.contains("prepush: unit: shard \(index)/4 (--shard \(index)/4): 500 of 2000 tests, by count"), "\(result)")
            #expect(result.standardOutput.contains("--filter \"$PREPUSH_TEST_FILTER\""), "\(result.standardOutput)")
            // The stage that is not split runs on the first shard only.
            #expect(result.standardOutput.contains("lint ran") == (index == 1), "\(result.standardOutput)")
            if index > 1 { #expect(result.standardOutput.contains("prepush – lint: skipped (not split: it runs on shard 1/4 only)")) }
            let statuses = try Self.statuses(file)
            #expect(statuses.count == 500, "shard \(index): \(statuses.count) tests")
            shardFiles.append(file)
        }
        let merged = try InProcessCLI.run(["results"] + shardFiles + ["--format", "json", "--output", "\(repo.path)/.build/kept/merged.json"],
                                           in: repo.path, environment: repo.environment)
        #expect(merged.status == 1, "\(merged)")
        #expect(try Self.statuses("\(repo.path)/.build/kept/merged.json") == expected)

        // The traceability matrix of the merged shards, as the merge job makes it.
        let report = try InProcessCLI.run(["report", "--results"] + shardFiles + ["--format", "markdown"], in: repo.path, environment: repo.environment)
        #expect(report.status == 0, "\(report)")
        #expect(report.standardOutput.contains("The answer holds"), "\(report.standardOutput)")

        // A shard missing: said, and the merged run is not green.
        let partial = try InProcessCLI.run(["results"] + [shardFiles[0], shardFiles[1], shardFiles[3]] + ["--format", "json", "--output", "\(repo.path)/.build/kept/partial.json"],
                                            in: repo.path, environment: repo.environment)
        #expect(partial.status == 1)
        #expect(partial.standardError.contains("error: the run failed: shard 3/4 is missing: its results were not given, so the suite is not complete"), "\(partial)")
        let partialReport = try InProcessCLI.run(["report", "--results", shardFiles[0], shardFiles[1], shardFiles[3], "--format", "json"],
                                                  in: repo.path, environment: repo.environment)
        #expect(partialReport.status == 1)
        #expect(partialReport.standardError.contains("shard 3/4 is missing"), "\(partialReport)")
        try partialMergeIsNeverGreen([shardFiles[0], shardFiles[1], shardFiles[3]], in: repo)
    }

    /// Every format of a merge with a shard missing says the run failed, read as its readers read it.
    func partialMergeIsNeverGreen(_ files: [String], in repo: GitRepository) throws {
        func output(_ arguments: [String]) throws -> String {
            let result = try PrepushBinary.run(arguments, in: repo.path, environment: repo.environment)
            #expect(result.status == 1, "\(arguments): \(result)")
            return result.standardOutput
        }
        let junit = try output(["results"] + files + ["--format", "junit"])
        let root = try XMLDocument(xmlString: junit).rootElement()
        #expect(root?.attribute(forName: "errors")?.stringValue == "1", "\(junit.prefix(300))")
        let runCase = try XMLDocument(xmlString: junit).nodes(forXPath: "//testsuite[@name='prepush.run']/testcase/error")
        #expect(runCase.count == 1 && (runCase.first?.stringValue ?? "").contains("shard 3/4 is missing"), "\(junit.prefix(600))")

        let markdown = try output(["results"] + files + ["--format", "markdown"])
        #expect(markdown.hasPrefix("## ❌ ") && markdown.prefix(80).contains("the run failed"), "\(markdown.prefix(200))")
        #expect(markdown.contains("- **run**: shard 3/4 is missing"), "\(markdown.prefix(400))")
        #expect(!markdown.contains("✅"))

        let annotations = try output(["results"] + files + ["--format", "github"])
        #expect(annotations.hasPrefix("::error title=the run failed::shard 3/4 is missing"), "\(annotations.prefix(200))")

        for format in ["html", "markdown", "json"] {
            let report = try output(["report", "--results"] + files + ["--format", format])
            #expect(report.contains("the run failed: shard 3/4 is missing"), "\(format): \(report.prefix(800))")
            #expect(!report.contains("Gate passed") && !report.contains("Gate: passed") && !report.contains("\"passed\" : true"), "\(format)")
        }
    }

    @Test func timingsFromAnEarlierRunBalanceTheShardsAndTheMergeIsStillWhole() throws {
        let repo = try Self.package()
        let (_, wholeFile) = try Self.run([], keeping: "timings-source", in: repo)
        let expected = try Self.statuses(wholeFile)
        var merged: [String: String] = [:]
        for index in 1...3 {
            let (result, file) = try Self.run(["--shard", "\(index)/3", "--timings", wholeFile], keeping: "timed\(index)", in: repo)
            #expect(result.standardOutput.contains("by the durations in \(wholeFile)"), "\(result.standardOutput)")
            for (test, status) in try Self.statuses(file) {
                #expect(merged[test] == nil, "\(test) in two shards")
                merged[test] = status
            }
        }
        #expect(merged == expected)
    }

    @Test func timingsFromTheRunHistoryGiveEveryShardOfACommitTheSameSplit() throws {
        let repo = try Self.package()
        // The history holds the runs of this commit; the shards run on the next one.
        let (_, wholeFile) = try Self.run([], keeping: "history-source", in: repo)
        let expected = try Self.statuses(wholeFile)
        try repo.write("more\n", to: "NOTES.md")
        try repo.commitAll("a later commit")
        var merged: [String: String] = [:]
        for index in 1...3 {
            // Each shard records its own run of this commit: the next shard must not read it, or
            // it would split differently and run tests twice or never.
            let (result, file) = try Self.run(["--shard", "\(index)/3", "--timings", "history"], keeping: "history\(index)", in: repo)
            #expect(result.standardOutput.contains("by the durations in the run history ("), "\(result.standardOutput)")
            for (test, status) in try Self.statuses(file) {
                #expect(merged[test] == nil, "\(test) in two shards")
                merged[test] = status
            }
        }
        #expect(merged == expected)
    }

    @Test func theCIsOwnVariablesPickTheShard() throws {
        let repo = try Self.package()
        let list = "\(repo.path)/.prepush/reports/unit.shard-tests.txt"
        _ = try Self.run(["--shard", "2/4"], keeping: "explicit", in: repo)
        let explicit = try String(contentsOfFile: list, encoding: .utf8)
        #expect(explicit.split(separator: "\n").count == 500)
        for variables in [["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"], ["CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "4"],
                          ["BUILDKITE_PARALLEL_JOB": "1", "BUILDKITE_PARALLEL_JOB_COUNT": "4"]] {
            let (result, _) = try Self.run([], keeping: "ci", in: repo, environment: variables)
            #expect(result.standardOutput.contains("prepush: unit: shard 2/4 ("), "\(result.standardOutput)")
            #expect(try String(contentsOfFile: list, encoding: .utf8) == explicit, "\(variables)")
        }
        let wrong = try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment.merging(["CI_NODE_INDEX": "5", "CI_NODE_TOTAL": "4"]) { $1 })
        #expect(wrong.status == 2)
        #expect(wrong.standardError.contains("error: CI_NODE_INDEX=\"5\" (from the environment): expected a whole number from 1 to 4 (CI_NODE_TOTAL=4)"), "\(wrong)")
    }

    @Test func aStageThatRunsEveryTestInEveryShardIsCaughtAtTheMerge() throws {
        let repo = try Self.package()
        // The command names its own filter, so prepush cannot add the shard's: it warns, and the merge refuses.
        let own = repo.path + "/.build/kept/own-filter.yml"
        try FileManager.default.createDirectory(atPath: repo.path + "/.build/kept", withIntermediateDirectories: true)
        try """
        cache: false
        stages:
          unit:
            run: swift test --skip-build --filter MoreTests --event-stream-output-path .build/events.jsonl --event-stream-version 0
            shard: true
        traceability:
          testNamePattern: '^(test|case)[0-9]+$'

        """.write(toFile: own, atomically: true, encoding: .utf8)
        var files: [String] = []
        for index in 1...2 {
            let (result, file) = try Self.run(["--shard", "\(index)/2", "--config", own], keeping: "unfiltered\(index)", in: repo)
            #expect(result.standardOutput.contains("prepush: warning: unit: the command is not a swift test or xcodebuild test prepush can add the shard's tests to"), "\(result.standardOutput)")
            files.append(file)
        }
        let merged = try InProcessCLI.run(["results"] + files, in: repo.path, environment: repo.environment)
        #expect(merged.status == 2)
        #expect(merged.standardError.contains("tests are in two shards (\(files[0]) and \(files[1]))"), "\(merged.standardError)")
    }

    @Test func usageErrorsAreExit2WithTheirReason() throws {
        let repo = try Self.package()
        let badShard = try PrepushBinary.run(["run", "--shard", "5/4"], in: repo.path, environment: repo.environment)
        #expect(badShard.status == 2)
        #expect(badShard.standardError.contains("--shard 5/4: the index is counted from 1 and goes up to 4"), "\(badShard)")
        let timingsAlone = try PrepushBinary.run(["run", "--timings", "x.json"], in: repo.path, environment: repo.environment)
        #expect(timingsAlone.status == 2)
        #expect(timingsAlone.standardError.contains("--timings balances shards"), "\(timingsAlone)")
        let noTimings = try PrepushBinary.run(["run", "--shard", "1/2", "--timings", "absent.json"], in: repo.path, environment: repo.environment)
        #expect(noTimings.status == 2)
        #expect(noTimings.standardError.contains("error: --timings absent.json: no such file"), "\(noTimings)")
        let plain = repo.path + "/.build/kept/plain.yml"
        try FileManager.default.createDirectory(atPath: repo.path + "/.build/kept", withIntermediateDirectories: true)
        // The event stream, not the console alone: Swift Testing's console on Linux drops blocks of
        // lines under load, and a run with failures then showed tests that never finished (a flake).
        try "stages:\n  unit:\n    run: swift test --skip-build --event-stream-output-path .build/kept/events.jsonl\ntraceability:\n  testNamePattern: '^(test|case)[0-9]+$'\n"
            .write(toFile: plain, atomically: true, encoding: .utf8)
        let unmarked = try PrepushBinary.run(["run", "--shard", "1/2", "--config", plain], in: repo.path, environment: repo.environment)
        #expect(unmarked.status == 2)
        #expect(unmarked.standardError.contains("error: --shard 1/2: no stage has shard: in the configuration"), "\(unmarked)")
        // A CI's variables alone do not split a configuration that has no shard: stage.
        let ciOnly = try PrepushBinary.run(["run", "--base", "HEAD", "--config", plain, "--stage", "unit"], in: repo.path,
                                           environment: repo.environment.merging(["CI_NODE_INDEX": "2", "CI_NODE_TOTAL": "4"]) { $1 })
        #expect(!ciOnly.standardOutput.contains("prepush: unit: shard"), "\(ciOnly.standardOutput)")
        #expect(ciOnly.standardOutput.contains("prepush: tests: 1997 passed, 2 failed, 1 skipped"), "\(ciOnly.standardOutput)")
    }
}
