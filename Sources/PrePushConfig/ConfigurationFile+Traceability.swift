import PrePushCore
import PrePushYAML

/// The `traceability:` and `quarantine:` sections.
extension FileDecoder {
    mutating func traceability(_ node: YAMLNode) -> FileTraceability? {
        guard let fields = mapping(node, path: "traceability") else { return nil }
        var section = FileTraceability()
        let any: (String) -> Result<String, ValueProblem> = { $0.isEmpty ? .failure(.empty(expected: "a value")) : .success($0) }
        if let catalog = fields["catalog"] { section.catalog = nonEmptyString(catalog, path: "traceability.catalog", expected: "a file path") }
        if let tests = fields["tests"] { section.tests = list(tests, path: "traceability.tests", expected: "globs", any) }
        if let sources = fields["launchArguments"] {
            section.launchArguments = list(sources, path: "traceability.launchArguments", expected: "globs", any)
        }
        if let pattern = fields["testNamePattern"] {
            section.testNamePattern = parsed(pattern, path: "traceability.testNamePattern", expected: "a regular expression", Self.regularExpression)
        }
        if let pattern = fields["linkPattern"] {
            section.linkPattern = parsed(pattern, path: "traceability.linkPattern", expected: "a URL with {id}") { text in
                guard text.contains("{id}") else { return .failure(.notOneOf(["a URL with {id}, such as https://jira.example.com/browse/{id}"], what: "a link pattern")) }
                // The reports make it a link a reviewer clicks: only http, https or a relative path.
                return LinkTarget.isAllowed(text.replacing("{id}", with: "QA-1")) ? .success(text) : .failure(.unsafeLink)
            }
        }
        if let gate = fields["gate"] { self.gate(gate, into: &section) }
        return section
    }

    /// `gate: [P1, P2]`, or `gate: {blocking: [P1], unmappedFailures: refuse, minTests: 500}`.
    private mutating func gate(_ node: YAMLNode, into section: inout FileTraceability) {
        func priorities(_ node: YAMLNode, path: String) -> [Located<String>] {
            list(node, path: path, expected: "priorities (P1, P2, P3)") { text in
                ["P1", "P2", "P3"].contains(text) ? .success(text) : .failure(.notPriority)
            }
        }
        guard case .mapping = node.content else {
            section.gate = priorities(node, path: "traceability.gate")
            return
        }
        guard let fields = mapping(node, path: "traceability.gate") else { return }
        if let blocking = fields["blocking"] { section.gate = priorities(blocking, path: "traceability.gate.blocking") }
        if let rule = fields["unmappedFailures"] {
            section.unmappedFailures = parsed(rule, path: "traceability.gate.unmappedFailures", expected: "warn or refuse") { text in
                ["warn", "refuse"].contains(text) ? .success(text) : .failure(.notOneOf(["warn", "refuse"], what: "a rule"))
            }
        }
        if let count = fields["minTests"] {
            section.minTests = parsed(count, path: "traceability.gate.minTests", expected: "a number of tests") { text in
                ValueParsers.count(text, range: 1...10_000_000, what: "tests")
            }
        }
    }

    /// `quarantine:`: a list of `{test, reason}`, both required.
    mutating func quarantine(_ node: YAMLNode) -> [Located<QuarantineEntry>] {
        guard case .sequence(let items) = node.content else {
            report(.wrongType(node.location, setting: "quarantine", expected: "a list of {test, reason}", found: node.kindDescription, sourceLine: line(node.location)))
            return []
        }
        return items.compactMap { item -> Located<QuarantineEntry>? in
            guard let fields = mapping(item, path: "quarantine") else { return nil }
            let test = fields["test"].flatMap { node in
                parsed(node, path: "quarantine.test", expected: "a test name or pattern") { (text: String) -> Result<String, ValueProblem> in
                    if text.allSatisfy(\.isWhitespace) { return .failure(.empty(expected: "a test name or pattern")) }
                    // `*`, `*.*`: a pull request that quarantines everything turns every failure green.
                    return Quarantine.matchesEveryTest(text) ? .failure(.matchesEveryTest) : .success(text)
                }
            }
            let reason = fields["reason"].flatMap { nonEmptyString($0, path: "quarantine.reason", expected: "why the test is quarantined") }
            for (key, value) in [("test", test?.value), ("reason", reason?.value)] where value == nil && fields[key] == nil {
                report(.wrongType(item.location, setting: "quarantine", expected: "a \(key): in each entry", found: "an entry without one", sourceLine: line(item.location)))
            }
            guard let test, let reason else { return nil }
            return Located(value: QuarantineEntry(pattern: test.value, reason: reason.value), location: test.location)
        }
    }

}
