import PrePushCore
internal import SwiftSyntax

/// An identifier a UI test queries that no view sets. Its examples are one file standing for a
/// repository (the file's own views are the views); the pipeline runs it across files: over the
/// whole tree (`prepush a11y --all`: `unsetQueries`) and for a push that removes or renames an
/// identifier on the view side (`removedQueries`).
package struct UITestIdentifierRule: AccessibilityRule {
    package static let description = RuleDescription(
        identifier: "ui-test-identifier",
        name: "Identifier a UI test queries that no view sets",
        rationale: """
        A UI test finds its element by the identifier a view sets. When the view stops setting it (the \
        modifier deleted, the identifier renamed on one side only), the test fails on the simulator \
        minutes later, or waits for an element that never comes. A push that removes or renames such an \
        identifier is refused (at the rule's severity, error by default) whatever share of the repository's \
        controls are tagged, naming the test's query and the view line that set it before. Over the \
        whole tree (`prepush a11y --all`) an identifier queried and set nowhere (a typo, a deleted \
        screen) is reported only when the team configures the rule's severity: it is most often set \
        where prepush cannot see (by the system, such as a navigation bar's `BackButton`, by a \
        dependency, by a function). Identifiers count \
        wherever the app sets them: SwiftUI's modifier, UIKit's and AppKit's `accessibilityIdentifier` and \
        `setAccessibilityIdentifier(_:)`, AppKit's item identifiers, storyboards and xibs, and the ids of \
        SwiftUI scenes (a window's identifier; every case of an enum one scene takes its id from). \
        SwiftUI's older `.accessibility(identifier:)` counts too. A subscript or `matching(identifier:)` also \
        matches a label, title or value, so only a text written like an identifier (`login_field_email`, \
        `contentListView`) is taken for one there; a predicate's `identifier ==` is one whatever its text. \
        Identifiers set in debug-only code count (UI tests run the Debug build). Queries into another app \
        (`XCUIApplication(bundleIdentifier:)`, the springboard's notifications) or into a web view's page \
        (`app.webViews`) are not this app's.
        """,
        issueType: .missingIdentifier,
        defaultSeverity: .error,
        nonTriggeringExamples: [
            // Home Assistant's UI tests: the springboard's notification elements belong to another app.
            RuleExample("""
            import XCTest
            final class NotificationUITests: XCTestCase {
                func testCamera() {
                    let springboard = XCUIApplication(bundleIdentifier: "com.apple.springboard")
                    springboard.buttons.matching(identifier: "dismiss-expanded-button").firstMatch.tap()
                    let expanded = springboard.otherElements["camera_notification"]
                    XCTAssert(expanded.images["camera_notification_imageview"].exists)
                }
            }
            """),
            RuleExample("""
            import XCTest
            struct LoginView: View {
                var body: some View { TextField("Email", text: $email).accessibilityIdentifier("login_field_email") }
            }
            final class LoginUITests: XCTestCase {
                func testLogin() { XCUIApplication().textFields["login_field_email"].tap() }
            }
            """),
            RuleExample("""
            import XCTest
            final class SettingsUITests: XCTestCase {
                func testOpen() { XCUIApplication().buttons["Settings"].tap() }
            }
            """),
            // emitron's screenshots test: SwiftUI's older modifier sets the identifier, and
            // `matching(identifier:)` also matches a label ("Filter Library"), as a subscript does.
            RuleExample("""
            import XCTest
            struct ContentListView: View {
                var body: some View { List(items) { Row($0) }.accessibility(identifier: "contentListView") }
            }
            final class EmitronScreenshots: XCTestCase {
                func testTakeSnapshots() {
                    let app = XCUIApplication()
                    _ = app.descendants(matching: .any).matching(identifier: "contentListView").element.waitForExistence(timeout: 20)
                    app.buttons.matching(identifier: "Filter Library").element.tap()
                }
            }
            """),
            RuleExample("""
            import XCTest
            struct HomeView: View {
                var body: some View { ForEach(tasks) { task in Row(task).accessibilityIdentifier("home_cell_task_\\(task.id)") } }
            }
            final class HomeUITests: XCTestCase {
                func testRow() {
                    let app = XCUIApplication()
                    app.cells["home_cell_task_1"].tap()
                    app.cells.matching(identifier: "home_cell_task_\\(2)").firstMatch.tap()
                }
            }
            """),
            RuleExample("""
            import XCTest
            func setupSnapshot(_ app: XCUIApplication, waitForAnimations: Bool = true) {
                Snapshot.setupSnapshot(app, waitForAnimations: waitForAnimations)
            }
            private extension XCUIElementAttributes {
                var hasWhiteListedIdentifier: Bool { ["GeofenceLocationTrackingOn"].contains(identifier) }
            }
            func setLocale() { locale = Locale(identifier: deviceLanguage).identifier }
            """),
            // Pocket Casts (podcasts/BasePlayPauseButton.swift, podcasts/DescriptiveActionView.swift):
            // UIKit views set the identifiers its screenshot automation queries.
            RuleExample("""
            import XCTest
            class BasePlayPauseButton: UIButton {
                override init(frame: CGRect) {
                    super.init(frame: frame)
                    accessibilityIdentifier = "play pause button"
                }
            }
            final class DescriptiveActionView: UIView {
                func add(_ actionButton: UIButton, index: Int) { actionButton.accessibilityIdentifier = "action_\\(index)" }
            }
            final class GenerateScreenshots: XCTestCase {
                let app = XCUIApplication()
                func testPlay() {
                    app.buttons.containing(.button, identifier: "play pause button").firstMatch.tap()
                    app.buttons["action_0"].tap()
                }
            }
            """),
            // CodeEdit (CodeEdit/SceneID.swift, Features/Settings/SettingsWindow.swift,
            // WorkspaceDocument.swift, CodeEditUITests/Query.swift): a window's identifier is its
            // scene's id (the welcome window's scene is declared by a package, under a case of the
            // same enum) or set by AppKit.
            RuleExample("""
            import XCTest
            enum SceneID: String, CaseIterable {
                case welcome
                case about
                case settings
            }
            struct SettingsWindow: Scene {
                var body: some Scene { Window("Settings", id: SceneID.settings.rawValue) { SettingsView() } }
            }
            final class WorkspaceDocument: NSDocument {
                func makeWindow(_ window: NSWindow) { window.setAccessibilityIdentifier("workspace") }
            }
            enum Query {
                static func welcome(_ application: XCUIApplication) -> XCUIElement {
                    application.windows.element(matching: .window, identifier: "welcome")
                }
                static func workspace(_ application: XCUIApplication) -> XCUIElement {
                    application.windows.element(matching: .window, identifier: "workspace")
                }
            }
            """),
            // openHAB (openHAB/OpenHABRootViewController.swift, openHABUITests/OpenHABUITests.swift): an
            // identifier set for the UI tests in debug-only code, and the queries into the web UI's page.
            RuleExample("""
            import XCTest
            final class OpenHABRootViewController: UIViewController {
                override func viewDidLoad() {
                    super.viewDidLoad()
                    #if DEBUG
                    // setup accessibilityIdentifiers for UITest
                    navigationItem.rightBarButtonItem?.accessibilityIdentifier = "HamburgerButton"
                    #endif
                }
            }
            final class OpenHABUITests: XCTestCase {
                func testShots() {
                    let app = XCUIApplication()
                    app.navigationBars.buttons["HamburgerButton"].tap()
                    let webViewsQuery = app.webViews.webViews.webViews
                    webViewsQuery.staticTexts["square_arrow_right"].tap()
                    webViewsQuery.otherElements["openHAB"].children(matching: .link).matching(identifier: "multiply_circle_fill").element(boundBy: 0).tap()
                }
            }
            """),
            RuleExample("""
            import XCTest
            final class LoginFormTests: XCTestCase {
                func testTitle() { XCTAssertEqual(form.buttons["login_button_submit"]?.title, "Log in") }
            }
            """),
        ],
        triggeringExamples: [
            RuleExample("""
            import XCTest
            struct LoginView: View {
                var body: some View { TextField("Email", text: $email).accessibilityIdentifier("login_field_email") }
            }
            final class LoginUITests: XCTestCase {
                func testLogin() { XCUIApplication().textFields[↓"login_field_emial"].tap() }
            }
            """),
            RuleExample("""
            import XCTest
            final class CheckoutUITests: XCTestCase {
                func testPay() {
                    let app = XCUIApplication()
                    app.buttons.matching(identifier: ↓"checkout_button_pay").firstMatch.tap()
                    app.descendants(matching: .any).matching(identifier: ↓"checkout_label_total").firstMatch.tap()
                    app.descendants(matching: .any).element(matching: .button, identifier: ↓"checkout_button_cancel").tap()
                    app.buttons.element(matching: NSPredicate(format: "identifier == %@", ↓"checkout_button_back")).tap()
                    app.buttons.element(matching: NSPredicate(format: ↓"identifier == 'checkout_button_close'")).tap()
                    XCTAssertTrue(app.buttons.allElementsBoundByIndex.contains { $0.identifier == ↓"checkout_button_help" })
                }
            }
            """),
            RuleExample("""
            import XCTest
            enum A11y { enum Login { static let submit = "login_button_submit" } }
            final class LoginUITests: XCTestCase {
                func testSubmit() { XCUIApplication().buttons[↓A11y.Login.submit].tap() }
            }
            """),
        ]
    )

    let settings: AccessibilitySettings

    package init(settings: AccessibilitySettings) {
        self.settings = settings
    }

    /// The severity of an identifier queried and set nowhere, found without a push to blame: the
    /// configured severity when the configuration names the rule, else a warning.
    package var unsetSeverity: Severity? {
        if let configured = settings.severities[Self.description.identifier] { return configured }
        return .warning
    }

    /// The file as a repository of its own: its queries against its own views' identifiers.
    package func findings(in file: ParsedSource) -> [AccessibilityFinding] {
        guard let severity = unsetSeverity, Self.isUITest(file) else { return [] }
        let known = ViewIdentifiers(Self.identifierSites(in: file).map(\.identifier))
        return unset(in: file, known: known, severity: severity)
    }

    /// The severity of a query no view of the whole tree sets (`prepush a11y --all`): only the team's
    /// configured one. Off by default: the system and the app's dependencies set identifiers no
    /// source here shows (UIKit's navigation bar `BackButton`, QuickLook's `QLPreviewControllerView`, a
    /// library's form fields): of 30 such findings judged on real apps, 2 were real.
    package var wholeTreeSeverity: Severity? {
        settings.severities[Self.description.identifier] ?? nil
    }

    /// Queries of UI test `path` naming an identifier that `known` does not hold, at
    /// `wholeTreeSeverity`; none when the text is not a UI test (`isUITest(_:)`) or the team has not
    /// configured the rule.
    package func unsetQueries(path: String, text: String, constants: ConstantLookup, known: ViewIdentifiers) -> [AccessibilityFinding] {
        guard let severity = wholeTreeSeverity else { return [] }
        let file = ParsedSource(path: path, text: text, constants: constants)
        return Self.isUITest(file) ? unset(in: file, known: known, severity: severity) : []
    }

    private func unset(in file: ParsedSource, known: ViewIdentifiers, severity: Severity) -> [AccessibilityFinding] {
        Self.queries(in: file).compactMap { query in
            // A literal subscript may ask for a label (`app.buttons["Settings"]`): only one written
            // like an identifier is taken for one.
            guard !query.identifier.contains("{}"), query.explicit || Self.looksLikeIdentifier(query.identifier),
                  !known.sets(query.identifier) else { return nil }
            return file.finding(Self.self, at: query.node, message: "\"\(query.identifier)\" is queried here, and no view sets it",
                                severity: severity)
        }
    }

    /// Queries of UI test `path` naming one of `removed` (an identifier → the `file:line` of the view
    /// that set it before): findings at the rule's severity, whatever the repository's practice.
    package func removedQueries(path: String, text: String, constants: ConstantLookup, removed: [String: String]) -> [AccessibilityFinding] {
        guard let severity = settings.severity(of: Self.description), !removed.isEmpty else { return [] }
        let file = ParsedSource(path: path, text: text, constants: constants)
        guard Self.isUITest(file) else { return [] }
        return Self.queries(in: file).compactMap { query in
            guard let place = removed[query.identifier] else { return nil }
            return file.finding(Self.self, at: query.node,
                                message: "\"\(query.identifier)\" is queried here, and no view sets it after this push (\(place) set it before); set it again, or change the test with it",
                                severity: severity)
        }
    }

    /// Whether `text` is a UI test file: it imports XCTest and drives an app (`XCUIApplication`),
    /// and is not fastlane's `SnapshotHelper.swift` (which drives any app to take screenshots and
    /// queries no identifier of one).
    package static func isUITest(path: String, text: String) -> Bool {
        isUITest(ParsedSource(path: path, text: text))
    }

    static func isUITest(_ file: ParsedSource) -> Bool {
        let importsXCTest = file.tree.statements.contains { item in
            item.item.as(ImportDeclSyntax.self)?.path.first?.name.text == "XCTest"
        }
        guard importsXCTest else { return false }
        var drivesApp = false
        var previous = ""
        for token in file.tree.tokens(viewMode: .sourceAccurate) {
            if token.text == "XCUIApplication" { drivesApp = true }
            if previous == "func", token.text == "setupSnapshot" { return false }
            previous = token.text
        }
        return drivesApp
    }

    /// The identifiers `text` sets (`.accessibilityIdentifier(…)`, UIKit's and AppKit's setters, a
    /// component's `accessibilityIdentifier:`, scene ids; literals and constants resolved through its
    /// own and `constants`), each with the 1-based line it is set on.
    package static func identifierSites(path: String, text: String, constants: ConstantLookup) -> [(identifier: String, line: Int)] {
        identifierSites(in: ParsedSource(path: path, text: text, constants: constants))
    }

    static func identifierSites(in file: ParsedSource) -> [(identifier: String, line: Int)] {
        // SwiftUI's older `.accessibility(identifier:)` sets it as `.accessibilityIdentifier(_:)` does.
        let older = (file.viewCalls.flatMap { $0.modifier("accessibility") } + file.identifierChains.flatMap { $0.modifier("accessibility") })
            .filter { $0.arguments.first?.label?.text == "identifier" }
        let calls = file.viewCalls.flatMap { $0.modifier("accessibilityIdentifier") }
            + file.identifierChains.flatMap { $0.modifier("accessibilityIdentifier") } + older
        var seen: Set<SyntaxIdentifier> = []
        return calls.compactMap { call in
            // An interpolation is kept as `{}`: `home_cell_task_{}` answers `home_cell_task_1`.
            guard seen.insert(call.id).inserted, let argument = call.arguments.first?.expression,
                  let identifier = file.identifierText(argument) ?? argument.as(StringLiteralExprSyntax.self)?.textWithPlaceholders
            else { return nil }
            return (identifier, file.line(of: argument))
        } + otherIdentifierSites(in: file)
    }

    /// Whether a subscript's text reads as an identifier rather than a label: no blanks, and words
    /// joined by `_`, `-` or `.`, or run together in camelCase (`loginButton`). `Settings`, `OK` and
    /// `Log in` read as labels.
    static func looksLikeIdentifier(_ text: String) -> Bool {
        guard !text.isEmpty, !text.contains(where: \.isWhitespace) else { return false }
        var previousLower = false
        for scalar in text.unicodeScalars {
            if scalar == "_" || scalar == "-" || scalar == "." { return true }
            let upper = scalar.properties.isUppercase
            if upper && previousLower { return true }
            previousLower = scalar.properties.isLowercase
        }
        return false
    }

    /// One query of a UI test by identifier: what it names and the expression that names it.
    struct Query {
        let identifier: String
        let node: Syntax
        /// Asked for by identifier alone (`identifier ==` in a predicate or a filter), not a subscript
        /// or `matching(identifier:)`, which XCUITest also matches against labels, titles and values.
        let explicit: Bool
    }

    /// The file's queries by identifier whose text is known (literals, constants it can resolve).
    static func queries(in file: ParsedSource) -> [Query] {
        let collector = QueryCollector(file: file)
        collector.walk(file.tree)
        return collector.queries
    }
}

