#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Reads prepush's own `results.json` (`JSONReporter`, version 1) back: what a shard of a CI matrix
/// leaves for the merge job, and what `--timings` takes the durations from.
enum ResultsJSONReader {
    /// Whether `root` is prepush's JSON report: `tests`, `summary` and `version` at the top.
    static func recognises(_ root: [String: JSONValue]) -> Bool {
        root["tests"]?.array != nil && root["summary"]?["tests"] != nil && root["version"]?.number != nil
    }

    /// The run the report describes; a test entry without a name or status is an error with its index.
    static func run(_ root: [String: JSONValue], file: String) throws(XCResultError) -> TestRun {
        if let version = root["version"]?.integer, version > JSONReporter.schemaVersion {
            throw .unsupported(file: file, what: "prepush's results.json version \(version) (this prepush reads version \(JSONReporter.schemaVersion))")
        }
        var results: [UITestResult] = []
        for (index, test) in (root["tests"]?.array ?? []).enumerated() {
            guard let name = test["name"]?.string, let status = test["status"]?.string.flatMap(TestStatus.init(rawValue:)) else {
                throw .unsupported(file: file, what: "test \(index + 1) of \"tests\" without a name or a known status")
            }
            let failures = issues(test["failures"])
            let audits = test["accessibilityAuditResults"]?.array?.compactMap { audit -> AccessibilityAuditResult? in
                guard let type = audit["issueType"]?.string.flatMap(AccessibilityIssueType.init(rawValue:)) else { return nil }
                return AccessibilityAuditResult(elementIdentifier: audit["elementIdentifier"]?.string ?? "", issueType: type,
                                                issueDescription: audit["issueDescription"]?.string ?? "", auditType: audit["auditType"]?.string)
            }
            results.append(UITestResult(suite: test["suite"]?.string ?? "", name: name, status: status,
                                        duration: test["duration"]?.number ?? 0, failures: failures,
                                        phase: test["phase"]?.string.flatMap(TestPhase.init(rawValue:)),
                                        attempts: test["attempts"]?.integer ?? 1, skipReason: test["skipReason"]?.string,
                                        screenshotPath: test["screenshotPath"]?.string, accessibilityAuditResults: audits,
                                        warnings: issues(test["warnings"])))
        }
        var shard: TestShard?
        if let index = root["shard"]?["index"]?.integer, let count = root["shard"]?["count"]?.integer {
            guard let read = TestShard(index: index, count: count) else {
                throw .unsupported(file: file, what: "\"shard\": index \(index) of \(count)")
            }
            shard = read
        }
        var run = TestRun(results: results, runFailures: root["runFailures"]?.array?.compactMap(\.string) ?? [],
                          wallTime: root["summary"]?["duration"]?.number, shard: shard)
        run.toolchain = root["toolchain"]?.string
        if let stamp = root["provenance"] {
            run.provenance = RunProvenance(commit: stamp["commit"]?.string, run: stamp["run"]?.string,
                                           attempt: stamp["attempt"]?.string, job: stamp["job"]?.string)
        }
        run.refusal = root["refusal"]?.string
        if let reason = root["incomplete"]?["reason"]?.string {
            run.incomplete = reason
            // The allowance recorded with it (`--allow-incomplete`) is the writer's decision, kept.
            if root["incomplete"]?["allowed"]?.bool == true { run.incompleteAllowed = true }
        }
        let buildErrors = issues(root["buildErrors"])
        if !buildErrors.isEmpty { run.buildErrors = buildErrors }
        let logs = (root["buildLogs"]?.array ?? []).compactMap { entry -> BuildLog? in
            guard let stage = entry["stage"]?.string else { return nil }
            return BuildLog(stage: stage, tail: entry["tail"]?.array?.compactMap(\.string) ?? [])
        }
        if !logs.isEmpty { run.buildLogs = logs }
        var quarantined: [String: String] = [:]
        for (test, entry) in zip(results, root["tests"]?.array ?? []) {
            if let reason = entry["quarantined"]?.string { quarantined[test.testIdentifier] = reason }
        }
        if !quarantined.isEmpty { run.quarantined = quarantined }
        if let counted = root["counted"], let tests = counted["tests"]?.integer {
            run.counted = TestCounts(tests: tests, failed: counted["failed"]?.integer ?? 0, skipped: counted["skipped"]?.integer ?? 0)
        }
        return run
    }

    /// `failures` or `warnings` of a test: `{column, file, line, message}` each.
    private static func issues(_ list: JSONValue?) -> [TestFailure] {
        (list?.array ?? []).map { issue in
            let location = issue["file"]?.string.map { path in
                SourceLocation(file: path, line: issue["line"]?.integer ?? 0, column: issue["column"]?.integer ?? 0)
            }
            return TestFailure(message: issue["message"]?.string ?? "", location: location)
        }
    }
}
