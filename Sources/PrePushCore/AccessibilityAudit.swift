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
    public static func results(fromFailureMessage message: String) -> [AccessibilityAuditResult] {
        let lower = message.lowercased()
        var auditType: String?
        if let range = lower.firstRange(of: "audittype: ") {
            auditType = canonical(String(lower[range.upperBound...].prefix { $0.isLetter || $0 == "." }))
        }
        if auditType == nil, let range = lower.firstRange(of: "xcuiaccessibilityaudittype") {
            auditType = canonical("xcuiaccessibilityaudittype" + lower[range.upperBound...].prefix { $0.isLetter })
        }
        if auditType == nil, let match = descriptions.first(where: { lower.contains($0.phrase) }) {
            auditType = match.auditType.lowercased()
        }
        guard let short = auditType, let issueType = issueType(forAuditType: short) else { return [] }
        var element = ""
        if let range = lower.firstRange(of: "element: ") {
            let start = message.index(message.startIndex, offsetBy: lower.distance(from: lower.startIndex, to: range.upperBound))
            element = String(message[start...].prefix { $0 != "," && $0 != "\n" && $0 != ")" })
                .trimmingPrefix("\"").split(separator: "\"").first.map(String.init) ?? ""
        }
        return [AccessibilityAuditResult(elementIdentifier: element, issueType: issueType, issueDescription: message,
                                         auditType: spelled[short])]
    }
}
