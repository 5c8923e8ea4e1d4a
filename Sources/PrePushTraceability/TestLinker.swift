import PrePushConfig
import PrePushCore

/// Resolves what a scenario links (names, suites, tags) to tests and results by identity, never
/// by guess: a bare name that several suites declare links every one of them, and a result is
/// bound to a test only when its suite is the test's type.
struct TestLinker {
    let inventory: TestInventory
    let results: [UITestResult]
    private var testsByName: [String: [DiscoveredTest]] = [:]
    private var resultsByName: [String: [Int]] = [:]
    /// Suites with at least one result: the stage that holds them ran.
    private var suitesWithResults: Set<String> = []
    /// Tests and results some scenario links.
    private(set) var linkedTests = Set<DiscoveredTest>()
    private(set) var linkedResults = Set<Int>()

    init(inventory: TestInventory, results: [UITestResult]) {
        self.inventory = inventory
        self.results = results
        for (index, result) in results.enumerated() {
            let bare = TraceabilityMatrix.bareName(result.name)
            resultsByName[bare, default: []].append(index)
            // Swift Testing's console names a test by its display name when it has one.
            if result.name != bare || result.name.contains(" ") { resultsByName[result.name, default: []].append(index) }
            suitesWithResults.insert(result.suite)
        }
        for test in inventory.tests {
            testsByName[test.name, default: []].append(test)
            if let display = test.displayName, display != test.name { testsByName[display, default: []].append(test) }
        }
    }

    /// Every test `links` names, each once, in the order written: tests, then suites, then tags.
    mutating func links(_ links: ScenarioLinks) -> [LinkedTest] {
        var found: [LinkedTest] = []
        for text in links.tests {
            let reference = TraceabilityMatrix.TestReference(text)
            let candidates = (testsByName[reference.name] ?? []).filter { reference.suiteMatches($0.typeName) }
            var named = (resultsByName[reference.name] ?? []).filter { reference.suiteMatches(results[$0].suite) }
            // A display name in the catalog, a function name in the results (an event stream), or the other way round.
            if named.isEmpty {
                for test in candidates { named += (resultsByName[test.name] ?? []) + (test.displayName.flatMap { resultsByName[$0] } ?? []) }
            }
            found += resolve(text, candidates: candidates, results: named, allowFallback: candidates.count == 1)
        }
        for suite in links.suites {
            let candidates = inventory.tests.filter { TraceabilityMatrix.suite(suite, names: $0.typeName) }
            let named = results.indices.filter { TraceabilityMatrix.suite(suite, names: results[$0].suite) }
            found += resolve("suite \(suite)", candidates: candidates, results: named, allowFallback: false)
        }
        for tag in links.tags {
            let candidates = inventory.tests.filter { $0.tags.contains(tag) }
            var named: [Int] = []
            for test in candidates { named += resultsByName[test.name] ?? [] }
            found += resolve("tag \(tag)", candidates: candidates, results: named, allowFallback: false)
        }
        // A test linked twice (by name and by its suite) is one link.
        var seen = Set<String>()
        return found.filter { seen.insert($0.name + "\u{0}" + ($0.test.map { "\($0.location)" } ?? "")).inserted }
    }

