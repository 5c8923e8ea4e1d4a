#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushTraceability
import UITestSupport
internal import SwiftParser
internal import SwiftSyntax

/// Finds XCTest and Swift Testing tests with swift-syntax.
package enum TestDiscovery {
    /// The `.swift` files under `root` (relative paths, sorted) that one of `include` selects.
    package static func files(under root: String, include: [Glob], exclude: [Glob] = []) -> [String] {
        SourceTree.files(under: root) { path in
            path.hasSuffix(".swift") && include.contains { $0.matches(path) } && !exclude.contains { $0.matches(path) }
        }
    }

    /// Discovers the tests in `testFiles` (relative to `root`); `constantFiles` are read only for
    /// `LaunchArguments` constants (the app's or UITestSupport's declaration).
    /// With `platform`, tests in `#if` branches not compiled there are left out (sharding).
    package static func discover(root: String, testFiles: [String], constantFiles: [String] = [], platform: BuildPlatform? = nil) -> TestInventory {
        var texts: [(file: String, text: String)] = []
        var skipped: [String] = []
        for file in testFiles {
            let data: [UInt8]
            switch FileReading.read(FilePath.join(root, file), limit: FileReading.sourceCeiling) {
            case .success(let bytes): data = bytes
            case .failure(let problem):
                if case .tooLarge = problem { skipped.append("\(file) (\(problem); not read)") }
                continue
            }
            guard let text = String(validating: data, as: UTF8.self) else { skipped.append("\(file) (not UTF-8 text)"); continue }
            texts.append((file, text))
        }
        let parsed = parseConcurrently(texts, platform: platform)
        var constants = LaunchArgumentConstants.known
        for file in constantFiles where !testFiles.contains(file) {
            guard case .success(let data) = FileReading.read(FilePath.join(root, file), limit: FileReading.sourceCeiling),
                  let text = String(validating: data, as: UTF8.self) else { continue }
            constants.merge(FileFacts(path: file, text: text, collectTests: false).constants) { _, new in new }
        }
        for facts in parsed { constants.merge(facts.constants) { _, new in new } }
        return link(parsed, constants: constants, skipped: skipped)
    }

    /// Each file's facts, the files parsed on every core (parsing is nearly all of discovery's time:
    /// 0.6 s of CPU for this project's 120 test files), in the files' order.
    static func parseConcurrently(_ texts: [(file: String, text: String)], platform: BuildPlatform?) -> [FileFacts] {
        Concurrently.map(texts) { FileFacts(path: $0.file, text: $0.text, collectTests: true, platform: platform) }
    }

    /// Joins what every file declared: class hierarchies across files, extensions, arguments.
    static func link(_ files: [FileFacts], constants: [String: String], skipped: [String]) -> TestInventory {
        var superclass: [String: String] = [:]
        var methods: [String: [String: [MethodFacts]]] = [:]   // type → name → bodies
        for file in files {
            for (type, parent) in file.superclasses { superclass[type] = parent }
            for method in file.methods { methods[method.typeName ?? "", default: [:]][method.name, default: []].append(method) }
        }
        // Short names reach qualified ones: `class A: Base` where Base is `Outer.Base`.
        var qualified: [String: String] = [:]
        for type in superclass.keys { qualified[String(type.split(separator: ".").last ?? Substring(type))] = type }
        func parent(of type: String) -> String? {
            guard let name = superclass[type] else { return nil }
            return qualified[name] ?? name
        }
        func ancestry(_ type: String) -> [String] {
            var chain = [type]
            var seen: Set<String> = [type]
            while let next = parent(of: chain.last!), !seen.contains(next) {
                chain.append(next)
                seen.insert(next)
            }
            return chain
        }
        func isTestCase(_ type: String) -> Bool {
            ancestry(type).contains { $0 == "XCTestCase" || $0 == "XCTest.XCTestCase" }
        }

        var suiteTags: [String: [String]] = [:]
        for file in files { suiteTags.merge(file.suiteTags) { $0 + $1 } }
        var tests: [DiscoveredTest] = []
        for file in files {
            for method in file.methods {
                let framework: DiscoveredTest.Framework
                if method.isTestAttributed {
                    framework = .swiftTesting
                } else if let type = method.typeName, method.isXCTestShaped, isTestCase(qualified[type] ?? type) {
                    framework = .xctest
                } else {
                    continue
                }
                // Launch arguments: the body, then setUp and called helpers up the class chain.
                var arguments = Set<String>()
                var visited = Set<String>()
                var pending: [MethodFacts] = [method]
                let chain = method.typeName.map { ancestry(qualified[$0] ?? $0) } ?? []
                for type in chain {
                    for name in ["setUp", "setUpWithError"] { pending += methods[type]?[name] ?? [] }
                }
                while let next = pending.popLast() {
                    let key = "\(next.path):\(next.location.line):\(next.name)"
                    guard visited.insert(key).inserted else { continue }
                    arguments.formUnion(next.arguments.compactMap { $0.resolve(constants) }.filter { $0.hasPrefix("--") })
                    for called in next.calledNames {
                        for type in chain { pending += methods[type]?[called] ?? [] }
                    }
                }
                var test = DiscoveredTest(name: method.name, typeName: method.typeName, framework: framework,
                                          location: method.location, launchArguments: arguments)
                test.displayName = method.displayName
                test.parameterLabels = method.parameterLabels
                // A test carries its own tags and those of every suite it is nested in.
                var enclosing = method.typeName.map { $0.split(separator: ".").map(String.init) } ?? []
                var tags = method.tags
                while !enclosing.isEmpty {
                    tags += suiteTags[enclosing.joined(separator: ".")] ?? []
                    enclosing.removeLast()
                }
                test.tags = Array(Set(tags)).sorted()
                tests.append(test)
            }
        }
        tests.sort { ($0.location.file, $0.location.line) < ($1.location.file, $1.location.line) }
        return TestInventory(tests: tests, suites: files.flatMap(\.suites).sorted(), skippedFiles: skipped)
    }
}

