/// Xcode's runtime accessibility audits (`XCUIApplication.performAccessibilityAudit()`, Xcode 15+),
/// by Apple's own names, mapped onto the data model's `AccessibilityAuditResult`. An audit failure
/// names its type (`XCUIAccessibilityAuditTypeContrast`, or `.contrast` in Swift, or
/// `auditType: contrast` from an issue handler) or only its description ("Contrast failed"); both
/// are read.
public enum AccessibilityAuditMapping {
    /// Audit types by their lowercased short name, with the issue type each maps to.
    static let auditTypes: [(name: String, issueType: AccessibilityIssueType)] = [
        ("contrast", .insufficientContrast),
        ("hitregion", .touchTargetTooSmall),
        ("dynamictype", .dynamicTypeUnsupported),
        ("textclipped", .dynamicTypeUnsupported),
        ("sufficientelementdescription", .missingLabel),
        ("elementdetection", .other),
        ("trait", .other),
        ("action", .other),
        ("parentchild", .other),
    ]

    /// The descriptions Xcode prints, each with its audit type (lowercased phrase → Apple name).
    static let descriptions: [(phrase: String, auditType: String)] = [
        ("contrast failed", "contrast"), ("contrast nearly passed", "contrast"),
        ("element has no description", "sufficientElementDescription"), ("image has no label", "sufficientElementDescription"),
        ("label not human-readable", "sufficientElementDescription"), ("element may need a title", "sufficientElementDescription"),
        ("label duplicates role description", "sufficientElementDescription"),
        ("dynamic type font sizes are unsupported", "dynamicType"), ("text clipped", "textClipped"),
        ("potentially inaccessible text", "elementDetection"), ("unknown role", "elementDetection"),
        ("action is missing", "action"), ("parent/child mismatch", "parentChild"),
        ("hit region", "hitRegion"), ("hit target", "hitRegion"),
    ]

    /// The Apple names as written (`hitRegion`), by lowercased name.
    static let spelled: [String: String] = [
        "contrast": "contrast", "hitregion": "hitRegion", "dynamictype": "dynamicType", "textclipped": "textClipped",
        "sufficientelementdescription": "sufficientElementDescription", "elementdetection": "elementDetection",
        "trait": "trait", "action": "action", "parentchild": "parentChild",
    ]

    /// The issue type for an audit type in any spelling (`XCUIAccessibilityAuditTypeHitRegion`,
    /// `hitRegion`, `.hitRegion`), or nil for a name that is no audit type.
    public static func issueType(forAuditType name: String) -> AccessibilityIssueType? {
        canonical(name).flatMap { short in auditTypes.first { $0.name == short }?.issueType }
    }

    /// The lowercased short name of an audit type spelled any way, or nil.
    static func canonical(_ name: String) -> String? {
        var short = Substring(name.lowercased())
        if short.hasPrefix(".") { short = short.dropFirst() }
        if short.hasPrefix("xcuiaccessibilityaudittype") { short = short.dropFirst(26) }
        return auditTypes.contains { $0.name == short } ? String(short) : nil
    }

    /// The audit results a failure message holds: one when it names an audit type or prints one of
    /// Xcode's audit descriptions, with the element after `element: ` or `Element: ` (quotes removed).
    /// Every failing test's messages pass through here, so it works on bytes, ASCII-lowercased once.
    public static func results(fromFailureMessage message: String) -> [AccessibilityAuditResult] {
        var lower = Array(message.utf8)
        for index in lower.indices where lower[index] >= 65 && lower[index] <= 90 { lower[index] += 32 }
        var auditType: String?
        if let at = find(Self.auditTypeKey, in: lower) {
            let name = lower[(at + auditTypeKey.count)...].prefix { isLetter($0) || $0 == UInt8(ascii: ".") }
            auditType = canonical(String(decoding: name, as: UTF8.self))
        }
        if auditType == nil, let at = find(Self.swiftAuditTypePrefix, in: lower) {
            let name = lower[(at + swiftAuditTypePrefix.count)...].prefix(while: isLetter)
            auditType = canonical("xcuiaccessibilityaudittype" + String(decoding: name, as: UTF8.self))
        }
        if auditType == nil, let match = descriptionBytes.first(where: { find($0.phrase, in: lower) != nil }) {
            auditType = match.auditType.lowercased()
        }
        guard let short = auditType, let issueType = issueType(forAuditType: short) else { return [] }
        var element = ""
        if let at = find(Self.elementKey, in: lower) {
            // ASCII lowercasing keeps every byte where it was: the offset is the message's too.
            let rest = Array(message.utf8)[(at + elementKey.count)...].prefix { $0 != UInt8(ascii: ",") && $0 != 10 && $0 != UInt8(ascii: ")") }
            element = String(decoding: rest, as: UTF8.self)
                .trimmingPrefix("\"").split(separator: "\"").first.map(String.init) ?? ""
        }
        return [AccessibilityAuditResult(elementIdentifier: element, issueType: issueType, issueDescription: message,
                                         auditType: spelled[short])]
    }

    private static let auditTypeKey = Array("audittype: ".utf8)
    private static let swiftAuditTypePrefix = Array("xcuiaccessibilityaudittype".utf8)
    private static let elementKey = Array("element: ".utf8)
    private static let descriptionBytes = descriptions.map { (phrase: Array($0.phrase.utf8), auditType: $0.auditType) }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90)
    }

    /// The first index of `needle` in `haystack`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = needle.first, haystack.count >= needle.count else { return nil }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first {
                var matched = 1
                while matched < needle.count && haystack[index + matched] == needle[matched] { matched += 1 }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
