#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushYAML
import PrePushCore

/// One scenario of the catalog and where it is written.
package struct CatalogEntry: Sendable, Hashable {
    /// The scenario.
    package let scenario: TestScenario
    /// Where its list item starts.
    package let location: SourceLocation
    /// The tests it links: by name, by suite, by tag.
    package var links = ScenarioLinks()

    /// Creates an entry; `links` defaults to the scenario's one `testMethodName`.
    package init(scenario: TestScenario, location: SourceLocation, links: ScenarioLinks? = nil) {
        self.scenario = scenario
        self.location = location
        self.links = links ?? ScenarioLinks(tests: [scenario.testMethodName])
    }
}

/// What a scenario links beyond the data model's one `testMethodName`: QA leads link a scenario to
/// several tests, a whole suite or a Swift Testing tag, and the scenario fails if any of them fails.
package struct ScenarioLinks: Sendable, Hashable {
    /// `test:` and `tests:`: names as `test_x`, `test_x()`, `Suite/test_x()` or a display name.
    package var tests: [String] = []
    /// `suite:`: every test of these suites or XCTest classes.
    package var suites: [String] = []
    /// `tag:`: every Swift Testing test carrying one of these tags (read from the sources).
    package var tags: [String] = []
    /// `allowSkip:`: why a skipped or disabled test may stand for this blocking scenario.
    package var allowSkip: String?
    /// `links:`: issue or test-management references (`QA-12`, a URL) shown in every report.
    package var references: [String] = []

    /// Creates links.
    package init(tests: [String] = [], suites: [String] = [], tags: [String] = [], allowSkip: String? = nil, references: [String] = []) {
        self.tests = tests
        self.suites = suites
        self.tags = tags
        self.allowSkip = allowSkip
        self.references = references
    }

    /// `test_a, test_b, suite LoginTests, tag smoke`: how reports and the gate name what a scenario links.
    package var description: String {
        (tests + suites.map { "suite \($0)" } + tags.map { "tag \($0)" }).joined(separator: ", ")
    }
}

/// The product owner's list of test scenarios, read from YAML (default `.prepush/scenarios.yml`):
///
/// ```yaml
/// stories:                 # optional titles for the report
///   US1: Sign in
/// scenarios:
///   - story: US1
///     priority: P1
///     description: Sign in with a valid email and password
///     test: test_login_validCredentials
///     launchArguments: [--uitesting, --skip-onboarding]
///     manual: false        # optional
///   - story: US1             # several tests, a suite, a tag: it fails if any of them fails
///     priority: P2
///     description: Sign-in edge cases
///     tests: [test_login_lockout, LoginTests/test_login_expired]
///     suite: PasswordResetTests
///     tag: signIn
///     allowSkip: "needs a hardware key"   # a skipped test may stand for it
///     links: [QA-12]         # shown in every report (traceability.linkPattern makes them URLs)
/// ```
package struct ScenarioCatalog: Sendable {
    /// The file's path as named.
    package let path: String
    /// Story titles by story id, in file order.
    package let stories: [(id: String, title: String)]
    /// The scenarios in file order.
    package let entries: [CatalogEntry]
    /// Whether the catalog was read from `path`; false for `empty(path:)`, where `path` names only
    /// the place a catalog would be, which no report may present as the catalog it read.
    package private(set) var wasRead = true

    /// Keys of a scenario, by the data model's field they fill, then the links beyond it.
    static let scenarioKeys = ["story", "priority", "description", "test", "launchArguments", "manual", "tests", "suite", "tag", "allowSkip", "links"]
    /// The data model's field names (`TestScenario` in ui-test-expansion-data-model.md), accepted as
    /// the same fields: a catalog written from the data model lints as it is.
    static let dataModelKeys = ["userStory": "story", "testMethodName": "test", "requiredLaunchArguments": "launchArguments",
                                "requiresManualIntervention": "manual"]

    /// The same catalog with `entries` instead of its own (the trusted base's policy put back).
    package func replacing(entries: [CatalogEntry]) -> ScenarioCatalog {
        var replaced = ScenarioCatalog(path: path, stories: stories, entries: entries)
        replaced.wasRead = wasRead
        return replaced
    }

    /// A catalog with no scenario, for a repository that has none: the report then lists the tests.
    package static func empty(path: String) -> ScenarioCatalog {
        var empty = ScenarioCatalog(path: path, stories: [], entries: [])
        empty.wasRead = false
        return empty
    }

    /// Largest catalog read: thousands of scenarios fit in a few hundred KB.
    package static let maximumBytes = FileReading.sourceCeiling

    /// Reads the catalog the repository names at `relativePath` (its configuration, or the default
    /// place): refused, without a byte of it quoted, when the path leads out of the repository `root`.
    package static func load(repositoryPath relativePath: String, root: String, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
        switch RepositoryPath.fileInside(relativePath, root: root) {
        case .success(let absolute):
            return try load(path: absolute, displayPath: relativePath, testNamePattern: testNamePattern)
        case .failure(let problem):
            throw CatalogError(problems: [Diagnostic(location: SourceLocation(file: relativePath, line: 1, column: 1),
                                                     message: "the scenario catalog is refused: \(problem)", sourceLine: nil)])
        }
    }

    /// Reads and validates the catalog at `path`; every problem is in the thrown error, which
    /// names the file `displayPath` (default: `path`).
    package static func load(path: String, displayPath: String? = nil, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
        let name = displayPath ?? path
        let data: [UInt8]
        switch FileReading.read(path, limit: maximumBytes) {
        case .success(let bytes): data = bytes
        case .failure(let problem):
            throw CatalogError(problems: [Diagnostic(location: SourceLocation(file: name, line: 1, column: 1),
                                                     message: "the scenario catalog \(problem)", sourceLine: nil)])
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw CatalogError(problems: [Diagnostic(location: SourceLocation(file: name, line: 1, column: 1),
                                                     message: "the scenario catalog is not UTF-8 text", sourceLine: nil)])
        }
        return try decode(text, path: name, testNamePattern: testNamePattern)
    }

    /// Decodes and validates catalog text (data model validation rules 1 and 5, known priorities, a
    /// non-empty story, no test named twice). `testNamePattern` (a regular expression) replaces rule 5's
    /// `test_<feature>_<scenario>` for teams whose tests are named otherwise.
    package static func decode(_ text: String, path: String, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
        let root: YAMLNode?
        do {
            root = try YAMLLoader.load(text, file: path)
        } catch {
            throw CatalogError(problems: [], yamlError: error)
        }
        var decoder = CatalogDecoder(lines: LineTable(text))
        decoder.testNamePattern = testNamePattern.flatMap { pattern in (try? LinearRegex(pattern)).map { (pattern, $0) } }
        let catalog = decoder.decode(root, path: path)
        if !decoder.problems.isEmpty {
            var error = CatalogError(problems: decoder.problems.sorted { ($0.location.line, $0.location.column) < ($1.location.line, $1.location.column) })
            error.notShown = decoder.problemsBeyondLimit
            throw error
        }
        return catalog
    }
}