/// The launch arguments UITestSupport's `LaunchArguments` declares (data model), used when the
/// project's own declaration is not among the files read.
enum LaunchArgumentConstants {
    static let known: [String: String] = UITestSupport.LaunchArguments.byName
}

/// An expression that may evaluate to a launch argument.
indirect enum ArgumentExpression: Sendable, Hashable {
    case literal(String)
    case constant(String)
    case concatenation([ArgumentExpression])

    func resolve(_ constants: [String: String]) -> String? {
        switch self {
        case .literal(let text): return text
        case .constant(let name): return constants[name]
        case .concatenation(let parts):
            var result = ""
            for part in parts {
                guard let text = part.resolve(constants) else { return nil }
                result += text
            }
            return result
        }
    }
}

/// A function or method as discovery needs it.
struct MethodFacts: Sendable {
    let path: String
    let name: String
    let typeName: String?
    let location: PrePushCore.SourceLocation
    /// `@Test` (or `@Testing.Test`).
    let isTestAttributed: Bool
    /// The display name `@Test("…")` gives, if any.
    var displayName: String? = nil
    /// The parameters' argument labels (`_` where there is none).
    var parameterLabels: [String] = []
    /// `@Test(.tags(…))`'s tags.
    var tags: [String] = []
    /// An instance method named `test…` without parameters: what XCTest runs.
    let isXCTestShaped: Bool
    /// Expressions in the body that may be launch arguments.
    let arguments: [ArgumentExpression]
    /// Names of functions the body calls directly (`launchApp()`, `self.launchApp()`).
    let calledNames: Set<String>
}

/// What one file declares.
struct FileFacts: Sendable {
    var superclasses: [(String, String)] = []
    var methods: [MethodFacts] = []
    var suites: [String] = []
    var suiteTags: [String: [String]] = [:]
    var constants: [String: String] = [:]

    init(path: String, text: String, collectTests: Bool, platform: BuildPlatform? = nil) {
        let tree = Parser.parse(source: text)
        let collector = DeclarationCollector(path: path, converter: SourceLocationConverter(fileName: path, tree: tree), collectTests: collectTests)
        collector.platform = platform
        collector.walk(tree)
        superclasses = collector.superclasses
        methods = collector.methods
        suites = collector.suites
        suiteTags = collector.suiteTags
        constants = collector.constants
    }
}