/// The identifiers views set, literal (`login_field_email`) or with interpolations as `{}`
/// (`home_cell_task_{}` sets `home_cell_task_1`).
package struct ViewIdentifiers: Sendable {
    private let exact: Set<String>
    private let patterns: [[Substring]]

    /// The set of `identifiers`.
    package init(_ identifiers: some Sequence<String>) {
        var exact: Set<String> = []
        var patterns: [[Substring]] = []
        for identifier in identifiers {
            if identifier.contains("{}") {
                patterns.append(identifier.split(separator: "{}", omittingEmptySubsequences: false))
            } else {
                exact.insert(identifier)
            }
        }
        self.exact = exact
        self.patterns = patterns
    }

    /// Whether a view sets `identifier`: as written, or by a pattern whose `{}` stand for any text.
    package func sets(_ identifier: String) -> Bool {
        if exact.contains(identifier) { return true }
        return patterns.contains { parts in
            var rest = Substring(identifier)
            guard let first = parts.first, rest.hasPrefix(first), let last = parts.last else { return false }
            rest = rest.dropFirst(first.count)
            for middle in parts.dropFirst().dropLast() {
                guard let found = rest.firstRange(of: middle) else { return false }
                rest = rest[found.upperBound...]
            }
            return parts.count > 1 && rest.hasSuffix(last)
        }
    }
}

