#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Today's findings, recorded so that a team can adopt the check on an existing codebase: only
/// findings not in the baseline are reported (SwiftLint's `--baseline`). A finding is known by its
/// rule, its file, the type around it and the text of its line — not by its line number, so it
/// survives lines moving above it; editing the line makes it new. Several identical findings are
/// counted: a third copy of a line the baseline holds twice is new.
public struct AccessibilityBaseline: Sendable, Equatable {
    /// What a finding is known by.
    public struct Key: Hashable, Sendable, Codable, Comparable {
        public let file: String
        public let rule: String
        public let type: String
        public let text: String

        public static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.file, lhs.type, lhs.rule, lhs.text) < (rhs.file, rhs.type, rhs.rule, rhs.text)
        }
    }

    /// How many findings of each key the baseline holds.
    public private(set) var counts: [Key: Int] = [:]

    /// The key of a finding.
    public static func key(_ finding: AccessibilityFinding) -> Key {
        Key(file: finding.location.file, rule: finding.ruleID, type: finding.enclosingType, text: finding.lineText)
    }

    /// A baseline of `findings`.
    public init(_ findings: [AccessibilityFinding] = []) {
        for finding in findings { counts[Self.key(finding), default: 0] += 1 }
    }

    /// The findings the baseline does not hold, in their order.
    public func newFindings(_ findings: [AccessibilityFinding]) -> [AccessibilityFinding] {
        var left = counts
        return findings.filter { finding in
            let key = Self.key(finding)
            guard let count = left[key], count > 0 else { return true }
            left[key] = count - 1
            return false
        }
    }

    private struct Document: Codable {
        let version: Int
        let findings: [Key]
    }

    /// The baseline as JSON: one entry per finding, sorted, so that it diffs well in review.
    public func rendered() -> String {
        let entries = counts.sorted { $0.key < $1.key }.flatMap { Array(repeating: $0.key, count: $0.value) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(version: 1, findings: entries))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Why a baseline file could not be read.
    public struct ReadError: Error, Sendable {
        /// What was wrong, in words.
        public let reason: String
    }

    /// Reads a baseline written by `rendered()`.
    public static func decode(_ bytes: [UInt8], name: String) throws(ReadError) -> AccessibilityBaseline {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch {
            throw ReadError(reason: "expected {\"version\": 1, \"findings\": [{\"file\", \"rule\", \"type\", \"text\"}]}")
        }
        guard document.version == 1 else {
            throw ReadError(reason: "version \(document.version); this prepush reads version 1")
        }
        var baseline = AccessibilityBaseline()
        for key in document.findings { baseline.counts[key, default: 0] += 1 }
        return baseline
    }
}