/// Walks one file's declarations, keeping the name of the type each one is in.
final class DeclarationCollector: SyntaxVisitor {
    let path: String
    let converter: SourceLocationConverter
    let collectTests: Bool
    var typeStack: [String] = []
    var superclasses: [(String, String)] = []
    var methods: [MethodFacts] = []
    var suites: [String] = []
    /// `@Suite(.tags(…))` by the suite's type name.
    var suiteTags: [String: [String]] = [:]
    var constants: [String: String] = [:]

    init(path: String, converter: SourceLocationConverter, collectTests: Bool) {
        self.path = path
        self.converter = converter
        self.collectTests = collectTests
        super.init(viewMode: .sourceAccurate)
    }

    var currentType: String? { typeStack.isEmpty ? nil : typeStack.joined(separator: ".") }
    /// When set, only the `#if` branches compiled there are read.
    var platform: BuildPlatform?

    override func visit(_ node: IfConfigDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let platform else { return .visitChildren }
        if let elements = platform.activeClause(of: node)?.elements { walk(elements) }
        return .skipChildren
    }

    func enter(_ name: String, inheritance: InheritanceClauseSyntax?, attributes: AttributeListSyntax) {
        typeStack.append(name)
        if let first = inheritance?.inheritedTypes.first {
            superclasses.append((currentType!, first.type.trimmedDescription))
        }
        recordSuite(attributes)
    }

    /// A type marked `@Suite` is a Swift Testing suite; its `.tags(…)` are its tests' too.
    func recordSuite(_ attributes: AttributeListSyntax) {
        guard let attribute = attributes.compactMap({ $0.as(AttributeSyntax.self) }).first(where: Self.isSuiteAttribute) else { return }
        suites.append(currentType!)
        let tags = Self.tags(in: attribute)
        if !tags.isEmpty { suiteTags[currentType!, default: []] += tags }
    }

    /// `.tags(.smoke, Tag.critical)` among an attribute's arguments → `["smoke", "critical"]`.
    static func tags(in attribute: AttributeSyntax) -> [String] {
        guard case .argumentList(let arguments)? = attribute.arguments else { return [] }
        var tags: [String] = []
        for argument in arguments {
            guard let call = argument.expression.as(FunctionCallExprSyntax.self),
                  call.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "tags" else { continue }
            for tag in call.arguments {
                if let member = tag.expression.as(MemberAccessExprSyntax.self) { tags.append(member.declName.baseName.text) }
            }
        }
        return tags
    }

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: node.inheritanceClause, attributes: node.attributes)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: StructDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: nil, attributes: node.attributes)
        return .visitChildren
    }
    override func visitPost(_ node: StructDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: EnumDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: nil, attributes: node.attributes)
        return .visitChildren
    }
    override func visitPost(_ node: EnumDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: ActorDeclSyntax) -> SyntaxVisitorContinueKind {
        enter(node.name.text, inheritance: nil, attributes: node.attributes)
        return .visitChildren
    }
    override func visitPost(_ node: ActorDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        // `extension Outer.Inner` continues that type; nesting inside it continues from there.
        typeStack.append(node.extendedType.trimmedDescription)
        recordSuite(node.attributes)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { typeStack.removeLast() }

    override func visit(_ node: VariableDeclSyntax) -> SyntaxVisitorContinueKind {
        // `static let uitesting = "--uitesting"` inside a type named LaunchArguments.
        guard typeStack.last == "LaunchArguments", node.modifiers.contains(where: { $0.name.text == "static" }) else { return .skipChildren }
        for binding in node.bindings {
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                  let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self),
                  let text = Self.plainText(literal) else { continue }
            constants[name] = text
        }
        return .skipChildren
    }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        guard collectTests else { return .skipChildren }
        let isTest = node.attributes.contains { $0.as(AttributeSyntax.self).map(Self.isTestAttribute) ?? false }
        let isStatic = node.modifiers.contains { $0.name.text == "static" || $0.name.text == "class" }
        let name = node.name.text
        let xctestShaped = !isStatic && name.hasPrefix("test") && node.signature.parameterClause.parameters.isEmpty
        let body = node.body.map { ArgumentCollector.collect(in: $0) } ?? ([], [])
        let place = node.name.startLocation(converter: converter)
        var facts = MethodFacts(path: path, name: name, typeName: currentType,
                                location: PrePushCore.SourceLocation(file: path, line: place.line, column: place.column),
                                isTestAttributed: isTest, isXCTestShaped: xctestShaped, arguments: body.0, calledNames: body.1)
        facts.parameterLabels = node.signature.parameterClause.parameters.map(\.firstName.text)
        // `@Test("Sign in works", .tags(…))`: the first unlabelled argument, a plain string literal.
        if let attribute = node.attributes.compactMap({ $0.as(AttributeSyntax.self) }).first(where: Self.isTestAttribute),
           case .argumentList(let arguments)? = attribute.arguments,
           let first = arguments.first, first.label == nil,
           let literal = first.expression.as(StringLiteralExprSyntax.self),
           literal.segments.allSatisfy({ $0.is(StringSegmentSyntax.self) }) {
            facts.displayName = literal.segments.compactMap { $0.as(StringSegmentSyntax.self)?.content.text }.joined()
        }
        if let attribute = node.attributes.compactMap({ $0.as(AttributeSyntax.self) }).first(where: Self.isTestAttribute) {
            facts.tags = Self.tags(in: attribute)
        }
        methods.append(facts)
        return .skipChildren
    }

    static func attributeName(_ attribute: AttributeSyntax) -> String {
        attribute.attributeName.trimmedDescription
    }

    static func isTestAttribute(_ attribute: AttributeSyntax) -> Bool {
        let name = attributeName(attribute)
        return name == "Test" || name == "Testing.Test"
    }

    static func isSuiteAttribute(_ attribute: AttributeSyntax) -> Bool {
        let name = attributeName(attribute)
        return name == "Suite" || name == "Testing.Suite"
    }

    /// A literal's text when it has no interpolation.
    static func plainText(_ literal: StringLiteralExprSyntax) -> String? {
        var text = ""
        for segment in literal.segments {
            guard let part = segment.as(StringSegmentSyntax.self) else { return nil }
            text += part.content.text
        }
        return text
    }
}

