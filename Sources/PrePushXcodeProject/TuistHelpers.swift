import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// A Tuist manifest built by the team's helper functions (`let project = Project.framework(name:
/// "Claims", targets: Set([.framework, .tests]))`, with `Project.framework` in
/// `Tuist/ProjectDescriptionHelpers`), read without running it: the helper's body is walked with
/// its parameters bound to the call's literal arguments, far enough to name the targets it makes
/// (`"\(name)Tests"`, `product: .unitTests`), the project and its schemes. Branches on a bound
/// value (`if targets.contains(.tests)`, `cond ? a : nil`) are followed as they would run; ones
/// on anything else are both taken. What is computed otherwise is not seen.
struct TuistHelperEvaluation {
    /// A value the walk knows: a string, a list of strings, or a set of enum cases (`[.tests]`).
    enum Value: Equatable {
        case string(String)
        case strings([String])
        case members(Set<String>)
    }

    private(set) var projectName: String?
    private(set) var testTargets: [String: TestBundleKind] = [:]
    private(set) var macOnly: Set<String> = []
    private(set) var schemes: [(name: String, targets: [String])] = []
    /// The helper functions, by name (the first declared wins).
    private let functions: [String: FunctionDeclSyntax]

    /// `helpers` are the sources of `Tuist/ProjectDescriptionHelpers`.
    init(helpers: [String]) {
        self.init(functions: Self.functions(in: helpers))
    }

    /// `functions` are the helpers' functions by name (`functions(in:)`), parsed once for every
    /// manifest: ugglan's 30 manifests parsed its helpers 30 times, a fifth of `init`'s time.
    init(functions: [String: FunctionDeclSyntax]) {
        self.functions = functions
    }

    /// The functions the helpers' sources declare, by name (the first declared wins).
    static func functions(in helpers: [String]) -> [String: FunctionDeclSyntax] {
        var functions: [String: FunctionDeclSyntax] = [:]
        for source in helpers {
            for function in Self.functionDeclarations(in: Syntax(Parser.parse(source: source))) where functions[function.name.text] == nil {
                functions[function.name.text] = function
            }
        }
        return functions
    }

    /// Every function declared below `node`, nested ones included.
    static func functionDeclarations(in node: Syntax) -> [FunctionDeclSyntax] {
        if let function = node.as(FunctionDeclSyntax.self) { return [function] }
        return node.children(viewMode: .sourceAccurate).flatMap(functionDeclarations)
    }

    /// Walks the helper that `call` (a manifest's `Project.framework(…)`) names; false when it names none.
    mutating func evaluate(_ call: FunctionCallExprSyntax) -> Bool {
        guard let name = ManifestVisitor.calleeName(call.calledExpression), let function = functions[name] else { return false }
        invoke(function, call, env: [:], depth: 0)
        return true
    }

    /// Runs `function` with its parameters bound from `call`'s arguments (their defaults when not passed).
    private mutating func invoke(_ function: FunctionDeclSyntax, _ call: FunctionCallExprSyntax, env: [String: Value], depth: Int) {
        guard depth < 6, let body = function.body else { return }
        var bound: [String: Value] = [:]
        var unlabelled = call.arguments.filter { $0.label == nil }.makeIterator()
        for parameter in function.signature.parameterClause.parameters {
            let label = parameter.firstName.text
            let local = (parameter.secondName ?? parameter.firstName).text
            let argument = label == "_" ? unlabelled.next()?.expression : call.arguments.first { $0.label?.text == label }?.expression
            if let value = (argument.flatMap { Self.value($0, env) }) ?? parameter.defaultValue.flatMap({ Self.value($0.value, [:]) }) {
                bound[local] = value
            }
        }
        let locals = Dictionary(Self.functionDeclarations(in: Syntax(body)).map { ($0.name.text, $0) }) { first, _ in first }
        var scope = bound
        walk(Syntax(body.statements), env: &scope, locals: locals, depth: depth)
    }

