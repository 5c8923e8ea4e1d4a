import PrePushCore

/// Resolves what a scenario links (names, suites, tags) to tests and results by identity, never
/// by guess: a bare name that several suites declare links every one of them, and a result is
/// bound to a test only when its suite is the test's type.
struct TestLinker {
    let inventory: TestInventory
    let results: [UITestResult]
    /// Indices into `inventory.tests` by function and display name.
    private var testsByName: [String: [Int]] = [:]
    private var resultsByName: [String: [Int]] = [:]
    /// Suites with at least one result: the stage that holds them ran.
    private var suitesWithResults: Set<String> = []
    /// Tests and results some scenario links.
    private(set) var linkedTests = Set<Int>()
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
        for (index, test) in inventory.tests.enumerated() {
            testsByName[test.name, default: []].append(index)
            if let display = test.displayName, display != test.name { testsByName[display, default: []].append(index) }
        }
    }

    /// Every test `links` names, each once, in the order written: tests, then suites, then tags.
    mutating func links(_ links: ScenarioLinks) -> [LinkedTest] {
        var found: [LinkedTest] = []
        for text in links.tests {
            let reference = TraceabilityMatrix.TestReference(text)
            let candidates = (testsByName[reference.name] ?? []).filter { reference.suiteMatches(inventory.tests[$0].typeName) }
            var named = (resultsByName[reference.name] ?? []).filter { reference.suiteMatches(results[$0].suite) }
            // A display name in the catalog, a function name in the results (an event stream), or the other way round.
            if named.isEmpty {
                for test in candidates.map({ inventory.tests[$0] }) {
                    named += (resultsByName[test.name] ?? []) + (test.displayName.flatMap { resultsByName[$0] } ?? [])
                }
            }
            found += resolve(text, candidates: candidates, results: named, allowFallback: candidates.count == 1)
        }
        for suite in links.suites {
            let candidates = inventory.tests.indices.filter { TraceabilityMatrix.suite(suite, names: inventory.tests[$0].typeName) }
            let named = results.indices.filter { TraceabilityMatrix.suite(suite, names: results[$0].suite) }
            found += resolve("suite \(suite)", candidates: candidates, results: named, allowFallback: false)
        }
        for tag in links.tags {
            let candidates = inventory.tests.indices.filter { inventory.tests[$0].tags.contains(tag) }
            var named: [Int] = []
            for index in candidates { named += resultsByName[inventory.tests[index].name] ?? [] }
            found += resolve("tag \(tag)", candidates: candidates, results: named, allowFallback: false)
        }
        // A test linked twice (by name and by its suite) is one link.
        guard found.count > 1 else { return found }
        var seen = Set<Int>()
        return found.filter { seen.insert($0.identity).inserted }
    }

    /// One link per candidate test, its result the worst of those whose suite is its type; results
    /// no candidate takes become links of their own (a test the sources do not show). With one
    /// candidate and no result of its type, `allowFallback` lets it take the name's results (a
    /// console that names the suite differently).
    private mutating func resolve(_ reference: String, candidates: [Int], results named: [Int], allowFallback: Bool) -> [LinkedTest] {
        var taken = Set<Int>()
        var links: [LinkedTest] = []
        for candidate in candidates {
            let test = inventory.tests[candidate]
            var mine = named.filter { index in
                !taken.contains(index) && Self.result(results[index], belongsTo: test)
            }
            if mine.isEmpty && allowFallback { mine = named }
            taken.formUnion(mine)
            linkedTests.insert(candidate)
            links.append(link(reference, test: candidate, resultIndices: mine))
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
                                    suggestion: reference.hasPrefix("suite ") || reference.hasPrefix("tag ") ? nil : suggestion(for: reference),
                                    identity: Int.min))
        }
        return links
    }

    /// `test` indexes `inventory.tests`.
    private mutating func link(_ reference: String, test index: Int?, resultIndices: [Int]) -> LinkedTest {
        linkedResults.formUnion(resultIndices)
        let test = index.map { inventory.tests[$0] }
        let result = resultIndices.map { results[$0] }.min { Self.rank($0.status) < Self.rank($1.status) }
        let status: ScenarioStatus
        switch result?.status {
        case .passed?, .expectedFailure?: status = .passed
        case .skipped?: status = .skipped
        case .failed?, .unfinished?: status = .failed
        case nil: status = .notRun
        }
        let suiteRan = result == nil && test?.typeName.map { type in suitesWithResults.contains { TraceabilityMatrix.suite(type, names: $0) } } == true
        // A test's identity is its index; a result with no test, its first result's (negative).
        return LinkedTest(test: test, result: result, status: status, reference: reference, suiteRan: suiteRan, suggestion: nil,
                          identity: index ?? -1 - (resultIndices.first ?? 0))
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

    /// The sources' test names, lowercased as bytes, and by their renamed form: built once, for the
    /// first name that matches nothing.
    private lazy var namesForSuggestions: (names: [(name: String, bytes: [UInt8])], renamed: [[UInt8]: String]) = {
        var renamed: [[UInt8]: String] = [:]
        var names: [(name: String, bytes: [UInt8])] = []
        var seen = Set<String>()
        // In the sources' order (file, line), so a tie always suggests the same name.
        for test in inventory.tests where seen.insert(test.name).inserted {
            names.append((test.name, Self.folded(test.name, asRenamed: false)))
            let key = Self.folded(test.name, asRenamed: true)
            if renamed[key] == nil { renamed[key] = test.name }
        }
        return (names, renamed)
    }()

    /// The test a name that matches nothing may mean: XCTest's `testFooBar` for Swift Testing's
    /// `fooBar()` and back, else the nearest name by edit distance among the sources' tests.
    mutating func suggestion(for text: String) -> String? {
        let reference = TraceabilityMatrix.TestReference(text)
        let index = namesForSuggestions
        if let renamed = index.renamed[Self.folded(reference.name, asRenamed: true)] { return qualified(renamed) }
        // Test names share long prefixes (`test_checkout_`): only a near miss is suggested, never a sibling.
        let wanted = Self.folded(reference.name, asRenamed: false)
        var best: (name: String, distance: Int)?
        var limit = max(2, reference.name.count / 8)
        for candidate in index.names {
            guard let distance = Self.editDistance(wanted, candidate.bytes, atMost: limit) else { continue }
            if best == nil || distance < best!.distance {
                best = (candidate.name, distance)
                limit = distance
            }
        }
        return best.map { qualified($0.name) }
    }

    /// The edit distance of `a` and `b` when it is at most `limit`, else nil: only the band of the
    /// table within `limit` of its diagonal is filled, so a far name costs a few steps, not a whole table.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        let big = limit + 1
        var previous = [Int](repeating: big, count: b.count + 1)
        for j in 0...min(b.count, limit) { previous[j] = j }
        var current = [Int](repeating: big, count: b.count + 1)
        for i in 1...a.count {
            let low = max(1, i - limit), high = min(b.count, i + limit)
            current[low - 1] = low == 1 && i <= limit ? i : big
            var rowMinimum = current[low - 1]
            for j in low...high {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                let value = min(substitution, previous[j] + 1, current[j - 1] + 1)
                current[j] = min(value, big)
                rowMinimum = min(rowMinimum, current[j])
            }
            if high < b.count { current[high + 1] = big }
            guard rowMinimum <= limit else { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }

    /// `Suite/name` when one suite declares the name, else the name.
    private func qualified(_ name: String) -> String {
        let owners = Set((testsByName[name] ?? []).compactMap { inventory.tests[$0].typeName })
        return owners.count == 1 ? "\(owners.first!)/\(name)" : name
    }

    /// `test_fooBar`, `testFooBar`, `fooBar` → `foobar`: the forms a rename between XCTest and
    /// Swift Testing moves between.
    static func renamed(_ name: String) -> String {
        String(decoding: folded(name, asRenamed: true), as: UTF8.self)
    }

    /// A name's bytes with ASCII letters lowercased; `asRenamed` also drops a leading `test` and
    /// every `_`. Bytes, not `String.lowercased()`: thousands of names are folded per report.
    static func folded(_ name: String, asRenamed: Bool) -> [UInt8] {
        var utf8 = name.utf8[...]
        if asRenamed, utf8.starts(with: "test".utf8) { utf8 = utf8.dropFirst(4) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        for byte in utf8 where !(asRenamed && byte == UInt8(ascii: "_")) {
            bytes.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return bytes
    }
}
