#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Today's findings, recorded so that a team can adopt the check on an existing codebase: only
/// findings not in the baseline are reported (SwiftLint's `--baseline`).
///
/// An entry is a fingerprint in the manner of SARIF's `partialFingerprints`: the rule, the file,
/// the type around the finding, the text of its line, and a hash of that line with its neighbours
/// (`context`). Line numbers are not part of it, so lines moving above a finding do not make it new.
///
/// Matching is a multiset: each entry answers for one finding. In a push, entries go first to the
/// findings on lines the push did not touch (old by definition), then to those it touched; and
/// first to a finding with the same context, then to one with the same line text only (a line
/// whose neighbours changed). A finding left without an entry is new. So 300 baselined `Button {`
/// findings and a 301st pushed in the middle of them report exactly the new one.
package struct AccessibilityBaseline: Sendable, Equatable {
    /// What a finding is known by, without its context.
    package struct Key: Hashable, Sendable, Codable, Comparable {
        package let file: String
        package let rule: String
        package let type: String
        package let text: String

        package static func < (lhs: Key, rhs: Key) -> Bool {
            (lhs.file, lhs.type, lhs.rule, lhs.text) < (rhs.file, rhs.type, rhs.rule, rhs.text)
        }
    }

    /// One entry: the key and the hash of the line with its neighbours ("" from a version 1 file).
    package struct Entry: Hashable, Sendable, Codable, Comparable {
        package let file: String
        package let rule: String
        package let type: String
        package let text: String
        package var context: String = ""

        var key: Key { Key(file: file, rule: rule, type: type, text: text) }

        package static func < (lhs: Entry, rhs: Entry) -> Bool {
            (lhs.file, lhs.type, lhs.rule, lhs.text, lhs.context) < (rhs.file, rhs.type, rhs.rule, rhs.text, rhs.context)
        }

        enum CodingKeys: String, CodingKey { case file, rule, type, text, context }

        package init(from decoder: any Decoder) throws {
            let values = try decoder.container(keyedBy: CodingKeys.self)
            file = try values.decode(String.self, forKey: .file)
            rule = try values.decode(String.self, forKey: .rule)
            type = try values.decode(String.self, forKey: .type)
            text = try values.decode(String.self, forKey: .text)
            context = try values.decodeIfPresent(String.self, forKey: .context) ?? ""
        }

        init(_ finding: AccessibilityFinding) {
            file = finding.location.file
            rule = finding.ruleID
            type = finding.enclosingType
            text = finding.lineText
            context = finding.contextHash
        }
    }

    /// How many findings of each entry the baseline holds.
    package private(set) var counts: [Entry: Int] = [:]

    /// The key of a finding.
    package static func key(_ finding: AccessibilityFinding) -> Key {
        Key(file: finding.location.file, rule: finding.ruleID, type: finding.enclosingType, text: finding.lineText)
    }

    /// A baseline of `findings`.
    package init(_ findings: [AccessibilityFinding] = []) {
        for finding in findings { counts[Entry(finding), default: 0] += 1 }
    }

    /// Whether the baseline holds no entry.
    package var isEmpty: Bool { counts.isEmpty }

    /// The findings the baseline does not hold, in their order. `touched` says which findings are
    /// on lines a push changed: the baseline's entries go to the others first. Without a push,
    /// every finding is alike.
    package func newFindings(_ findings: [AccessibilityFinding], touched: (AccessibilityFinding) -> Bool = { _ in true }) -> [AccessibilityFinding] {
        guard !counts.isEmpty else { return findings }
        var exact = counts
        var byKey: [Key: Int] = [:]
        for (entry, count) in counts { byKey[entry.key, default: 0] += count }
        var matched = [Bool](repeating: false, count: findings.count)
        // Untouched findings take their entries first, and wholly: they are old whatever their
        // text says. Only what they leave can answer for a finding on a line the push changed.
        for group in [findings.indices.filter { !touched(findings[$0]) }, findings.indices.filter { touched(findings[$0]) }] {
            // The same line in the same surroundings first...
            for index in group {
                let entry = Entry(findings[index])
                guard let count = exact[entry], count > 0, let left = byKey[entry.key], left > 0 else { continue }
                exact[entry] = count - 1
                byKey[entry.key] = left - 1
                matched[index] = true
            }
            // ...then the same line whose neighbours changed (or an entry of a version 1 baseline).
            for index in group where !matched[index] {
                let key = Self.key(findings[index])
                guard let left = byKey[key], left > 0 else { continue }
                byKey[key] = left - 1
                matched[index] = true
                // The entry it takes is one with another context: count it gone from those too.
                if let other = exact.first(where: { $0.key.key == key && $0.value > 0 })?.key { exact[other, default: 0] -= 1 }
            }
        }
        return findings.indices.filter { !matched[$0] }.map { findings[$0] }
    }

    private struct Document: Codable {
        let version: Int
        let findings: [Entry]
    }

    /// The baseline as JSON (version 2): one entry per finding, sorted, so that it diffs well in review.
    package func rendered() -> String {
        let entries = counts.sorted { $0.key < $1.key }.flatMap { Array(repeating: $0.key, count: $0.value) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(Document(version: 2, findings: entries))) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    /// Why a baseline file could not be read.
    package struct ReadError: Error, Sendable {
        /// What was wrong, in words.
        package let reason: String
    }

    /// Reads a baseline written by `rendered()`, or by an earlier prepush (version 1: no context,
    /// matched by line text alone).
    package static func decode(_ bytes: [UInt8], name: String) throws(ReadError) -> AccessibilityBaseline {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch {
            throw ReadError(reason: "expected {\"version\": 2, \"findings\": [{\"file\", \"rule\", \"type\", \"text\", \"context\"}]}")
        }
        guard document.version == 1 || document.version == 2 else {
            throw ReadError(reason: "version \(document.version); this prepush reads versions 1 and 2")
        }
        var baseline = AccessibilityBaseline()
        for entry in document.findings { baseline.counts[entry, default: 0] += 1 }
        return baseline
    }
}