/// Walks a UI test for its queries by identifier.
private final class QueryCollector: SyntaxVisitor {
    let file: ParsedSource
    private(set) var queries: [UITestIdentifierRule.Query] = []
    /// Functions whose `identifier:` argument names an element (`matching(identifier:)`,
    /// `element(matching:identifier:)`, `containing(_:identifier:)`); `Locale(identifier:)` does not.
    static let identifierFunctions: Set<String> = ["matching", "element", "containing"]
    static let subscriptQueries = CensusScanner.queries

    /// Names bound to another app (`let springboard = XCUIApplication(bundleIdentifier:
    /// "com.apple.springboard")`), to an element found in one, or to a web view's content: their
    /// queries are not this app's.
    private var otherApps: Set<String> = []

    init(file: ParsedSource) {
        self.file = file
        super.init(viewMode: .sourceAccurate)
    }

    override func visit(_ node: PatternBindingSyntax) -> SyntaxVisitorContinueKind {
        if let name = node.pattern.as(IdentifierPatternSyntax.self)?.identifier.text, let value = node.initializer?.value,
           queriesOtherApp(value) {
            otherApps.insert(name)
        }
        return .visitChildren
    }

    /// Whether an expression starts from another app (`XCUIApplication(bundleIdentifier:)`) or a name
    /// bound to one: Home Assistant's UI tests tap the springboard's notifications, whose identifiers
    /// no view of the app sets.
    private func queriesOtherApp(_ expression: ExprSyntax) -> Bool {
        var current = expression
        while true {
            if let call = current.as(FunctionCallExprSyntax.self) {
                if call.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text == "XCUIApplication" {
                    return call.arguments.contains { $0.label?.text == "bundleIdentifier" }
                }
                current = call.calledExpression
            } else if let member = current.as(MemberAccessExprSyntax.self), let base = member.base {
                // A web view's elements are its page's (openHAB's `app.webViews.webViews.links[…]`):
                // no view of the app sets them.
                if member.declName.baseName.text == "webViews" { return true }
                current = base
            } else if let subscriptCall = current.as(SubscriptCallExprSyntax.self) {
                current = subscriptCall.calledExpression
            } else if let reference = current.as(DeclReferenceExprSyntax.self) {
                return otherApps.contains(reference.baseName.text)
            } else {
                return false
            }
        }
    }

