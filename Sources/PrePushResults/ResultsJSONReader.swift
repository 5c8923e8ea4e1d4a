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
        if let version = root["version"]?.number, Int(version) > JSONReporter.schemaVersion {
            throw .unsupported(file: file, what: "prepush's results.json version \(Int(version)) (this prepush reads version \(JSONReporter.schemaVersion))")
        }
        var results: [UITestResult] = []
        for (index, test) in (root["tests"]?.array ?? []).enumerated() {
            guard let name = test["name"]?.string, let status = test["status"]?.string.flatMap(TestStatus.init(rawValue:)) else {
                throw .unsupported(file: file, what: "test \(index + 1) of \"tests\" without a name or a known status")
            }
            let failures = (test["failures"]?.array ?? []).map { failure in
                let location = failure["file"]?.string.map { path in
                    SourceLocation(file: path, line: Int(failure["line"]?.number ?? 0), column: Int(failure["column"]?.number ?? 0))
                }
                return TestFailure(message: failure["message"]?.string ?? "", location: location)
            }
            let audits = test["accessibilityAuditResults"]?.array?.compactMap { audit -> AccessibilityAuditResult? in
                guard let type = audit["issueType"]?.string.flatMap(AccessibilityIssueType.init(rawValue:)) else { return nil }
                return AccessibilityAuditResult(elementIdentifier: audit["elementIdentifier"]?.string ?? "", issueType: type,
                                                issueDescription: audit["issueDescription"]?.string ?? "", auditType: audit["auditType"]?.string)
            }
            results.append(UITestResult(suite: test["suite"]?.string ?? "", name: name, status: status,
                                        duration: test["duration"]?.number ?? 0, failures: failures,
                                        phase: test["phase"]?.string.flatMap(TestPhase.init(rawValue:)),
                                        attempts: Int(test["attempts"]?.number ?? 1), skipReason: test["skipReason"]?.string,
                                        screenshotPath: test["screenshotPath"]?.string, accessibilityAuditResults: audits))
        }
        var shard: TestShard?
        if let index = root["shard"]?["index"]?.number, let count = root["shard"]?["count"]?.number {
            guard let read = TestShard(index: Int(index), count: Int(count)) else {
                throw .unsupported(file: file, what: "\"shard\": index \(Int(index)) of \(Int(count))")
            }
            shard = read
        }
        return TestRun(results: results, runFailures: root["runFailures"]?.array?.compactMap(\.string) ?? [],
                       wallTime: root["summary"]?["duration"]?.number, shard: shard)
    }
}

/// Why inputs cannot be merged into one run.
public enum ResultsMergeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Shards of different splits (`1/4` and `2/3`).
    case differentSplits(first: String, firstShard: TestShard, other: String, otherShard: TestShard)
    /// The same shard given twice.
    case repeatedShard(TestShard, first: String, again: String)
    /// Tests reported by two shards: the split was not a partition (a stage ran every test in each shard).
    case testInTwoShards(tests: [String], count: Int, first: String, second: String)

    public var description: String {
        switch self {
        case .differentSplits(let first, let firstShard, let other, let otherShard):
            return "error: \(first) is shard \(firstShard) but \(other) is shard \(otherShard): they are not parts of one split"
        case .repeatedShard(let shard, let first, let again):
            return "error: shard \(shard) is given twice: \(first) and \(again)"
        case .testInTwoShards(let tests, let count, let first, let second):
            let more = count > tests.count ? " and \(count - tests.count) more" : ""
            return "error: \(count) test\(count == 1 ? " is" : "s are") in two shards (\(first) and \(second)): \(tests.joined(separator: ", "))\(more); "
                + "each shard must run only its own tests (the stage command takes them from $PREPUSH_TEST_FILTER or $PREPUSH_ONLY_TESTING: docs/ci.md)"
        }
    }
}

/// Joins the runs of several inputs into one: shards of a CI matrix (their results.json say which
/// shard they are) into the run of the whole suite, or files of one run read one after another.
public enum ResultsMerge {
    /// The merged run. Among inputs that are shards: all must be parts of one split, each shard
    /// once, and no test in two of them (errors); a shard not given is a failure of the run, so a
    /// merged report with a part missing never passes. Shards ran at the same time: the wall time
    /// is the longest; other inputs ran one after another: their wall times add up.
    public static func merge(_ inputs: [(file: String, run: TestRun)]) throws(ResultsMergeError) -> TestRun {
        // One plain input is the run: appending it to an empty one would copy every result (11 MB
        // for 100,000 tests, the peak of `prepush results` on a big JUnit file).
        if inputs.count == 1, inputs[0].run.shard == nil { return inputs[0].run }
        var merged = TestRun()
        var shardFiles: [TestShard: String] = [:]
        var split: (file: String, shard: TestShard)?
        var owner: [String: String] = [:]
        var shardWall: Double?
        var serialWall: Double? = 0
        for (file, run) in inputs {
            if let shard = run.shard {
                if let split, split.shard.count != shard.count {
                    throw .differentSplits(first: split.file, firstShard: split.shard, other: file, otherShard: shard)
                }
                if let earlier = shardFiles[shard] { throw .repeatedShard(shard, first: earlier, again: file) }
                split = split ?? (file, shard)
                shardFiles[shard] = file
                var twice: [String] = []
                var otherFile = ""
                // Swift Testing's console names a test by its function only (no suite): six suites'
                // `emitModule()` are one name, so such names cannot show a repeat (the event stream names them whole).
                for test in run.results where !test.suite.isEmpty {
                    if let earlier = owner[test.testIdentifier], earlier != file {
                        twice.append(test.testIdentifier)
                        otherFile = earlier
                    } else {
                        owner[test.testIdentifier] = file
                    }
                }
                if !twice.isEmpty {
                    throw .testInTwoShards(tests: Array(twice.prefix(5)), count: twice.count, first: otherFile, second: file)
                }
                shardWall = max(shardWall ?? 0, run.elapsed)
            } else {
                serialWall = run.wallTime.flatMap { wall in serialWall.map { $0 + wall } }
            }
            merged.results += run.results
            merged.runFailures += run.runFailures
        }
        if let split {
            let missing = (1...split.shard.count).filter { TestShard(index: $0, count: split.shard.count).map { shardFiles[$0] == nil } ?? false }
            if !missing.isEmpty {
                let named = missing.map { "\($0)/\(split.shard.count)" }
                merged.runFailures.append("shard\(missing.count == 1 ? "" : "s") \(named.joined(separator: ", ")) \(missing.count == 1 ? "is" : "are") missing: \(missing.count == 1 ? "its" : "their") results were not given, so the suite is not complete")
            }
        }
        if split != nil, inputs.allSatisfy({ $0.run.shard != nil }) {
            merged.wallTime = shardWall
        } else if split == nil {
            merged.wallTime = serialWall
        }
        return merged
    }
}