/// Everything wrong with a catalog, each problem as `path:line:col: error: …` with its line and a caret.
package struct CatalogError: Error, CustomStringConvertible, Sendable {
    /// The problems, in file order.
    package let problems: [Diagnostic]
    /// A YAML error (syntax, nesting, aliases, a duplicate key), which stops the reading.
    var yamlError: YAMLError?
    /// Problems found past `DocumentProblems.limit`, counted and not shown.
    package internal(set) var notShown = 0

    init(problems: [Diagnostic], yamlError: YAMLError? = nil) {
        self.problems = problems
        self.yamlError = yamlError
    }

    package var description: String {
        if let yamlError { return yamlError.description }
        let more = notShown > 0 ? ["\(problems.first?.location.file ?? "catalog"): error: and \(notShown) more problem\(notShown == 1 ? "" : "s") (the first \(problems.count) are shown)"] : []
        return (problems.map(\.description) + more).joined(separator: "\n")
    }
}

/// Walks the YAML tree collecting every problem.
private struct CatalogDecoder {
    let lines: LineTable
    var problems: [Diagnostic] = []
    var problemsBeyondLimit = 0
    /// The first key written in one of the two forms (the data model's names or the short ones):
    /// a catalog keeps to one form.
    var firstForm: (dataModel: Bool, key: String, location: SourceLocation)?
    /// `traceability.testNamePattern` as written and compiled, when set.
    var testNamePattern: (text: String, regex: LinearRegex)?

    mutating func report(_ location: SourceLocation, _ message: String) {
        guard problems.count < DocumentProblems.limit else { problemsBeyondLimit += 1; return }
        problems.append(Diagnostic(location: location, message: message, sourceLine: lines.line(location.line)))
    }

