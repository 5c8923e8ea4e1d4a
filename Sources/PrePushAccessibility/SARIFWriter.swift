#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Findings as a SARIF 2.1.0 log, the format GitHub code scanning and other viewers read.
///
/// Every rule is listed in the driver (with its rationale and default level) whether or not it found
/// anything, so a viewer can show what was checked. Locations are relative to `%SRCROOT%`, which
/// `originalUriBaseIds` points at the repository root; columns count Unicode code points like every
/// prepush location (`columnKind: unicodeCodePoints`).
package enum SARIFWriter {
    /// The SARIF document for `findings`; `root` is the absolute folder relative paths start from;
    /// `notes` (what was not checked or not reported, and why) are the invocation's
    /// `toolExecutionNotifications`.
    package static func render(_ findings: [AccessibilityFinding], root: String?, notes: [String] = []) -> String {
        let rules = AccessibilityChecker.rules.map { $0.description }
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1.identifier, $0) })
        var run = Run(
            tool: Tool(driver: Driver(
                name: "prepush", version: PrePushVersion.current,
                rules: rules.map { rule in
                    ReportingDescriptor(id: rule.identifier, name: rule.name,
                                        shortDescription: Message(text: rule.name), fullDescription: Message(text: rule.rationale),
                                        defaultConfiguration: Configuration(level: level(rule.defaultSeverity)),
                                        properties: Properties(tags: ["accessibility", rule.issueType.rawValue]))
                })),
            results: findings.map { finding in
                Result(ruleId: finding.ruleID, ruleIndex: index[finding.ruleID] ?? 0, level: level(finding.severity),
                       message: Message(text: finding.message),
                       locations: [Location(physicalLocation: PhysicalLocation(
                           artifactLocation: ArtifactLocation(uri: uriReference(finding.location.file),
                                                            uriBaseId: root == nil || finding.location.file.hasPrefix("/") ? nil : "%SRCROOT%"),
                           region: Region(startLine: finding.location.line, startColumn: finding.location.column)))])
            },
            columnKind: "unicodeCodePoints",
            invocations: [Invocation(executionSuccessful: true,
                                     toolExecutionNotifications: notes.map { Notification(level: "note", message: Message(text: $0)) })])
        if let root {
            run.originalUriBaseIds = ["%SRCROOT%": ArtifactLocation(uri: "file://" + uriReference(root.hasSuffix("/") ? root : root + "/"), uriBaseId: nil)]
        }
        let log = Log(schema: "https://json.schemastore.org/sarif-2.1.0.json", version: "2.1.0", runs: [run])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(log)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }

    static func level(_ severity: Severity) -> String {
        severity == .error ? "error" : "warning"
    }

    /// A path as a URI reference: bytes outside RFC 3986's unreserved set and `/` are percent-encoded
    /// (a space is `%20`), so `My Views/Home View.swift` stays one valid reference.
    static func uriReference(_ path: String) -> String {
        var result = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                result += "%"
                result.unicodeScalars.append(hex[Int(byte >> 4)])
                result.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return result
    }

    // The subset of the SARIF object model prepush writes; names are SARIF's own.
    struct Log: Encodable {
        let schema: String
        let version: String
        let runs: [Run]
        enum CodingKeys: String, CodingKey { case schema = "$schema", version, runs }
    }
    struct Run: Encodable {
        let tool: Tool
        let results: [Result]
        let columnKind: String
        let invocations: [Invocation]
        var originalUriBaseIds: [String: ArtifactLocation]?
    }
    struct Invocation: Encodable {
        let executionSuccessful: Bool
        let toolExecutionNotifications: [Notification]
    }
    struct Notification: Encodable {
        let level: String
        let message: Message
    }
    struct Tool: Encodable { let driver: Driver }
    struct Driver: Encodable {
        let name: String, version: String
        let rules: [ReportingDescriptor]
    }
    struct ReportingDescriptor: Encodable {
        let id: String, name: String
        let shortDescription: Message, fullDescription: Message
        let defaultConfiguration: Configuration
        let properties: Properties
    }
    struct Configuration: Encodable { let level: String }
    struct Properties: Encodable { let tags: [String] }
    struct Message: Encodable { let text: String }
    struct Result: Encodable {
        let ruleId: String, ruleIndex: Int, level: String
        let message: Message
        let locations: [Location]
    }
    struct Location: Encodable { let physicalLocation: PhysicalLocation }
    struct PhysicalLocation: Encodable {
        let artifactLocation: ArtifactLocation
        let region: Region
    }
    struct ArtifactLocation: Encodable {
        let uri: String
        let uriBaseId: String?
    }
    struct Region: Encodable { let startLine: Int, startColumn: Int }
}
