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

    public var description: String {
        switch self {
        case .notJSON(let file, let reason):
            return "\(file): error: not valid JSON: \(reason)"
        case .unknownForm(let file, let keys):
            return "\(file): error: not an xcresulttool result: expected \"testNodes\" (get test-results tests), \"testFailures\" (get test-results summary) or an ActionsInvocationRecord, found the keys \(keys.sorted().joined(separator: ", "))"
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
        if case .array(let nodes)? = root["testNodes"] {
            var results: [UITestResult] = []
            for node in nodes { collect(node, suite: nil, into: &results) }
            return TestRun(results: results)
        }
        if case .array(let failures)? = root["testFailures"] {
            return TestRun(results: failures.compactMap(summaryFailure))
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
            return TestRun(results: merged)
        }
        throw .unknownForm(file: file, keys: Array(root.keys))
    }

    // MARK: - get test-results tests

    private static func collect(_ node: JSONValue, suite: String?, into results: inout [UITestResult]) {
        let type = node["nodeType"]?.string ?? ""
        if type == "Test Case" {
            results += testCase(node)
            return
        }
        let nextSuite = type == "Test Suite" ? (suite ?? node["name"]?.string) : suite
        for child in node["children"]?.array ?? [] { collect(child, suite: nextSuite, into: &results) }
    }

    /// One result per test, or per argument of a parameterized test (named `name (argument)`).
    private static func testCase(_ node: JSONValue) -> [UITestResult] {
        let name = node["name"]?.string ?? ""
        // "Suite/Nested/test()" → suite "Suite.Nested", as fastlane's JUnit names it.
        let identifier = node["nodeIdentifier"]?.string ?? name
        let suite = identifier.split(separator: "/").dropLast().joined(separator: ".")
        let children = node["children"]?.array ?? []
        let arguments = children.filter { $0["nodeType"]?.string == "Arguments" }
        if !arguments.isEmpty {
            return arguments.map { argument in
                let values = argument["name"]?.string ?? ""
                // testLaunch() with (1, 1) → "testLaunch(1, 1)"; a display name gets "name (values)".
                let argumentName = name.hasSuffix("()") ? "\(name.dropLast())\(values))" : "\(name) (\(values))"
                return result(suite: suite, name: argumentName, node: argument, fallbackDuration: node["duration"]?.string)
            }
        }
        return [result(suite: suite, name: name, node: node, fallbackDuration: nil)]
    }

    private static func result(suite: String, name: String, node: JSONValue, fallbackDuration: String?) -> UITestResult {
        let children = node["children"]?.array ?? []
        let repetitions = children.filter { $0["nodeType"]?.string == "Repetition" }
        var messages = children.filter { $0["nodeType"]?.string == "Failure Message" }
        for repetition in repetitions {
            messages += (repetition["children"]?.array ?? []).filter { $0["nodeType"]?.string == "Failure Message" }
        }
        let status = self.status(node["result"]?.string)
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
        let audits = failures.compactMap { AccessibilityAuditMapping.result(fromFailureMessage: $0.message) }
        return UITestResult(suite: suite, name: name, status: status,
                            duration: duration(node["duration"]?.string ?? fallbackDuration),
                            failures: status == .skipped ? [] : failures, phase: status == .failed ? .test : nil,
                            attempts: max(1, repetitions.count), skipReason: skipReason,
                            accessibilityAuditResults: audits.isEmpty ? nil : audits)
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
enum JSONValue: Decodable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    var array: [JSONValue]? {
        if case .array(let value) = self { return value }
        return nil
    }

    var number: Double? {
        if case .number(let value) = self { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }
}

/// Maps Xcode's accessibility audit types (`XCUIAccessibilityAuditType`, Xcode 15+) onto the data
/// model's `AccessibilityIssueType`.
public enum AccessibilityAuditMapping {
    /// The issue type for an audit type name as the API spells it, or nil for one with no match.
    public static func issueType(forAuditType name: String) -> AccessibilityIssueType? {
        switch name.lowercased() {
        case "contrast": return .insufficientContrast
        case "hitregion": return .touchTargetTooSmall
        case "dynamictype", "textclipped": return .dynamicTypeUnsupported
        case "sufficientelementdescription", "elementdetection", "trait", "parentchild", "action": return .missingLabel
        default: return nil
        }
    }

    /// An audit result from a failure message that names its audit type as `auditType: <name>`
    /// (what an `issueHandler` that logs `issue.auditType` writes), with the element after `element: `.
    public static func result(fromFailureMessage message: String) -> AccessibilityAuditResult? {
        guard let range = message.firstRange(of: "auditType: ") else { return nil }
        let name = message[range.upperBound...].prefix { $0.isLetter }
        guard let type = issueType(forAuditType: String(name)) else { return nil }
        var element = ""
        if let elementRange = message.firstRange(of: "element: ") {
            element = String(message[elementRange.upperBound...].prefix { $0 != "," && $0 != "\n" })
        }
        return AccessibilityAuditResult(elementIdentifier: element, issueType: type, issueDescription: message)
    }
}
