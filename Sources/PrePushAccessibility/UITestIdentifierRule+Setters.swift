import PrePushCore
internal import SwiftSyntax

/// Where identifiers are set other than by SwiftUI's `.accessibilityIdentifier(…)`: UIKit and AppKit
/// (`button.accessibilityIdentifier = "play"`, `setAccessibilityIdentifier("workspace")`,
/// `NSUserInterfaceItemIdentifier("column")`), a component's `accessibilityIdentifier:` argument, and
/// the ids of SwiftUI scenes (`Window("Settings", id: SceneID.settings.rawValue)`), which are the
/// identifiers of the windows a macOS UI test queries. The same forms as `IdentifierCensus` reads
/// from bytes, here from the syntax tree, with their lines.
extension UITestIdentifierRule {
    /// The identifiers named by `name` as an identifier set outside SwiftUI's modifier (as the census
    /// records it): its text through `constants`; for a scene's id (`scene SceneID.settings.rawValue`)
    /// the raw values of every case of its enum, which lists the app's scenes (some of which may be
    /// declared by a package the repository does not hold).
    package static func otherIdentifiers(named name: String, constants: [ConstantLookup]) -> [String] {
        if name.hasPrefix("scene ") {
            let scene = String(name.dropFirst("scene ".count))
            let cases = constants.lazy.map { $0.enumCaseValues(ofCase: scene) }.first { !$0.isEmpty } ?? []
            if !cases.isEmpty { return cases }
            return ConstantLookup.text(of: scene, in: constants).map { [$0] } ?? []
        }
        return ConstantLookup.text(of: name, in: constants).map { [$0] } ?? []
    }

    /// Whether Swift source `bytes` may set an identifier in any way `identifierSites` reads: it holds
    /// `accessibilityIdentifier` (the modifier, UIKit's property, a component's argument),
    /// `AccessibilityIdentifier` (`setAccessibilityIdentifier`), `NSUserInterfaceItemIdentifier`,
    /// `accessibility(identifier` (SwiftUI's older modifier), or
    /// `Window` (every scene whose `id:` names a window: `Window`, `WindowGroup`, `UtilityWindow`,
    /// `openWindow`, `dismissWindow`). A byte test, so that a push parses only the files that may have
    /// set one; a file without any of these sets none.
    package static func maySetIdentifiers(_ bytes: [UInt8]) -> Bool {
        setterMarks.contains { ByteSearch.contains(bytes, $0) }
    }

    private static let setterMarks = ["accessibilityIdentifier", "AccessibilityIdentifier", "NSUserInterfaceItemIdentifier", "Window", "accessibility(identifier"]
        .map { Array($0.utf8) }

    /// The identifiers the file sets outside SwiftUI's modifier, each with its 1-based line.
    static func otherIdentifierSites(in file: ParsedSource) -> [(identifier: String, line: Int)] {
        let collector = SetterCollector(file: file)
        collector.walk(file.tree)
        return collector.sites
    }
}

/// Walks a file for the identifiers it sets outside SwiftUI's modifier.
private final class SetterCollector: SyntaxVisitor {
    let file: ParsedSource
    private(set) var sites: [(identifier: String, line: Int)] = []
    /// Calls whose first argument is an identifier.
    static let identifierCalls: Set<String> = ["setAccessibilityIdentifier", "NSUserInterfaceItemIdentifier"]

    init(file: ParsedSource) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    private func add(_ expression: ExprSyntax, scene: Bool = false) {
        let line = file.line(of: expression)
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            sites.append((literal.textWithPlaceholders, line))
            return
        }
        guard expression.is(MemberAccessExprSyntax.self) || expression.is(DeclReferenceExprSyntax.self) else { return }
        let name = (scene ? "scene " : "") + expression.trimmedDescription
        for identifier in UITestIdentifierRule.otherIdentifiers(named: name, constants: [file.constants, file.repositoryConstants]) {
            sites.append((identifier, line))
        }
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text
            ?? node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? ""
        if Self.identifierCalls.contains(name), let first = node.arguments.first {
            add(first.expression)
        } else if CensusScanner.scenes.contains(name), let id = node.arguments.first(where: { $0.label?.text == "id" }) {
            add(id.expression, scene: true)
        }
        // A component's `accessibilityIdentifier:` argument: the component sets it.
        if let argument = node.arguments.first(where: { $0.label?.text == "accessibilityIdentifier" }) {
            add(argument.expression)
        }
        return .visitChildren
    }

    /// `button.accessibilityIdentifier = "play"`, or `accessibilityIdentifier = …` in a view's own
    /// initializer (the file's tree is not folded: an assignment is a sequence `lhs = rhs`).
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for (index, element) in elements.enumerated() where index > 0 && index + 1 < elements.count && element.is(AssignmentExprSyntax.self) {
            let target = elements[index - 1]
            let name = target.as(MemberAccessExprSyntax.self)?.declName.baseName.text ?? target.as(DeclReferenceExprSyntax.self)?.baseName.text
            if name == "accessibilityIdentifier" { add(elements[index + 1]) }
        }
        return .visitChildren
    }
}