    /// One link per candidate test, its result the worst of those whose suite is its type; results
    /// no candidate takes become links of their own (a test the sources do not show). With one
    /// candidate and no result of its type, `allowFallback` lets it take the name's results (a
    /// console that names the suite differently).
    private mutating func resolve(_ reference: String, candidates: [DiscoveredTest], results named: [Int], allowFallback: Bool) -> [LinkedTest] {
        var taken = Set<Int>()
        var links: [LinkedTest] = []
        for test in candidates {
            var mine = named.filter { index in
                !taken.contains(index) && Self.result(results[index], belongsTo: test)
            }
            if mine.isEmpty && allowFallback { mine = named }
            taken.formUnion(mine)
            linkedTests.insert(test)
            links.append(link(reference, test: test, resultIndices: mine))
        }
        // Results of the same test (retries, shards, parameterized cases) make one link.
        var bySuite: [String: [Int]] = [:]
        var order: [String] = []
        for index in named where !taken.contains(index) {
            let key = results[index].suite + "/" + TraceabilityMatrix.bareName(results[index].name)
            if bySuite[key] == nil { order.append(key) }
            bySuite[key, default: []].append(index)
        }
        links += order.map { link(reference, test: nil, resultIndices: bySuite[$0]!) }
        if links.isEmpty {
            links.append(LinkedTest(test: nil, result: nil, status: .noTest, reference: reference, suiteRan: false,
                                    suggestion: reference.hasPrefix("suite ") || reference.hasPrefix("tag ") ? nil : suggestion(for: reference)))
        }
        return links
    }

    private mutating func link(_ reference: String, test: DiscoveredTest?, resultIndices: [Int]) -> LinkedTest {
        linkedResults.formUnion(resultIndices)
        let result = resultIndices.map { results[$0] }.min { Self.rank($0.status) < Self.rank($1.status) }
        let status: ScenarioStatus
        switch result?.status {
        case .passed?, .expectedFailure?: status = .passed
        case .skipped?: status = .skipped
        case .failed?, .unfinished?: status = .failed
        case nil: status = .notRun
        }
        let suiteRan = result == nil && test?.typeName.map { type in suitesWithResults.contains { TraceabilityMatrix.suite(type, names: $0) } } == true
        return LinkedTest(test: test, result: result, status: status, reference: reference, suiteRan: suiteRan, suggestion: nil)
    }

    /// Whether `result` is `test`'s: the same function (or display name) in the same type (a free
    /// function: in any suite).
    static func result(_ result: UITestResult, belongsTo test: DiscoveredTest) -> Bool {
        let name = TraceabilityMatrix.bareName(result.name)
        guard name == test.name || result.name == test.displayName || name == test.displayName else { return false }
        guard let type = test.typeName else { return true }
        let last = type.split(separator: ".").last.map(String.init) ?? type
        return result.suite == type || result.suite.hasSuffix("." + last) || result.suite == last
    }

    /// Failed first: a test run twice stands as its worst.
    static func rank(_ status: TestStatus) -> Int {
        switch status {
        case .failed: return 0
        case .unfinished: return 1
        case .skipped: return 2
        case .passed, .expectedFailure: return 3
        }
    }

    /// The test a name that matches nothing may mean: XCTest's `testFooBar` for Swift Testing's
    /// `fooBar()` and back, else the nearest name by edit distance among the sources' tests.
    func suggestion(for text: String) -> String? {
        let reference = TraceabilityMatrix.TestReference(text)
        let names = Array(Set(inventory.tests.map(\.name))).sorted()
        guard !names.isEmpty else { return nil }
        let wanted = Self.renamed(reference.name)
        if let renamed = names.first(where: { Self.renamed($0) == wanted }) { return qualified(renamed) }
        // Test names share long prefixes (`test_checkout_`): only a near miss is suggested, never a sibling.
        let scored = names.map { ($0, ValueParsers.editDistance(reference.name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, reference.name.count / 8) else { return nil }
        return qualified(best.0)
    }

    /// `Suite/name` when one suite declares the name, else the name.
    private func qualified(_ name: String) -> String {
        let owners = Set((testsByName[name] ?? []).compactMap(\.typeName))
        return owners.count == 1 ? "\(owners.first!)/\(name)" : name
    }

    /// `test_fooBar`, `testFooBar`, `fooBar` → `foobar`: the forms a rename between XCTest and
    /// Swift Testing moves between.
    static func renamed(_ name: String) -> String {
        var text = Substring(name)
        if text.hasPrefix("test") { text = text.dropFirst(4) }
        return text.filter { $0 != "_" }.lowercased()
    }
}