    /// Walks `node` in order, learning local constants, following known branches and helper calls.
    private mutating func walk(_ node: Syntax, env: inout [String: Value], locals: [String: FunctionDeclSyntax], depth: Int) {
        if node.is(FunctionDeclSyntax.self) { return }
        if let binding = node.as(PatternBindingSyntax.self), let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           let initializer = binding.initializer?.value {
            if let value = Self.value(initializer, env) { env[name] = value }
        }
        if let branch = node.as(IfExprSyntax.self) {
            let truth = Self.truth(branch.conditions, env)
            if truth != false { var inner = env; walk(Syntax(branch.body), env: &inner, locals: locals, depth: depth) }
            if truth != true, let otherwise = branch.elseBody { var inner = env; walk(Syntax(otherwise), env: &inner, locals: locals, depth: depth) }
            return
        }
        if let expression = node.as(ExprSyntax.self), let ternary = Self.ternary(expression) {
            let truth = Self.truth(ternary.condition, env)
            if truth != false { var inner = env; walk(Syntax(ternary.then), env: &inner, locals: locals, depth: depth) }
            if truth != true { var inner = env; walk(Syntax(ternary.otherwise), env: &inner, locals: locals, depth: depth) }
            return
        }
        if let loop = node.as(ForStmtSyntax.self), let name = loop.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
           case .strings(let items) = Self.value(loop.sequence, env) {
            for item in items { var inner = env; inner[name] = .string(item); walk(Syntax(loop.body), env: &inner, locals: locals, depth: depth) }
            return
        }
        if let call = node.as(FunctionCallExprSyntax.self), handle(call, env: env, locals: locals, depth: depth) { return }
        for child in node.children(viewMode: .sourceAccurate) { walk(child, env: &env, locals: locals, depth: depth) }
    }

    /// A target, project or scheme call, a `list.map { helper(name: $0) }`, or a call of another
    /// helper; true when it was handled whole.
    private mutating func handle(_ call: FunctionCallExprSyntax, env: [String: Value], locals: [String: FunctionDeclSyntax], depth: Int) -> Bool {
        let callee = ManifestVisitor.calleeName(call.calledExpression)
        let name = ManifestVisitor.argument(call, "name").flatMap { Self.value($0, env) }.flatMap { value -> String? in
            if case .string(let text) = value { return text }
            return nil
        }
        switch callee {
        case "Project" where projectName == nil:
            projectName = name
        case "target", "Target":
            // `.target(name:)` without a product is a dependency on a target, not one.
            guard let name, let product = ManifestVisitor.argument(call, "product")?.as(MemberAccessExprSyntax.self)?.declName.baseName.text else { return false }
            if product == "unitTests" { testTargets[name] = .unit }
            if product == "uiTests" { testTargets[name] = .ui }
            let destinations = ManifestVisitor.argument(call, "destinations").map { ManifestVisitor.memberNames(in: Syntax($0)) } ?? []
            if !destinations.isEmpty, destinations.allSatisfy({ $0.lowercased().hasPrefix("mac") }) { macOnly.insert(name) }
            return false
        case "scheme", "Scheme":
            guard let name, let action = ManifestVisitor.argument(call, "testAction") else { return false }
            schemes.append((name, testActionTargets(action, env: env, locals: locals)))
            return false
        case "map", "flatMap", "compactMap", "forEach":
            // `additionalTargets.flatMap { makeFrameworkTargets(name: $0) }`: the closure once per name.
            guard let base = call.calledExpression.as(MemberAccessExprSyntax.self)?.base, case .strings(let items) = Self.value(base, env),
                  let closure = call.trailingClosure ?? call.arguments.first?.expression.as(ClosureExprSyntax.self) else { return false }
            let parameter = closure.signature?.parameterClause?.as(ClosureShorthandParameterListSyntax.self)?.first?.name.text ?? "$0"
            for item in items {
                var inner = env
                inner[parameter] = .string(item)
                walk(Syntax(closure.statements), env: &inner, locals: locals, depth: depth)
            }
            return true
        default:
            guard let callee, let function = locals[callee] ?? functions[callee] else { return false }
            invoke(function, call, env: env, depth: depth + 1)
            return true
        }
        return false
    }

    /// The targets a scheme's test action names: its strings, read through a local function that
    /// builds it (`testAction: getTestAction()`); a branch on a bound value as it would run.
    private func testActionTargets(_ action: ExprSyntax, env: [String: Value], locals: [String: FunctionDeclSyntax]) -> [String] {
        if let ternary = Self.ternary(action) {
            switch Self.truth(ternary.condition, env) {
            case true?: return testActionTargets(ternary.then, env: env, locals: locals)
            case false?: return testActionTargets(ternary.otherwise, env: env, locals: locals)
            case nil: return testActionTargets(ternary.then, env: env, locals: locals) + testActionTargets(ternary.otherwise, env: env, locals: locals)
            }
        }
        if let call = action.as(FunctionCallExprSyntax.self), call.arguments.isEmpty,
           let callee = ManifestVisitor.calleeName(call.calledExpression), let function = locals[callee], let body = function.body {
            return Self.stringValues(in: Syntax(body), env)
        }
        return Self.stringValues(in: Syntax(action), env)
    }