    mutating func decode(_ root: YAMLNode?, path: String) -> ScenarioCatalog {
        guard let root else {
            report(SourceLocation(file: path, line: 1, column: 1), "the catalog is empty; expected a mapping with \"scenarios\"")
            return ScenarioCatalog(path: path, stories: [], entries: [])
        }
        guard case .mapping(let top) = root.content else {
            report(root.location, "expected a mapping with \"scenarios\", found \(root.kindDescription)")
            return ScenarioCatalog(path: path, stories: [], entries: [])
        }
        var stories: [(String, String)] = []
        var entries: [CatalogEntry] = []
        var sawScenarios = false
        for (key, value) in top {
            switch key.scalar {
            case "stories":
                guard !value.isNull else { continue }
                guard case .mapping(let pairs) = value.content else {
                    report(value.location, "\"stories\" maps story ids to titles, found \(value.kindDescription)")
                    continue
                }
                for (id, title) in pairs {
                    guard let idText = id.scalar, let titleText = title.scalar, !title.isNull else {
                        report(title.location, "a story's title is text, found \(title.kindDescription)")
                        continue
                    }
                    stories.append((idText, titleText))
                }
            case "scenarios":
                sawScenarios = true
                if value.isNull { continue }
                guard case .sequence(let items) = value.content else {
                    report(value.location, "\"scenarios\" is a list of scenarios, found \(value.kindDescription)")
                    continue
                }
                var firstUse: [String: SourceLocation] = [:]
                for item in items {
                    let (decoded, tests) = scenario(item)
                    // A test named twice is a problem even when either scenario has others.
                    for (name, location) in tests {
                        if let first = firstUse[name] {
                            report(location, "\(name) is named by two scenarios; the first is at line \(first.line)")
                        } else {
                            firstUse[name] = location
                        }
                    }
                    if let decoded { entries.append(decoded) }
                }
            default:
                let name = key.scalar ?? key.kindDescription
                let suggestion = DocumentProblems.suggestion(for: name, among: ["stories", "scenarios"]).map { " (did you mean \"\($0)\"?)" } ?? ""
                report(key.location, "unknown key \"\(name)\" at the top of the catalog\(suggestion); expected \"stories\" or \"scenarios\"")
            }
        }
        if !sawScenarios { report(root.location, "the catalog has no \"scenarios\" list") }
        return ScenarioCatalog(path: path, stories: stories, entries: entries)
    }

    /// The scenario when it is valid, and the test names it links with their places.
    mutating func scenario(_ item: YAMLNode) -> (CatalogEntry?, [(String, SourceLocation)]) {
        guard case .mapping(let pairs) = item.content else {
            report(item.location, "a scenario is a mapping with story, priority, description and test, found \(item.kindDescription)")
            return (nil, [])
        }
        let fields = self.fields(of: pairs)
        var valid = true
        func text(_ key: String, _ what: String) -> (String, SourceLocation)? {
            guard let node = fields[key] else {
                report(item.location, "the scenario has no \"\(key)\" (\(what))")
                valid = false
                return nil
            }
            guard let value = node.scalar, !node.isNull else {
                report(node.location, "\"\(key)\" is \(what), found \(node.kindDescription)")
                valid = false
                return nil
            }
            return (value, node.location)
        }

        let story = text("story", "the user story, such as US1")
        if let (value, location) = story, value.allSatisfy(\.isWhitespace) {
            report(location, "the user story is empty")
            valid = false
        }
        var priority = TestPriority.p3
        if let (value, location) = text("priority", "P1, P2 or P3") {
            if let known = TestPriority(rawValue: value) {
                priority = known
            } else {
                report(location, "unknown priority \"\(value)\"; expected P1, P2 or P3")
                valid = false
            }
        }
        let description = text("description", "what the scenario checks")
        var tests: [(String, SourceLocation)] = []
        if let node = fields["test"] {
            tests += texts(node, key: "test", what: "the test method implementing it", valid: &valid)
        }
        if let node = fields["tests"] {
            tests += texts(node, key: "tests", what: "a list of test names", valid: &valid)
        }
        let suites = fields["suite"].map { texts($0, key: "suite", what: "a suite or XCTest class name", valid: &valid) } ?? []
        let tags = fields["tag"].map { texts($0, key: "tag", what: "a Swift Testing tag", valid: &valid) } ?? []
        if fields["test"] == nil && fields["tests"] == nil && fields["suite"] == nil && fields["tag"] == nil {
            report(item.location, "the scenario has no \"test\" (the test method implementing it; or \"tests\", \"suite\" or \"tag\")")
            valid = false
        }
        for (value, location) in tests {
            // `Suite/function()` and `function()` name the function; the rule applies to its name.
            let name = TraceabilityMatrix.TestReference(value).name
            if let pattern = testNamePattern {
                if !pattern.regex.wholeMatch(name) {
                    report(location, "test \"\(value)\" does not match traceability.testNamePattern \(pattern.text)")
                    valid = false
                }
            } else if !TestScenario.isValidTestMethodName(name) {
                report(location, "test method \"\(value)\" does not match test_<feature>_<scenario> (for example test_login_validCredentials); set traceability.testNamePattern for another naming")
                valid = false
            }
        }
        var allowSkip: String?
        if let node = fields["allowSkip"] {
            if let reason = node.scalar, !node.isNull, !reason.allSatisfy(\.isWhitespace), node.boolean == nil {
                allowSkip = reason
            } else {
                report(node.location, "\"allowSkip\" is the reason a skipped test may stand for the scenario, found \(node.boolean != nil ? "a boolean" : node.kindDescription)")
                valid = false
            }
        }
        let references = fields["links"].map { texts($0, key: "links", what: "an issue id or URL", valid: &valid).map(\.0) } ?? []
        let arguments = launchArguments(fields["launchArguments"], valid: &valid)
        var manual = false
        if let node = fields["manual"] {
            if let value = node.boolean {
                manual = value
            } else {
                report(node.location, "\"manual\" is a boolean (\(BooleanWord.expected)), found \(node.kindDescription)")
                valid = false
            }
        }
        guard valid, let story, let description else { return (nil, tests) }
        let links = ScenarioLinks(tests: tests.map(\.0), suites: suites.map(\.0), tags: tags.map(\.0), allowSkip: allowSkip, references: references)
        // The data model's one test: the first named, else what the scenario links.
        let scenario = TestScenario(userStory: story.0, priority: priority, description: description.0, testMethodName: tests.first?.0 ?? links.description,
                                    requiredLaunchArguments: arguments, requiresManualIntervention: manual)
        return (CatalogEntry(scenario: scenario, location: item.location, links: links), tests)
    }