    private func add(_ expression: ExprSyntax, explicit: Bool) {
        guard let text = file.identifierText(expression) ?? Self.interpolated(expression) else { return }
        queries.append(.init(identifier: text, node: Syntax(expression), explicit: explicit))
    }

    private static func interpolated(_ expression: ExprSyntax) -> String? {
        expression.as(StringLiteralExprSyntax.self)?.textWithPlaceholders
    }

    override func visit(_ node: SubscriptCallExprSyntax) -> SyntaxVisitorContinueKind {
        var called = node.calledExpression
        if let call = called.as(FunctionCallExprSyntax.self) { called = call.calledExpression }
        if let member = called.as(MemberAccessExprSyntax.self), Self.subscriptQueries.contains(member.declName.baseName.text),
           node.arguments.count == 1, let argument = node.arguments.first?.expression, !queriesOtherApp(ExprSyntax(node)) {
            add(argument, explicit: false)
        }
        return .visitChildren
    }

    override func visit(_ node: FunctionCallExprSyntax) -> SyntaxVisitorContinueKind {
        let name = node.calledExpression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
            ?? node.calledExpression.as(DeclReferenceExprSyntax.self)?.baseName.text ?? ""
        if Self.identifierFunctions.contains(name), let argument = node.arguments.first(where: { $0.label?.text == "identifier" }),
           !queriesOtherApp(ExprSyntax(node)) {
            // `matching(identifier:)` and its kin match a label, title or value as well, as a subscript does.
            add(argument.expression, explicit: false)
        } else if name == "NSPredicate", let format = node.arguments.first, format.label?.text == "format",
                  let literal = format.expression.as(StringLiteralExprSyntax.self) {
            predicate(literal, arguments: Array(node.arguments.dropFirst()))
        }
        return .visitChildren
    }