/// Collects the expressions of a body that may be launch arguments, and the names it calls.
final class ArgumentCollector: SyntaxVisitor {
    var arguments: [ArgumentExpression] = []
    var called: Set<String> = []

    static func collect(in body: CodeBlockSyntax) -> ([ArgumentExpression], Set<String>) {
        let collector = ArgumentCollector(viewMode: .sourceAccurate)
        collector.walk(body)
        return (collector.arguments, collector.called)
    }

    override func visit(_ node: StringLiteralExprSyntax) -> SyntaxVisitorContinueKind {
        if let expression = Self.expression(ExprSyntax(node)) { arguments.append(expression) }
        return .skipChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if let expression = Self.expression(ExprSyntax(node)) { arguments.append(expression) }
        return .visitChildren
    }

    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        // `LaunchArguments.mockPermissions + "=granted"`: unfolded, a sequence of operands and `+`.
        let elements = Array(node.elements)
        if elements.count >= 3, elements.count % 2 == 1,
           stride(from: 1, to: elements.count, by: 2).allSatisfy({ elements[$0].as(BinaryOperatorExprSyntax.self)?.operator.text == "+" }) {
            let parts = stride(from: 0, to: elements.count, by: 2).map { Self.expression(elements[$0]) }
            if parts.allSatisfy({ $0 != nil }) { arguments.append(.concatenation(parts.compactMap { $0 })) }
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            called.insert(reference.baseName.text)
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) {
            called.insert(member.declName.baseName.text)
        }
        return .visitChildren
    }

    /// A literal, a `LaunchArguments.name` constant, or an interpolation of those.
    static func expression(_ node: ExprSyntax) -> ArgumentExpression? {
        if let literal = node.as(StringLiteralExprSyntax.self) {
            var parts: [ArgumentExpression] = []
            for segment in literal.segments {
                if let text = segment.as(StringSegmentSyntax.self) {
                    parts.append(.literal(text.content.text))
                } else if let interpolation = segment.as(ExpressionSegmentSyntax.self), interpolation.expressions.count == 1,
                          let inner = interpolation.expressions.first.flatMap({ expression($0.expression) }) {
                    parts.append(inner)
                } else {
                    return nil
                }
            }
            return parts.count == 1 ? parts[0] : .concatenation(parts)
        }
        if let member = node.as(MemberAccessExprSyntax.self), member.base?.as(DeclReferenceExprSyntax.self)?.baseName.text == "LaunchArguments" {
            return .constant(member.declName.baseName.text)
        }
        return nil
    }
}
