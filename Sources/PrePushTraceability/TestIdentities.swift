import PrePushCore

/// One identity per test, whatever output it was read from: module, suite and function, as Swift
/// Testing's event stream names it (`RenderTests.PDFRenderer` and `compileXib()`; XCTest's
/// `ShopTests.CheckoutTests` and `testPays`). The console names less: Swift Testing's gives the
/// function alone, and four suites can each have a `compileXib()`; XCTest's on Linux gives
/// `Class.method` without the module, and a result bundle `Class` and `method()`. Those results take their identity from the tests found in
/// the sources: the one test of that name, else the one whose file and lines hold the result's
/// failure, else, when the same number of same-named tests ended alike, one each. A result that
/// cannot be told apart keeps the name the console gave it: same-named tests of different suites
/// are never merged into one.
package struct TestIdentities: Sendable {
    /// A test found in the sources, named as the event stream names it.
    struct Candidate: Sendable, Hashable {
        let suite: String
        let name: String
        let file: String
        let line: Int
    }

    private var candidates: [String: [Candidate]] = [:]

    /// The identities of the tests `inventory` found; `target` names a test file's module.
    package init(inventory: TestInventory, target: (String) -> String = TestSharding.target(ofTestFile:)) {
        for test in inventory.tests {
            let module = target(test.location.file)
            switch test.framework {
            case .swiftTesting:
                // The event stream's suite: the module, then the types with `/` between nested ones.
                let suite = test.typeName.map { "\(module).\($0.replacing(".", with: "/"))" } ?? module
                let name = "\(test.name)(\(test.parameterLabels.map { "\($0):" }.joined()))"
                let candidate = Candidate(suite: suite, name: name, file: test.location.file, line: test.location.line)
                add(candidate, key: Self.swiftTestingKey(name))
                // A result bundle names the suite without its module (`BasketTests`, `adds()`).
                if let type = test.typeName { add(candidate, key: Self.suiteKey(suite: String(type.split(separator: ".").last ?? ""), name: name)) }
                if let display = test.displayName {
                    add(candidate, key: Self.swiftTestingKey(display))
                    add(candidate, key: Self.swiftTestingKey("\"\(display)\""))
                }
            case .xctest:
                guard let type = test.typeName else { continue }
                let candidate = Candidate(suite: "\(module).\(type)", name: test.name, file: test.location.file, line: test.location.line)
                // XCTest's console on Linux names `Class.method`; a result bundle `Class` and `method()`.
                let suite = String(type.split(separator: ".").last ?? "")
                add(candidate, key: Self.suiteKey(suite: suite, name: test.name))
                add(candidate, key: Self.suiteKey(suite: suite, name: test.name + "()"))
            }
        }
    }

    private mutating func add(_ candidate: Candidate, key: String) {
        if candidates[key]?.contains(candidate) != true { candidates[key, default: []].append(candidate) }
    }

    private static func swiftTestingKey(_ name: String) -> String { "t\u{1}" + name }
    private static func suiteKey(suite: String, name: String) -> String { "s\u{1}\(suite).\(name)" }

    /// The key of a result whose input did not name its module (and maybe not its suite); nil when it did.
    static func key(of result: UITestResult) -> String? {
        if result.suite.isEmpty { return swiftTestingKey(result.name) }
        if !result.suite.contains("."), !result.suite.contains("/") { return suiteKey(suite: result.suite, name: result.name) }
        return nil
    }

    /// Whether any of `results` needs an identity the sources can give.
    package static func needed(by results: [UITestResult]) -> Bool {
        results.contains { key(of: $0) != nil }
    }

    /// Each name the console gives a test (`compileXib()`, `CheckoutTests.testPays`) that stands for
    /// one test of the sources, with that test's identity (`RenderTests.XibRenderer.compileXib()`):
    /// how rows an older history recorded under the console's name are renamed.
    package var identityOfShortName: [String: String] {
        var identities: [String: String] = [:]
        for (key, found) in candidates where found.count == 1 {
            guard let separator = key.firstIndex(of: "\u{1}") else { continue }
            identities[String(key[key.index(after: separator)...])] = "\(found[0].suite).\(found[0].name)"
        }
        return identities
    }

    /// Whether the sources hold no test at all.
    package var isEmpty: Bool { candidates.isEmpty }

    /// `results` with each result the console named without its module or suite given its full
    /// identity, where the sources tell it. `among`, when given, is the tests that can be in the
    /// results (a retry's: the tests it was asked to run), by `testIdentifier`.
    package func resolve(_ results: [UITestResult], among wanted: Set<String>? = nil) -> [UITestResult] {
        var groups: [String: [Int]] = [:]
        for (index, result) in results.enumerated() {
            if let key = Self.key(of: result), candidates[key] != nil { groups[key, default: []].append(index) }
        }
        guard !groups.isEmpty else { return results }
        var resolved = results
        for (key, indices) in groups {
            var pool = candidates[key]!
            if let wanted { pool = pool.filter { wanted.contains("\($0.suite).\($0.name)") } }
            for (index, candidate) in Self.assign(indices.map { results[$0] }, to: pool) {
                resolved[indices[index]] = results[indices[index]].identified(suite: candidate.suite, name: candidate.name)
            }
        }
        return resolved
    }

    /// Which candidate each result is (by position in `results`): the only one; else the one whose
    /// declaration is the last before the failure in the failure's file; then, when as many
    /// results as candidates are left and they all ended alike, one each in order.
    static func assign(_ results: [UITestResult], to pool: [Candidate]) -> [(Int, Candidate)] {
        guard !pool.isEmpty else { return [] }
        if pool.count == 1 { return results.indices.map { ($0, pool[0]) } }
        var left = pool
        var assigned: [(Int, Candidate)] = []
        var open: [Int] = []
        for (index, result) in results.enumerated() {
            guard let place = result.failures.lazy.compactMap(\.location).first,
                  let found = holder(of: place, in: left) else {
                open.append(index)
                continue
            }
            assigned.append((index, found))
            left.removeAll { $0 == found }
        }
        if !open.isEmpty, open.count == left.count, Set(open.map { results[$0].status }).count == 1 {
            let ordered = left.sorted { ($0.suite, $0.file, $0.line) < ($1.suite, $1.file, $1.line) }
            assigned += zip(open, ordered).map { ($0, $1) }
        }
        return assigned
    }

    /// The candidate declared last before `place` in `place`'s file (the console gives a path or a
    /// bare file name).
    static func holder(of place: SourceLocation, in pool: [Candidate]) -> Candidate? {
        let file = place.file
        let inFile = pool.filter { $0.file == file || $0.file.hasSuffix("/" + file) || file.hasSuffix("/" + $0.file) }
        if inFile.count == 1 { return inFile[0] }
        return inFile.filter { $0.line <= place.line }.max { $0.line < $1.line }
    }
}
