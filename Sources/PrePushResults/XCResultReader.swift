#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Why a JSON results file could not be read.
public enum XCResultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not JSON at all; the decoder's own words.
    case notJSON(file: String, reason: String)
    /// JSON, but none of the xcresulttool forms prepush knows.
    case unknownForm(file: String, keys: [String])
    /// A form prepush knows, holding what it cannot read (a newer version, a broken entry).
    case unsupported(file: String, what: String)

    public var description: String {
        switch self {
        case .notJSON(let file, let reason):
            return "\(file): error: not valid JSON: \(reason)"
        case .unknownForm(let file, let keys):
            return "\(file): error: not an xcresulttool result: expected \"testNodes\" (get test-results tests), \"testFailures\" (get test-results summary), an ActionTestPlanRunSummaries or an ActionsInvocationRecord, found the keys \(keys.sorted().prefix(12).joined(separator: ", "))"
        case .unsupported(let file, let what):
            return "\(file): error: cannot read \(what)"
        }
    }
}

/// Reads what `xcrun xcresulttool` prints: `get test-results tests` (Xcode 16+, every test with
/// repetitions, arguments and failure messages), `get test-results summary` (failures only) and
/// the legacy `get --format json` root (`ActionsInvocationRecord`, failures only).
public enum XCResultReader {
    /// Parses one JSON document.
    public static func parse(_ data: Data, file: String) throws(XCResultError) -> TestRun {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw .notJSON(file: file, reason: "\(error)")
        }
        guard case .object(let root) = value else { throw .unknownForm(file: file, keys: []) }
        if ResultsJSONReader.recognises(root) { return try ResultsJSONReader.run(root, file: file) }
        if case .array(let nodes)? = root["testNodes"] {
            var results: [UITestResult] = []
            for node in nodes { collect(node, suite: nil, bundle: nil, into: &results) }
            return TestRun(results: results)
        }
        if case .array(let failures)? = root["testFailures"] {
            // `get test-results summary`: the failing tests by name, the rest only counted.
            var run = TestRun(results: failures.compactMap(summaryFailure))
            if let total = root["totalTestCount"]?.integer {
                run.counted = TestCounts(tests: total, failed: root["failedTests"]?.integer ?? 0,
                                         skipped: root["skippedTests"]?.integer ?? 0)
            }
            if root["result"]?.string == "Failed", !run.hasFailures {
                run.runFailures.append("the summary's result is Failed, but it names no failing test")
            }
            return run
        }
        if let type = root["_type"]?["_name"]?.string, type == "ActionTestPlanRunSummaries" || type == "ActionTestPlanRunSummary" {
            // `xcresulttool get --legacy --id <testsRef>` (marathon keeps it as testplanrunsummary.json): every test, no messages.
            var results: [UITestResult] = []
            collectLegacyTests(value, suite: nil, into: &results)
            return TestRun(results: results)
        }
        if root["_type"]?["_name"]?.string == "ActionsInvocationRecord" {
            let summaries = root["issues"]?["testFailureSummaries"]?["_values"]?.array ?? []
            // A test that failed in several runs (retries, configurations) has one summary each.
            var merged: [UITestResult] = []
            for failure in summaries.compactMap(legacyFailure) {
                if let index = merged.firstIndex(where: { $0.testIdentifier == failure.testIdentifier }) {
                    merged[index] = merged[index].merged(withRetry: failure)
                } else {
                    merged.append(failure)
                }
            }
            var run = TestRun(results: merged)
            // `metrics` counts every test; only the failing ones are named.
            let metrics = root["metrics"]
            if let count = metrics?["testsCount"]?["_value"]?.string.flatMap({ Int($0) }) {
                run.counted = TestCounts(tests: count, failed: metrics?["testsFailedCount"]?["_value"]?.string.flatMap { Int($0) } ?? 0,
                                         skipped: metrics?["testsSkippedCount"]?["_value"]?.string.flatMap { Int($0) } ?? 0)
            }
            // Each action's status (`succeeded`, `failed`, `notRequested`) is the runner's verdict on it.
            let statuses = (root["actions"]?["_values"]?.array ?? []).compactMap { $0["actionResult"]?["status"]?["_value"]?.string }
            if statuses.contains("failed"), !run.hasFailures {
                run.runFailures.append("the result bundle's action status is failed, but it names no failing test")
            }
            return run
        }
        throw .unknownForm(file: file, keys: Array(root.keys))
    }

    // MARK: - get test-results tests

    /// `bundle` is the test bundle (`Unit test bundle`, `UI test bundle`) the node is in: the target
    /// `xcodebuild -only-testing:` names first.
    private static func collect(_ node: JSONValue, suite: String?, bundle: String?, into results: inout [UITestResult]) {
        let type = node["nodeType"]?.string ?? ""
        if type == "Test Case" {
            results += testCase(node, enclosingSuite: suite, bundle: bundle)
            return
        }
        let nextSuite = type == "Test Suite" ? (suite ?? node["name"]?.string) : suite
        let nextBundle = type.hasSuffix("test bundle") ? node["name"]?.string : bundle
        for child in node["children"]?.array ?? [] { collect(child, suite: nextSuite, bundle: nextBundle, into: &results) }
    }

    /// The legacy test summary tree: groups (`ActionTestSummaryGroup`) hold `subtests`; each test is an
    /// `ActionTestMetadata` (or `ActionTestSummary`) with `identifier` `Class/test()`, `testStatus` and `duration`.
    private static func collectLegacyTests(_ node: JSONValue, suite: String?, into results: inout [UITestResult]) {
        switch node {
        case .array(let items):
            for item in items { collectLegacyTests(item, suite: suite, into: &results) }
        case .object(let fields):
            let type = fields["_type"]?["_name"]?.string ?? ""
            if type == "ActionTestMetadata" || type == "ActionTestSummary" {
                let identifier = fields["identifier"]?["_value"]?.string ?? fields["name"]?["_value"]?.string ?? ""
                var parts = identifier.split(separator: "/").map(String.init)
                var name = parts.popLast() ?? identifier
                if name.hasSuffix("()") { name.removeLast(2) }
                let testSuite = parts.isEmpty ? (suite ?? "") : parts.joined(separator: ".")
                let status: TestStatus
                switch fields["testStatus"]?["_value"]?.string {
                case "Success": status = .passed
                case "Skipped": status = .skipped
                case "Expected Failure": status = .expectedFailure
                default: status = .failed
                }
                let seconds = Double(fields["duration"]?["_value"]?.string ?? "") ?? 0
                let noMessage = TestFailure(message: "failed (this summary holds no message; the result bundle does)", location: nil)
                results.append(UITestResult(suite: testSuite, name: name, status: status, duration: seconds,
                                            failures: status == .failed ? [noMessage] : [], phase: status == .failed ? .test : nil))
                return
            }
            // The outermost group names the suite of tests whose identifier does not.
            let groupName = type == "ActionTestSummaryGroup" ? fields["name"]?["_value"]?.string : nil
            for (key, value) in fields where key != "_type" {
                collectLegacyTests(value, suite: suite ?? groupName, into: &results)
            }
        default:
            return
        }
    }

    /// One result per test, or per argument of a parameterized test (named `name (argument)`).
    private static func testCase(_ node: JSONValue, enclosingSuite: String?, bundle: String?) -> [UITestResult] {
        let name = node["name"]?.string ?? ""
        // "Suite/Nested/test()" → suite "Suite.Nested", as fastlane's JUnit names it; else the suite node it is in.
        let identifier = node["nodeIdentifier"]?.string ?? name
        let fromIdentifier = identifier.split(separator: "/").dropLast().joined(separator: ".")
        let suite = fromIdentifier.isEmpty ? (enclosingSuite ?? "") : fromIdentifier
        // An argument of a parameterized test is selected by its function: xcodebuild names no argument.
        let selector = bundle.flatMap { bundle in node["nodeIdentifier"]?.string.map { "\(bundle)/\($0)" } }
        let children = node["children"]?.array ?? []
        let arguments = children.filter { $0["nodeType"]?.string == "Arguments" }
        if !arguments.isEmpty {
            return arguments.map { argument in
                let values = argument["name"]?.string ?? ""
                // testLaunch() with (1, 1) → "testLaunch(1, 1)"; a display name gets "name (values)".
                let argumentName = name.hasSuffix("()") ? "\(name.dropLast())\(values))" : "\(name) (\(values))"
                return result(suite: suite, name: argumentName, node: argument, fallbackDuration: seconds(of: node), selector: selector)
            }
        }
        return [result(suite: suite, name: name, node: node, fallbackDuration: nil, selector: selector)]
    }

    /// A node's seconds: `durationInSeconds` when present (exact), else the rounded `duration` text.
    private static func seconds(of node: JSONValue) -> Double? {
        if let exact = node["durationInSeconds"]?.number { return exact }
        return node["duration"]?.string.map { duration($0) }
    }

    /// Every repetition's time added up (docs/reports.md): the time the test really took.
    private static func repetitionSeconds(_ repetitions: [JSONValue]) -> Double? {
        let times = repetitions.compactMap { seconds(of: $0) }
        return times.isEmpty ? nil : times.reduce(0, +)
    }

    private static func result(suite: String, name: String, node: JSONValue, fallbackDuration: Double?, selector: String?) -> UITestResult {
        var children = node["children"]?.array ?? []
        // Newer Xcode puts a test's runs under `Test Case Run` nodes (one per device or configuration).
        for run in children where run["nodeType"]?.string == "Test Case Run" { children += run["children"]?.array ?? [] }
        let repetitions = children.filter { $0["nodeType"]?.string == "Repetition" }
        var messages = children.filter { $0["nodeType"]?.string == "Failure Message" }
        for repetition in repetitions {
            messages += (repetition["children"]?.array ?? []).filter { $0["nodeType"]?.string == "Failure Message" }
        }
        // A node without its own result takes its last repetition's (a retry that passed makes it pass: flaky).
        var status = self.status(node["result"]?.string ?? repetitions.last?["result"]?.string)
        let outcomes = repetitions.compactMap { $0["result"]?.string }
        if outcomes.contains("Passed"), outcomes.contains("Failed") {
            // Mixed repetitions are flaky whatever the node says (xcresultparser's rule): the last one decides.
            status = outcomes.last == "Passed" ? .passed : .failed
        }
        var skipReason: String?
        var failures: [TestFailure] = []
        for message in messages {
            let text = message["name"]?.string ?? ""
            if status == .skipped {
                skipReason = text.hasPrefix("Test skipped - ") ? String(text.dropFirst(15)) : text
            } else if !failures.contains(where: { $0.message == (FailureText.split(text)?.message ?? text) }) {
                failures.append(FailureText.split(text) ?? TestFailure(message: text, location: nil))
            }
        }
        if status == .failed && failures.isEmpty {
            failures.append(TestFailure(message: node["details"]?.string ?? "failed", location: nil))
        }
        if status == .passed, failures.isEmpty {
            // A repetition that failed with no message node still failed: the test passed on a
            // retry and is flaky, not a plain pass.
            for (index, outcome) in outcomes.enumerated() where outcome == "Failed" {
                failures.append(TestFailure(message: "failed on repetition \(index + 1) of \(outcomes.count) (the result bundle gives no message)", location: nil))
            }
        }
        let audits = failures.flatMap { AccessibilityAuditMapping.results(fromFailureMessage: $0.message) }
        return UITestResult(suite: suite, name: name, status: status,
                            duration: repetitionSeconds(repetitions) ?? seconds(of: node) ?? fallbackDuration ?? 0,
                            failures: status == .skipped ? [] : failures, phase: status == .failed ? .test : nil,
                            attempts: max(1, repetitions.count), skipReason: skipReason,
                            accessibilityAuditResults: audits.isEmpty ? nil : audits, selector: selector)
    }

    private static func status(_ result: String?) -> TestStatus {
        switch result {
        case "Passed": return .passed
        case "Skipped": return .skipped
        case "Expected Failure": return .expectedFailure
        default: return .failed
        }
    }

    /// "0,011s", "5s", "1m 5s", "2.5s": xcresulttool's durations, in the machine's locale.
    package static func duration(_ text: String?) -> Double {
        guard let text else { return 0 }
        var seconds = 0.0
        for part in text.split(separator: " ") {
            let cleaned = String(part).replacingComma()
            if cleaned.hasSuffix("ms"), let value = Double(cleaned.dropLast(2)) { seconds += value / 1000 }
            else if cleaned.hasSuffix("s"), let value = Double(cleaned.dropLast()) { seconds += value }
            else if cleaned.hasSuffix("m"), let value = Double(cleaned.dropLast()) { seconds += value * 60 }
            else if cleaned.hasSuffix("h"), let value = Double(cleaned.dropLast()) { seconds += value * 3600 }
        }
        return seconds
    }

    // MARK: - summary and legacy forms (failures only)

    private static func summaryFailure(_ value: JSONValue) -> UITestResult? {
        guard let name = value["testName"]?.string else { return nil }
        let text = value["failureText"]?.string ?? "failed"
        return UITestResult(suite: value["targetName"]?.string ?? "", name: name, status: .failed, duration: 0,
                            failures: [FailureText.split(text) ?? TestFailure(message: text, location: nil)], phase: .test)
    }

    private static func legacyFailure(_ value: JSONValue) -> UITestResult? {
        guard let testCase = value["testCaseName"]?["_value"]?.string else { return nil }
        let message = value["message"]?["_value"]?.string ?? "failed"
        let (suite, name): (String, String)
        if let dot = testCase.lastIndex(of: ".") {
            (suite, name) = (String(testCase[..<dot]), String(testCase[testCase.index(after: dot)...]))
        } else {
            (suite, name) = (value["producingTarget"]?["_value"]?.string ?? "", testCase)
        }
        return UITestResult(suite: suite, name: name, status: .failed, duration: 0,
                            failures: [TestFailure(message: message, location: legacyLocation(value))], phase: .test)
    }

    /// `file:///path/File.swift#CharacterRangeLen=0&EndingLineNumber=43&StartingLineNumber=43`:
    /// Xcode's line numbers there are 0-based.
    private static func legacyLocation(_ value: JSONValue) -> SourceLocation? {
        guard let url = value["documentLocationInCreatingWorkspace"]?["url"]?["_value"]?.string,
              url.hasPrefix("file://"), let hash = url.firstIndex(of: "#") else { return nil }
        let path = String(url[url.index(url.startIndex, offsetBy: 7)..<hash])
        for pair in url[url.index(after: hash)...].split(separator: "&") where pair.hasPrefix("StartingLineNumber=") {
            if let line = Int(pair.dropFirst(19)) { return SourceLocation(file: path, line: line + 1, column: 0) }
        }
        return SourceLocation(file: path, line: 0, column: 0)
    }
}

/// Any JSON value, for formats whose shape is only partly known.
package enum JSONValue: Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    package var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    package var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    /// The number as an `Int`, its fraction dropped and cut to ±1,000,000,000: a count, line or
    /// attempt beyond that is only in a damaged or hostile file, and converting `1e300` as it is
    /// traps (the fuzzer found it). Nil when the value is not a number.
    package var integer: Int? {
        guard case .number(let value) = self, !value.isNaN else { return nil }
        return Int(max(-1e9, min(1e9, value)))
    }

    package var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

