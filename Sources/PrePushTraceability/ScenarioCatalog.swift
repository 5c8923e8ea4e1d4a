#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushYAML
import PrePushCore

/// One scenario of the catalog and where it is written.
public struct CatalogEntry: Sendable, Hashable {
    /// The scenario.
    public let scenario: TestScenario
    /// Where its list item starts.
    public let location: SourceLocation
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
/// ```
public struct ScenarioCatalog: Sendable {
    /// The file's path as named.
    public let path: String
    /// Story titles by story id, in file order.
    public let stories: [(id: String, title: String)]
    /// The scenarios in file order.
    public let entries: [CatalogEntry]

    /// Keys of a scenario, by the data model's field they fill.
    static let scenarioKeys = ["story", "priority", "description", "test", "launchArguments", "manual"]
    /// The data model's field names (`TestScenario` in ui-test-expansion-data-model.md), accepted as
    /// the same fields: a catalog written from the data model lints as it is.
    static let dataModelKeys = ["userStory": "story", "testMethodName": "test", "requiredLaunchArguments": "launchArguments",
                                "requiresManualIntervention": "manual"]

    /// A catalog with no scenario, for a repository that has none: the report then lists the tests.
    public static func empty(path: String) -> ScenarioCatalog {
        ScenarioCatalog(path: path, stories: [], entries: [])
    }

    /// Largest catalog read: thousands of scenarios fit in a few hundred KB.
    public static let maximumBytes = FileReading.sourceCeiling

    /// Reads the catalog the repository names at `relativePath` (its configuration, or the default
    /// place): refused, without a byte of it quoted, when the path leads out of the repository `root`.
    public static func load(repositoryPath relativePath: String, root: String, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
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
    public static func load(path: String, displayPath: String? = nil, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
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
    public static func decode(_ text: String, path: String, testNamePattern: String? = nil) throws(CatalogError) -> ScenarioCatalog {
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
public struct CatalogError: Error, CustomStringConvertible, Sendable {
    /// The problems, in file order.
    public let problems: [Diagnostic]
    /// A YAML error (syntax, nesting, aliases, a duplicate key), which stops the reading.
    var yamlError: YAMLError?
    /// Problems found past `ConfigurationError.limit`, counted and not shown.
    public internal(set) var notShown = 0

    init(problems: [Diagnostic], yamlError: YAMLError? = nil) {
        self.problems = problems
        self.yamlError = yamlError
    }

    public var description: String {
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
        guard problems.count < ConfigurationError.limit else { problemsBeyondLimit += 1; return }
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
                    let (decoded, test) = scenario(item)
                    // A test named twice is a problem even when either scenario has others.
                    if let (name, location) = test {
                        if let first = firstUse[name] {
                            report(location, "\(name) is named by two scenarios; the first is at line \(first.line)")
                        } else {
                            firstUse[name] = location
                        }
                    }
                    if let decoded { entries.append(CatalogEntry(scenario: decoded, location: item.location)) }
                }
            default:
                let name = key.scalar ?? key.kindDescription
                let suggestion = ValueParsers.suggestion(for: name, among: ["stories", "scenarios"]).map { " (did you mean \"\($0)\"?)" } ?? ""
                report(key.location, "unknown key \"\(name)\" at the top of the catalog\(suggestion); expected \"stories\" or \"scenarios\"")
            }
        }
        if !sawScenarios { report(root.location, "the catalog has no \"scenarios\" list") }
        return ScenarioCatalog(path: path, stories: stories, entries: entries)
    }

    /// The scenario when it is valid, and its test name with its place whenever it has one.
    mutating func scenario(_ item: YAMLNode) -> (TestScenario?, (String, SourceLocation)?) {
        guard case .mapping(let pairs) = item.content else {
            report(item.location, "a scenario is a mapping with story, priority, description and test, found \(item.kindDescription)")
            return (nil, nil)
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
        let test = text("test", "the test method implementing it")
        if let (value, location) = test {
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
        guard valid, let story, let description, let test else { return (nil, test) }
        return (TestScenario(userStory: story.0, priority: priority, description: description.0, testMethodName: test.0,
                             requiredLaunchArguments: arguments, requiresManualIntervention: manual), test)
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
                let suggestion = ValueParsers.suggestion(for: written, among: known).map { " (did you mean \"\($0)\"?)" } ?? ""
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
