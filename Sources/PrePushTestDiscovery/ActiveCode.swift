import PrePushTraceability
internal import SwiftSyntax

/// Which `#if` branches are compiled for a platform: read from the syntax tree.
extension BuildPlatform {
    /// Modules that exist only on Apple's systems, and those only elsewhere.
    static let appleOnly: Set<String> = ["Darwin", "UIKit", "AppKit", "SwiftUI", "Combine", "XCUIAutomation", "ObjectiveC", "CoreFoundation",
                                         "CoreGraphics", "UniformTypeIdentifiers", "WatchKit", "os", "OSLog", "Observation"]
    static let linuxOnly: Set<String> = ["Glibc", "Musl", "FoundationNetworking", "FoundationXML"]

    var isApple: Bool { ["macOS", "iOS", "tvOS", "watchOS", "visionOS"].contains(operatingSystem) }

    /// Whether `canImport(module)` holds. A module this list does not know (the package's own) can be imported.
    func canImport(_ module: String) -> Bool {
        if module == "AppKit" { return operatingSystem == "macOS" }
        if module == "UIKit" { return isApple && operatingSystem != "macOS" }
        if Self.appleOnly.contains(module) { return isApple }
        if Self.linuxOnly.contains(module) { return operatingSystem == "Linux" }
        return true
    }

    /// Whether a `#if` condition holds here; nil for a form it cannot read (then the branch counts as active).
    func holds(_ condition: ExprSyntax) -> Bool? {
        if let literal = condition.as(BooleanLiteralExprSyntax.self) { return literal.literal.tokenKind == .keyword(.true) }
        if let reference = condition.as(DeclReferenceExprSyntax.self) {
            // Custom conditions: `swift test` builds in debug.
            return reference.baseName.text == "DEBUG"
        }
        if let tuple = condition.as(TupleExprSyntax.self), tuple.elements.count == 1, let inner = tuple.elements.first {
            return holds(inner.expression)
        }
        if let prefix = condition.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "!" {
            return holds(prefix.expression).map { !$0 }
        }
        if let sequence = condition.as(SequenceExprSyntax.self) { return holds(sequence: Array(sequence.elements)) }
        if let infix = condition.as(InfixOperatorExprSyntax.self), let op = infix.operator.as(BinaryOperatorExprSyntax.self) {
            return combine(holds(infix.leftOperand), op.operator.text, holds(infix.rightOperand))
        }
        if let call = condition.as(FunctionCallExprSyntax.self), let name = call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text {
            let argument = call.arguments.first?.expression.trimmedDescription ?? ""
            switch name {
            case "os": return argument == operatingSystem || (argument == "OSX" && operatingSystem == "macOS")
            case "arch": return argument == architecture || (argument == "aarch64" && architecture == "arm64")
            case "canImport": return canImport(argument.split(separator: ".").first.map(String.init) ?? argument)
            case "targetEnvironment": return argument == "simulator" ? isApple && operatingSystem != "macOS" : false
            case "swift", "compiler": return argument.hasPrefix(">=") ? true : argument.hasPrefix("<") ? false : nil
            default: return nil
            }
        }
        return nil
    }

    /// `a && b || c` as the parser leaves it unfolded: `&&` binds tighter than `||`.
    private func holds(sequence elements: [ExprSyntax]) -> Bool? {
        var disjuncts: [[ExprSyntax]] = [[]]
        for element in elements {
            if let op = element.as(BinaryOperatorExprSyntax.self), op.operator.text == "||" { disjuncts.append([]) } else { disjuncts[disjuncts.count - 1].append(element) }
        }
        var anyUnknown = false
        for disjunct in disjuncts {
            var all: Bool? = true
            for operand in disjunct where !(operand.as(BinaryOperatorExprSyntax.self)?.operator.text == "&&") {
                all = combine(all, "&&", holds(operand))
            }
            if all == true { return true }
            if all == nil { anyUnknown = true }
        }
        return anyUnknown ? nil : false
    }

    private func combine(_ left: Bool?, _ op: String, _ right: Bool?) -> Bool? {
        switch op {
        case "&&":
            if left == false || right == false { return false }
            return left == nil || right == nil ? nil : true
        case "||":
            if left == true || right == true { return true }
            return left == nil || right == nil ? nil : false
        default: return nil
        }
    }

    /// The clause of `#if` that is compiled here: the first whose condition holds (or cannot be
    /// read), else `#else`; nil when none is.
    func activeClause(of node: IfConfigDeclSyntax) -> IfConfigClauseSyntax? {
        for clause in node.clauses {
            guard let condition = clause.condition else { return clause }
            if holds(condition) != false { return clause }
        }
        return nil
    }
}