    /// One text or a list of texts, each non-empty, with its place.
    mutating func texts(_ node: YAMLNode, key: String, what: String, valid: inout Bool) -> [(String, SourceLocation)] {
        let items: [YAMLNode]
        if case .sequence(let list) = node.content { items = list } else { items = [node] }
        if items.isEmpty {
            report(node.location, "\"\(key)\" is empty; expected \(what)")
            valid = false
        }
        var found: [(String, SourceLocation)] = []
        for item in items {
            guard let value = item.scalar, !item.isNull, !value.allSatisfy(\.isWhitespace) else {
                report(item.location, "\"\(key)\" is \(what), found \(item.kindDescription)")
                valid = false
                continue
            }
            found.append((value, item.location))
        }
        return found
    }

    /// A scenario's fields by their short names; unknown keys, a field given twice and a mix of
    /// the two forms of the names are reported.
    mutating func fields(of pairs: [(key: YAMLNode, value: YAMLNode)]) -> [String: YAMLNode] {
        var fields: [String: YAMLNode] = [:]
        var spelled: [String: String] = [:]
        for (key, value) in pairs {
            let written = key.scalar ?? key.kindDescription
            // The data model's own field names (`userStory`, `testMethodName`, …) are the short keys' twins.
            guard let name = key.scalar.flatMap({ ScenarioCatalog.scenarioKeys.contains($0) ? $0 : ScenarioCatalog.dataModelKeys[$0] }) else {
                let known = ScenarioCatalog.scenarioKeys + ScenarioCatalog.dataModelKeys.keys.sorted()
                let suggestion = DocumentProblems.suggestion(for: written, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
                report(key.location, "unknown key \"\(written)\" in a scenario\(suggestion)")
                continue
            }
            if let earlier = spelled[name] {
                report(key.location, "\"\(written)\" and \"\(earlier)\" are the same field; keep one")
                continue
            }
            spelled[name] = written
            fields[name] = value
            if let shortKey = key.scalar, ScenarioCatalog.dataModelKeys[shortKey] != nil || ScenarioCatalog.dataModelKeys.values.contains(shortKey) {
                let dataModel = ScenarioCatalog.dataModelKeys[shortKey] != nil
                if let first = firstForm, first.dataModel != dataModel {
                    report(key.location, "\"\(written)\" is \(dataModel ? "the data model's name" : "a short name"), and this catalog uses \(first.dataModel ? "the data model's names" : "the short names") (\"\(first.key)\" at line \(first.location.line)); keep one form")
                } else if firstForm == nil {
                    firstForm = (dataModel, shortKey, key.location)
                }
            }
        }
        return fields
    }

    /// The launch arguments: one text or a list, each starting with `--`.
    mutating func launchArguments(_ node: YAMLNode?, valid: inout Bool) -> [String] {
        var arguments: [String] = []
        guard let node, !node.isNull else { return arguments }
        let items: [YAMLNode]
        if case .sequence(let list) = node.content { items = list } else { items = [node] }
        for argument in items {
            guard let value = argument.scalar, !argument.isNull else {
                report(argument.location, "a launch argument is text such as --uitesting, found \(argument.kindDescription)")
                valid = false
                continue
            }
            if !value.hasPrefix("--") {
                report(argument.location, "launch argument \"\(value)\" must start with \"--\"")
                valid = false
            }
            arguments.append(value)
        }
        return arguments
    }
}
