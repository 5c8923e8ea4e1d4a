import PrePushCore
internal import SwiftParser
internal import SwiftSyntax

/// The UI-test classes that take screenshots (for the App Store, fastlane's `snapshot`) rather than
/// check the app, read from their sources with swift-syntax: a class whose `test…` methods reach,
/// through the class's own methods, a screenshot kept as an attachment (`XCUIScreen.main.screenshot()`
/// or `app.screenshot()` in a method that sets `.keepAlways`) or fastlane's helper (`snapshot("01Home")`,
/// `setupSnapshot(app)`). A screenshot taken in `tearDown` when a test fails is how a test reports,
/// not what it is for: `tearDown` is no test method, so it does not count.
package enum ScreenshotTests {
    /// What the files of one test bundle declare.
    package struct Reading: Sendable, Equatable {
        /// Every class (by name) that declares a `test…` method.
        package var testClasses: Set<String> = []
        /// The classes among them whose tests take screenshots.
        package var screenshotClasses: Set<String> = []
    }

    /// Reads the sources of one bundle (its classes' extensions may sit in other files).
    package static func read(_ texts: [String]) -> Reading {
        let visitor = TypeMethodsVisitor(viewMode: .sourceAccurate)
        // Parsed side by side (the parse is most of the cost: 6% of `init`'s CPU in element-x), walked
        // in order by the one visitor.
        for tree in Concurrently.map(texts, { Parser.parse(source: $0) }) { visitor.walk(tree) }
        var reading = Reading()
        for (type, methods) in visitor.methods {
            let tests = methods.keys.filter { $0.hasPrefix("test") }
            guard !tests.isEmpty, visitor.classes.contains(type) else { continue }
            reading.testClasses.insert(type)
            // The methods that reach a screenshot, through calls among the class's own methods.
            // fastlane's `snapshot("01Home")` is a free function; a class that declares its own
            // `snapshot(…)` calls that one instead (followed like any other method).
            let fastlane = TypeMethodsVisitor.fastlaneHelpers.subtracting(methods.keys)
            var reaching = Set(methods.filter { $0.value.keeps || !$0.value.calls.isDisjoint(with: fastlane) }.map(\.key))
            var grew = true
            while grew {
                grew = false
                for (name, method) in methods where !reaching.contains(name) && !method.calls.isDisjoint(with: reaching) {
                    reaching.insert(name)
                    grew = true
                }
            }
            if tests.contains(where: reaching.contains) { reading.screenshotClasses.insert(type) }
        }
        return reading
    }
}

/// The snapshot-testing libraries a test imports to compare a view with an image recorded before:
/// pointfree's `SnapshotTesting`, Uber's `iOSSnapshotTestCase` (once `FBSnapshotTestCase`). Such
/// tests pass only on the simulator (model, OS, scale) the images were recorded on.
package enum SnapshotLibraries {
    static let names = ["SnapshotTesting", "iOSSnapshotTestCase", "FBSnapshotTestCase"]

    /// Whether a Swift source imports one (`import SnapshotTesting`, `@testable import …`,
    /// `import struct SnapshotTesting.Snapshotting`); a commented import does not count.
    package static func imported(in text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let code = line.drop { $0 == " " || $0 == "\t" }
            guard !code.hasPrefix("//"), let range = code.firstRange(of: "import ") else { return false }
            return code[range.upperBound...].split(separator: " ").contains { word in names.contains { word == $0 || word.hasPrefix($0 + ".") } }
        }
    }
}

/// One method's calls, and whether it takes a screenshot itself.
private struct MethodCalls {
    /// The names it calls bare or on `self` (`takeSnapshot(…)`, `self.snapshot(…)`).
    var calls: Set<String> = []
    /// Whether it keeps a screenshot: `.screenshot()` with `.keepAlways`.
    var keeps = false
}

/// Methods per type (class bodies and extensions), with what each calls.
private final class TypeMethodsVisitor: SyntaxVisitor {
    /// By type name, by method name.
    var methods: [String: [String: MethodCalls]] = [:]
    /// The names declared with `class` (an extension alone declares no class).
    var classes: Set<String> = []
    private var types: [String] = []

    /// fastlane's free functions from `SnapshotHelper.swift`.
    static let fastlaneHelpers: Set<String> = ["snapshot", "setupSnapshot"]

    override func visit(_ node: ClassDeclSyntax) -> SyntaxVisitorContinueKind {
        classes.insert(node.name.text)
        types.append(node.name.text)
        return .visitChildren
    }
    override func visitPost(_ node: ClassDeclSyntax) { types.removeLast() }

    override func visit(_ node: ExtensionDeclSyntax) -> SyntaxVisitorContinueKind {
        types.append(node.extendedType.trimmedDescription)
        return .visitChildren
    }
    override func visitPost(_ node: ExtensionDeclSyntax) { types.removeLast() }

    override func visit(_ node: FunctionDeclSyntax) -> SyntaxVisitorContinueKind {
        guard let type = types.last, let body = node.body else { return .skipChildren }
        let name = node.name.text
        let finder = CallFinder(viewMode: .sourceAccurate)
        finder.walk(body)
        var method = methods[type, default: [:]][name, default: MethodCalls()]
        method.calls.formUnion(finder.calls)
        method.keeps = method.keeps || (finder.screenshot && finder.keepAlways)
        methods[type, default: [:]][name] = method
        return .skipChildren
    }
}

/// The calls in one method body.
private final class CallFinder: SyntaxVisitor {
    var calls: Set<String> = []
    var screenshot = false
    var keepAlways = false

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        if let reference = node.calledExpression.as(DeclReferenceExprSyntax.self) {
            let name = reference.baseName.text
            calls.insert(name)
        } else if let member = node.calledExpression.as(MemberAccessExprSyntax.self) {
            let name = member.declName.baseName.text
            if name == "screenshot", node.arguments.isEmpty { screenshot = true }
            if member.base?.as(DeclReferenceExprSyntax.self)?.baseName.tokenKind == .keyword(.self) { calls.insert(name) }
        }
        return .visitChildren
    }

    override func visit(_ node: MemberAccessExprSyntax) -> SyntaxVisitorContinueKind {
        if node.declName.baseName.text == "keepAlways" { keepAlways = true }
        return .visitChildren
    }
}
