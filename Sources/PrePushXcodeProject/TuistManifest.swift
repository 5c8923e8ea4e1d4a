import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// A Tuist `Project.swift` (Swift, read with swift-syntax, never run), for a project a team
/// generates with `tuist generate`: the project's name, its test targets' kinds (`product:
/// .unitTests`, `.uiTests`) and the schemes that test them (`testAction: .targets([...])`, or
/// `.testPlans([...])` with the plans' targets). A project made by the team's helper function
/// (`Project.framework(name:)`) is read through it (`TuistHelperEvaluation`), as far as literals
/// and the helper's parameters carry; values computed otherwise are not seen.
package struct TuistManifest: Sendable {
    /// The project's name (`Project(name:)`): Tuist writes `<name>.xcworkspace` beside the manifest.
    package let name: String
    /// Test targets by name, with their kind.
    package let testTargets: [String: TestBundleKind]
    /// Schemes and the targets their test action runs.
    package let schemes: [(name: String, targets: [String])]
    /// Test plan paths or globs the schemes name, relative to the manifest, by scheme.
    package let testPlans: [String: [String]]
    /// Test targets built for macOS only (`destinations: [.mac]`, `.macOS`): an iPhone destination cannot run them.
    package let macOnly: Set<String>

    /// Reads a manifest; nil when it declares no project. `helpers` are the sources of the team's
    /// `Tuist/ProjectDescriptionHelpers`: a manifest that makes its project with one of them
    /// (`let project = Project.framework(name: "Claims")`) is read through it.
    package init?(text: String, helpers: [String] = []) {
        self.init(text: text, helperFunctions: helpers.isEmpty ? [:] : TuistHelperEvaluation.functions(in: helpers))
    }

    /// Reads a manifest through helper functions parsed once (`TuistHelperEvaluation.functions(in:)`).
    init?(text: String, helperFunctions: [String: FunctionDeclSyntax]) {
        let file = Parser.parse(source: text)
        let visitor = ManifestVisitor(viewMode: .sourceAccurate)
        visitor.rawValues = ManifestVisitor.enumRawValues(in: file)
        visitor.constants = ManifestVisitor.stringConstants(in: file)
        visitor.walk(file)
        if let name = visitor.projectName {
            self.name = name
            testTargets = visitor.testTargets
            testPlans = visitor.testPlans
            schemes = visitor.schemes
            macOnly = visitor.macOnly
            return
        }
        // `let project = Project.app(…)`: the helper is walked with the call's arguments.
        var evaluation = TuistHelperEvaluation(functions: helperFunctions)
        guard !helperFunctions.isEmpty, let call = Self.projectCall(in: file), evaluation.evaluate(call), let name = evaluation.projectName else { return nil }
        self.name = name
        testTargets = evaluation.testTargets
        testPlans = [:]
        schemes = evaluation.schemes
        macOnly = evaluation.macOnly
    }

    /// The call that makes the manifest's `let project = …`.
    static func projectCall(in file: SourceFileSyntax) -> FunctionCallExprSyntax? {
        for item in file.statements {
            guard let declaration = item.item.as(VariableDeclSyntax.self) else { continue }
            for binding in declaration.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "project" {
                if let call = binding.initializer?.value.as(FunctionCallExprSyntax.self) { return call }
            }
        }
        return nil
    }

    /// The name of a Tuist `Workspace.swift`'s workspace (`Workspace(name: "Ugglan")`): Tuist
    /// writes `<name>.xcworkspace` beside it, with a `<name>-Workspace` scheme that tests every
    /// project's test targets. Nil when the text declares none.
    package static func workspaceName(text: String) -> String? {
        final class Finder: SyntaxVisitor {
            var name: String?
            override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
                if name == nil, ManifestVisitor.calleeName(call.calledExpression) == "Workspace" {
                    name = ManifestVisitor.argument(call, "name").flatMap(ManifestVisitor.string)
                }
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(Parser.parse(source: text))
        return finder.name
    }
}

/// Finds `Project(name:)`, `.target(name:product:)` / `Target(...)` and `.scheme(name:testAction:)` calls.
final class ManifestVisitor: SyntaxVisitor {
    var projectName: String?
    var testTargets: [String: TestBundleKind] = [:]
    var schemes: [(name: String, targets: [String])] = []
    var testPlans: [String: [String]] = [:]
    var macOnly: Set<String> = []

    /// The String raw values of the file's enums, by enum and case (`AzkarTarget.azkarAppTests` →
    /// `"AzkarTests"`), for names written `AzkarTarget.azkarAppTests.rawValue` or `rawValue` in a case.
    var rawValues: [String: [String: String]] = [:]

    /// The file's top-level `let name = "literal"` constants (Azkar's `let projectName = "Azkar"`).
    var constants: [String: String] = [:]

    /// The file's top-level string constants, by name.
    static func stringConstants(in file: SourceFileSyntax) -> [String: String] {
        var found: [String: String] = [:]
        for item in file.statements {
            guard let declaration = item.item.as(VariableDeclSyntax.self), declaration.bindingSpecifier.tokenKind == .keyword(.let) else { continue }
            for binding in declaration.bindings {
                if let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = binding.initializer.flatMap({ string($0.value) }) {
                    found[name] = value
                }
            }
        }
        return found
    }

    /// Every `enum E: String` of the file: each case's literal raw value, else its name.
    static func enumRawValues(in file: SourceFileSyntax) -> [String: [String: String]] {
        final class Finder: SyntaxVisitor {
            var found: [String: [String: String]] = [:]
            override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
                guard node.inheritanceClause?.inheritedTypes.first?.type.trimmedDescription == "String" else { return .visitChildren }
                var cases: [String: String] = [:]
                for member in node.memberBlock.members {
                    for element in member.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] {
                        cases[element.name.text] = element.rawValue.flatMap { ManifestVisitor.string($0.value) } ?? element.name.text
                    }
                }
                found[node.name.text] = cases
                return .visitChildren
            }
        }
        let finder = Finder(viewMode: .sourceAccurate)
        finder.walk(file)
        return finder.found
    }

    /// A name argument's text: a literal, a top-level constant, an enum case's raw value (`AzkarTarget.azkarApp.rawValue`),
    /// or `rawValue` inside the enum's own `switch self { case .azkarAppTests: … }` (Azkar's targets).
    func nameText(_ expression: ExprSyntax) -> String? {
        if let literal = Self.string(expression) { return literal }
        if let access = expression.as(MemberAccessExprSyntax.self), access.declName.baseName.text == "rawValue",
           let value = access.base?.as(MemberAccessExprSyntax.self), let type = value.base?.as(DeclReferenceExprSyntax.self) {
            return rawValues[type.baseName.text]?[value.declName.baseName.text]
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self)?.baseName.text, let value = constants[reference] { return value }
        guard expression.as(DeclReferenceExprSyntax.self)?.baseName.text == "rawValue" else { return nil }
        var node = Syntax(expression)
        var label: String?
        while let parent = node.parent {
            if label == nil, let switchCase = parent.as(SwitchCaseSyntax.self), case .case(let items) = switchCase.label, items.caseItems.count == 1 {
                label = items.caseItems.first?.pattern.as(ExpressionPatternSyntax.self)?.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            }
            if let owner = parent.as(EnumDeclSyntax.self) { return label.flatMap { rawValues[owner.name.text]?[$0] } }
            node = parent
        }
        return nil
    }

    override func visit(_ call: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let callee = Self.calleeName(call.calledExpression)
        let name = Self.argument(call, "name").flatMap(nameText)
        switch callee {
        case "Project":
            if projectName == nil { projectName = name }
        case "target", "Target":
            guard let name, let product = Self.argument(call, "product")?.as(MemberAccessExprSyntax.self)?.declName.baseName.text else { break }
            if product == "unitTests" { testTargets[name] = .unit }
            if product == "uiTests" { testTargets[name] = .ui }
            // `[.mac]`, `.macOS`: every destination named is a Mac one.
            let destinations = Self.argument(call, "destinations").map { Self.memberNames(in: Syntax($0)) } ?? []
            if !destinations.isEmpty, destinations.allSatisfy({ $0.lowercased().hasPrefix("mac") }) { macOnly.insert(name) }
        case "scheme", "Scheme":
            guard let name, let action = Self.argument(call, "testAction")?.as(FunctionCallExprSyntax.self) else { break }
            let strings = Self.strings(in: Syntax(action.arguments))
            if Self.calleeName(action.calledExpression) == "testPlans" {
                testPlans[name] = strings
                schemes.append((name, []))
            } else {
                schemes.append((name, strings))
            }
        default:
            break
        }
        return .visitChildren
    }

    /// `Project` for `Project(…)`, `target` for `.target(…)` and `Target.target(…)`.
    static func calleeName(_ expression: ExprSyntax) -> String? {
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return reference.baseName.text }
        return expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
    }

    /// The expression of a labelled argument.
    static func argument(_ call: FunctionCallExprSyntax, _ label: String) -> ExprSyntax? {
        call.arguments.first { $0.label?.text == label }?.expression
    }

    /// A string literal's text without interpolation; nil for anything else.
    static func string(_ expression: ExprSyntax) -> String? {
        guard let literal = expression.as(StringLiteralExprSyntax.self) else { return nil }
        var text = ""
        for segment in literal.segments {
            guard let piece = segment.as(StringSegmentSyntax.self) else { return nil }
            text += piece.content.text
        }
        return text
    }

    /// The member names below `node` (`.mac`, `.iPhone`).
    static func memberNames(in node: Syntax) -> [String] {
        if let access = node.as(MemberAccessExprSyntax.self) { return [access.declName.baseName.text] }
        return node.children(viewMode: .sourceAccurate).flatMap(memberNames)
    }

    /// Every plain string literal below `node` (target names in `.targets([...])`, plan globs).
    static func strings(in node: Syntax) -> [String] {
        node.tokens(viewMode: .sourceAccurate).compactMap { token in
            guard case .stringSegment(let text) = token.tokenKind,
                  let literal = token.parent?.parent?.parent?.as(StringLiteralExprSyntax.self), literal.segments.count == 1 else { return nil }
            return text
        }
    }
}