    /// The parts of `condition ? then : otherwise`: the parser leaves operators unfolded, so it is
    /// a sequence of three (the condition, an unresolved ternary holding `then`, `otherwise`), or a
    /// folded ternary.
    static func ternary(_ expression: ExprSyntax) -> (condition: ExprSyntax, then: ExprSyntax, otherwise: ExprSyntax)? {
        if let folded = expression.as(TernaryExprSyntax.self) { return (folded.condition, folded.thenExpression, folded.elseExpression) }
        guard let sequence = expression.as(SequenceExprSyntax.self) else { return nil }
        let elements = Array(sequence.elements)
        guard elements.count == 3, let middle = elements[1].as(UnresolvedTernaryExprSyntax.self) else { return nil }
        return (elements[0], middle.thenExpression, elements[2])
    }

    /// Every string literal below `node` whose interpolations are known.
    static func stringValues(in node: Syntax, _ env: [String: Value]) -> [String] {
        if let literal = node.as(StringLiteralExprSyntax.self) {
            if case .string(let text)? = value(ExprSyntax(literal), env) { return [text] }
            return []
        }
        return node.children(viewMode: .sourceAccurate).flatMap { stringValues(in: $0, env) }
    }

    /// Whether conditions hold, when every one is `bound.contains(.case)` on a known set (nil: not known).
    static func truth(_ conditions: ConditionElementListSyntax, _ env: [String: Value]) -> Bool? {
        var all = true
        for element in conditions {
            guard let expression = element.condition.as(ExprSyntax.self), let holds = truth(expression, env) else { return nil }
            all = all && holds
        }
        return all
    }

    /// `targets.contains(.tests)` on a bound set of cases; `!` of one; nil for anything else.
    static func truth(_ expression: ExprSyntax, _ env: [String: Value]) -> Bool? {
        if let not = expression.as(PrefixOperatorExprSyntax.self), not.operator.text == "!" { return truth(not.expression, env).map { !$0 } }
        guard let call = expression.as(FunctionCallExprSyntax.self), let access = call.calledExpression.as(MemberAccessExprSyntax.self),
              access.declName.baseName.text == "contains", let base = access.base, let argument = call.arguments.first?.expression,
              let member = argument.as(MemberAccessExprSyntax.self)?.declName.baseName.text else { return nil }
        switch value(base, env) {
        case .members(let members)?: return members.contains(member)
        case .strings(let strings)?: return strings.contains(member)
        default: return nil
        }
    }

    /// What an expression is, when it is made of literals and bound names.
    static func value(_ expression: ExprSyntax, _ env: [String: Value]) -> Value? {
        if let literal = expression.as(StringLiteralExprSyntax.self) {
            var text = ""
            for segment in literal.segments {
                if let piece = segment.as(StringSegmentSyntax.self) {
                    text += piece.content.text
                } else if let interpolation = segment.as(ExpressionSegmentSyntax.self), interpolation.expressions.count == 1,
                          case .string(let inner)? = value(interpolation.expressions.first!.expression, env) {
                    text += inner
                } else {
                    return nil
                }
            }
            return .string(text)
        }
        if let reference = expression.as(DeclReferenceExprSyntax.self) { return env[reference.baseName.text] }
        if let access = expression.as(MemberAccessExprSyntax.self), access.base == nil { return .members([access.declName.baseName.text]) }
        if let array = expression.as(ArrayExprSyntax.self) {
            let values = array.elements.map { value($0.expression, env) }
            if values.allSatisfy({ if case .string = $0 { return true } else { return false } }) {
                return .strings(values.compactMap { if case .string(let text)? = $0 { return text } else { return nil } })
            }
            if values.allSatisfy({ if case .members = $0 { return true } else { return false } }) {
                return .members(values.reduce(into: Set<String>()) { if case .members(let names)? = $1 { $0.formUnion(names) } })
            }
            return nil
        }
        // `Set([.framework, .tests])`
        if let call = expression.as(FunctionCallExprSyntax.self), ManifestVisitor.calleeName(call.calledExpression) == "Set",
           let first = call.arguments.first?.expression {
            return value(first, env)
        }
        return nil
    }
}