    /// `NSPredicate(format: "identifier == %@", x)` names `x`; `"identifier == 'x'"` names `x` itself.
    private func predicate(_ literal: StringLiteralExprSyntax, arguments: [LabeledExprSyntax]) {
        let format = literal.textWithPlaceholders
        guard let match = format.firstRange(of: "identifier") else { return }
        var rest = format[match.upperBound...].drop { $0 == " " }
        guard rest.hasPrefix("=") else { return }
        rest = rest.drop { $0 == "=" }.drop { $0 == " " }
        if rest.hasPrefix("%@") {
            let index = format[..<match.lowerBound].components(separatedBy: "%@").count - 1
            if index < arguments.count { add(arguments[index].expression, explicit: true) }
            return
        }
        let quote: Character = rest.hasPrefix("'") ? "'" : "\""
        rest = rest.drop { $0 == "\\" }
        guard rest.first == quote else { return }
        let value = rest.dropFirst().prefix { $0 != quote && $0 != "\\" }
        queries.append(.init(identifier: String(value), node: Syntax(literal), explicit: true))
    }

    /// `$0.identifier == "x"` in a filter (a sequence, unfolded as the parser gives it).
    override func visit(_ node: SequenceExprSyntax) -> SyntaxVisitorContinueKind {
        let elements = Array(node.elements)
        for (index, element) in elements.enumerated() where index > 0 && index + 1 < elements.count {
            guard element.as(BinaryOperatorExprSyntax.self)?.operator.text == "==" else { continue }
            let sides = [(elements[index - 1], elements[index + 1]), (elements[index + 1], elements[index - 1])]
            for (name, value) in sides where name.as(MemberAccessExprSyntax.self)?.declName.baseName.text == "identifier" {
                add(value, explicit: true)
            }
        }
        return .visitChildren
    }
}
