import PrePushCore
import PrePushGit

/// A test that exists in the pushed sources, found statically (`PrePushTestDiscovery`).
package struct CurrentTest: Sendable, Equatable {
    /// How `swift test list` names it: `LibTests.MathTests/testDouble`, `LibTests.Numbers/doubled()`,
    /// `LibTests.freeTriple()`.
    package let listed: String
    /// Its test target (module).
    package let target: String
    /// Repository-relative file that defines it.
    package let file: String

    /// Creates a current test.
    package init(listed: String, target: String, file: String) {
        self.listed = listed
        self.target = target
        self.file = file
    }
}

/// Which single tests a push runs, from an impact map: a pure function of the map, the changes since
/// the map's commit, the package's targets and the tests there are now. When in doubt a test runs.
package enum TestImpact {
    /// What a `selective: tests` stage runs.
    package enum Decision: Equatable {
        /// Every test: a change selection cannot see through.
        case all(reason: String)
        /// These tests (each by its `swift test list` name), out of `total`; none: only the build runs.
        case tests(Chosen)
    }

    /// The tests chosen and why.
    package struct Chosen: Equatable {
        /// `swift test list` names, sorted, each once.
        package var listed: [String]
        /// Tests there are in all (now, and those the map knows that still exist).
        package var total: Int
        /// Files the change touches in Swift sources of targets.
        package var changedFiles: Int
        /// Why tests run, with how many each reason chose (a test counted under its first reason).
        package var reasons: [String: Int]
        /// The tests of `total` not chosen, by name without a source location, sorted: what a run
        /// that skips rather than filters leaves out.
        package var notChosen: [String] = []
    }

    /// Everything the choice reads.
    package struct Inputs {
        package var map: ImpactMap
        /// The changes from the map's commit to the pushed tree, with old-side (map) lines.
        package var changes: [OldSideChange]
        /// Repository-relative folder of the package ("" for the root).
        package var packageFolder: String
        package var graph: PackageGraph
        /// The tests the pushed sources hold in the test files changed since the map (an unchanged
        /// file holds the tests recorded from it).
        package var current: [CurrentTest]
        /// The configuration file, repository-relative: a change to it runs everything.
        package var configurationFile: String?
        /// For a changed file outside every target of a kind no build step reads (`UnreadFiles`):
        /// why a test could read it all the same (`FileReaders.reader(of:inPackage:)`), nil when
        /// nothing can. Given the path (repository-relative) and, in the package, its package-relative path.
        package var reader: (_ path: String, _ inPackage: String?) -> String?
        /// For a changed file of a test target that is no Swift source (a snapshot, a fixture): why a
        /// test outside that target could read it (`FileReaders.reader(of:outside:)`), nil when only
        /// the target's own tests can. Given its package-relative path and the target's name.
        package var testFileReader: (_ inPackage: String, _ owner: String) -> String?

        /// Creates the inputs. Without a `reader`, every changed file outside the targets runs every
        /// test; without a `testFileReader`, every changed file of a test target that is no Swift source does.
        package init(map: ImpactMap, changes: [OldSideChange], packageFolder: String, graph: PackageGraph, current: [CurrentTest],
                     configurationFile: String?, reader: @escaping (_ path: String, _ inPackage: String?) -> String? = { _, _ in "not checked" },
                     testFileReader: @escaping (_ inPackage: String, _ owner: String) -> String? = { _, _ in "not checked" }) {
            self.map = map
            self.changes = changes
            self.packageFolder = packageFolder
            self.graph = graph
            self.current = current
            self.configurationFile = configurationFile
            self.reader = reader
            self.testFileReader = testFileReader
        }
    }

    /// The name a test is matched by across the map and the sources: the `swift test list` form
    /// without a trailing source location (`…/doubled()/File.swift:4:6`).
    package static func matchName(_ listed: String) -> String {
        // On bytes: a push calls this for every test of the map several times (`contains` on a
        // Substring is a generic search, 12% of a choice among 2,147 tests).
        let utf8 = listed.utf8
        guard let slash = utf8.lastIndex(of: UInt8(ascii: "/")) else { return listed }
        var start = utf8.index(after: slash)
        while start != utf8.endIndex {
            if utf8[start...].starts(with: ".swift:".utf8) { return String(listed[..<slash]) }
            start = utf8.index(after: start)
        }
        return listed
    }

    /// Whether `pieces` (each within `whole`) together hold every line of `whole`.
    package static func covers(_ pieces: [ClosedRange<Int>], _ whole: ClosedRange<Int>) -> Bool {
        var next = whole.lowerBound
        for piece in pieces.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if piece.lowerBound > next { return false }
            next = max(next, piece.upperBound + 1)
        }
        return next > whole.upperBound
    }

    /// Why `path` (repository-relative) runs every test, or nil when it is documentation or a Swift
    /// source of a target.
    static func everything(for path: String, _ inputs: Inputs) -> Decision? {
        let folder = inputs.packageFolder
        let prefix = folder.isEmpty || folder == "." ? "" : folder + "/"
        if path == inputs.configurationFile { return .all(reason: "\(path) changed") }
        guard path.hasPrefix(prefix) else {
            return SelectiveTests.unread(path, inPackage: nil, reader: inputs.reader).map { .all(reason: $0) }
        }
        let inPackage = String(path.dropFirst(prefix.count))
        if inPackage == "Package.swift" || inPackage == "Package.resolved" || inPackage.hasPrefix("Package@swift") {
            return .all(reason: "\(path) changed")
        }
        guard inputs.graph.targets.contains(where: { inPackage.hasPrefix($0.path + "/") }) else {
            return SelectiveTests.unread(path, inPackage: inPackage, reader: inputs.reader).map { .all(reason: $0) }
        }
        if !inPackage.hasSuffix(".swift") && !inPackage.contains(".docc/") {
            // A test target's snapshot or fixture reaches that target's tests (`testTargetFile`), unless
            // something outside it could read the file.
            if let owner = testTarget(holding: inPackage, inputs) {
                return inputs.testFileReader(inPackage, owner.name).map { .all(reason: "\(path) changed and \($0)") }
            }
            // A resource, a build setting or anything else a target holds may change what any test sees.
            return .all(reason: "\(path), not a Swift source, changed")
        }
        return nil
    }

    /// The test target whose folder holds `inPackage` (package-relative), when it is not a Swift source.
    static func testTarget(holding inPackage: String, _ inputs: Inputs) -> PackageGraph.Target? {
        guard !inPackage.hasSuffix(".swift"), !inPackage.contains(".docc/") else { return nil }
        return inputs.graph.targets.first { $0.isTest && inPackage.hasPrefix($0.path + "/") }
    }

    /// The whole-suite decision a change forces, found before anything else is read: the tests the
    /// pushed sources hold are parsed (swift-syntax) only when the choice can use them.
    package static func everything(_ inputs: Inputs) -> Decision? {
        for change in inputs.changes {
            for path in Set([change.path, change.oldPath].compactMap { $0 }) {
                if let everything = everything(for: path, inputs) { return everything }
            }
        }
        return nil
    }

    /// The choice for `inputs`. The changes are those between the map's tree and the pushed tree,
    /// whatever the two commits' relation: the map describes its own tree, so what differs from it
    /// is all a push can have changed since (a pushed commit older than the map was recorded on).
    package static func decide(_ inputs: Inputs) -> Decision {
        var reach = Reach(inputs)
        if let everything = reach.classifyChanges() { return everything }
        // A test the runner cannot run alone cannot be chosen alone.
        if let index = reach.mapChosen.keys.sorted().first(where: { inputs.map.tests[$0].listed == nil }) {
            return .all(reason: "\(inputs.map.tests[index].identifier) is chosen and has no name to run it alone by")
        }
        return .tests(reach.chosen())
    }
}

/// The working state of one choice: which map tests and which current tests run, and why.
private struct Reach {
    let inputs: TestImpact.Inputs
    let prefix: String
    /// Function indices of each file in the map.
    var functionsOfFile: [String: [Int]] = [:]
    /// Tests (indices into `map.tests`) that executed each function.
    var testsOfFunction: [[Int]]
    /// Map tests chosen, with their first reason.
    var mapChosen: [Int: String] = [:]
    /// Current tests chosen (by match name), with their first reason.
    var currentChosen: [String: String] = [:]
    /// Files changed or deleted since the map: a map test defined there that is gone now was deleted.
    var changedPaths: Set<String> = []
    /// Swift sources of targets the change touches.
    var swiftFiles = 0

    init(_ inputs: TestImpact.Inputs) {
        self.inputs = inputs
        let folder = inputs.packageFolder
        prefix = folder.isEmpty || folder == "." ? "" : folder + "/"
        for (index, function) in inputs.map.functions.enumerated() { functionsOfFile[function.file, default: []].append(index) }
        testsOfFunction = Array(repeating: [], count: inputs.map.functions.count)
        for (testIndex, test) in inputs.map.tests.enumerated() {
            for function in test.functions { testsOfFunction[function].append(testIndex) }
        }
    }

    /// Marks what each change reaches (counting the Swift sources in `swiftFiles`); the whole-suite
    /// decision a change forces, if one does.
    mutating func classifyChanges() -> TestImpact.Decision? {
        for change in inputs.changes {
            changedPaths.insert(change.path)
            if let old = change.oldPath { changedPaths.insert(old) }
            for path in Set([change.path, change.oldPath].compactMap { $0 }) {
                if let everything = TestImpact.everything(for: path, inputs) { return everything }
            }
            let owners = [change.path, change.oldPath].compactMap { $0 }.compactMap(testTargetFile)
            for owner in owners { chooseTarget(owner.name, "\(change.path), a file of test target \(owner.name), changed") }
            if !owners.isEmpty { continue }
            guard let target = target(of: change.path) ?? change.oldPath.flatMap(target(of:)) else { continue }
            swiftFiles += 1
            reach(change, in: target)
        }
        for (index, test) in inputs.map.tests.enumerated() where test.unknown != nil {
            choose(map: index, "the impact map does not know what it runs (\(test.unknown ?? ""))")
        }
        let known = Set(inputs.map.tests.compactMap { $0.listed.map(TestImpact.matchName) })
        for test in inputs.current where !known.contains(TestImpact.matchName(test.listed)) {
            choose(current: test.listed, "new since the impact map")
        }
        return nil
    }

    /// The test target whose folder holds `path` (repository-relative) when it is no Swift source:
    /// `TestImpact.everything(for:)` let it through, so only that target's tests can read it.
    func testTargetFile(_ path: String) -> PackageGraph.Target? {
        guard path.hasPrefix(prefix) else { return nil }
        return TestImpact.testTarget(holding: String(path.dropFirst(prefix.count)), inputs)
    }

    /// Chooses every test of test target `name`, in the map and in the sources.
    mutating func chooseTarget(_ name: String, _ reason: String) {
        // A test's module is its `swift test list` name up to the first dot.
        for (index, test) in inputs.map.tests.enumerated() where (test.listed ?? test.identifier).prefix(while: { $0 != "." }) == name {
            choose(map: index, reason)
        }
        for test in inputs.current where test.target == name { choose(current: test.listed, reason) }
    }

    /// The target whose Swift sources hold `path`, nil for documentation.
    func target(of path: String) -> PackageGraph.Target? {
        guard path.hasPrefix(prefix), path.hasSuffix(".swift") else { return nil }
        let inPackage = String(path.dropFirst(prefix.count))
        return inputs.graph.targets.first { inPackage.hasPrefix($0.path + "/") }
    }

    /// Chooses the tests one changed Swift source reaches.
    mutating func reach(_ change: OldSideChange, in target: PackageGraph.Target) {
        let old = change.oldPath ?? change.path
        if target.isTest {
            // Every test defined in a changed or new test file, as the map and the sources place it.
            for (index, test) in inputs.map.tests.enumerated() where test.file == change.path || test.file == old {
                choose(map: index, "defined in \(change.path), which changed")
            }
            for test in inputs.current where test.file == change.path { choose(current: test.listed, "defined in \(change.path), which changed") }
        }
        switch change.kind {
        case .added:
            // New code no recorded test executed; what it can change (an overload, a conformance)
            // reaches the tests of the targets that depend on its target.
            guard !target.isTest else { return }
            let reached = SelectiveTests.select(changed: [change.path], packageFolder: inputs.packageFolder, graph: inputs.graph,
                                                configurationFile: nil)
            guard case .only(let testTargets, _, _) = reached else { return }
            let reason = "its target depends on \(target.name), which gains \(change.path)"
            // A test's module is its `swift test list` name up to the first dot.
            for (index, test) in inputs.map.tests.enumerated() {
                if testTargets.contains(String((test.listed ?? test.identifier).prefix { $0 != "." })) { choose(map: index, reason) }
            }
            for test in inputs.current where testTargets.contains(test.target) { choose(current: test.listed, reason) }
        case .modified where !change.wholeFile:
            for range in change.lines { reach(lines: range, of: old) }
        default:
            chooseFile(old, "\(old) was \(change.kind == .deleted ? "deleted" : "changed whole")")
        }
    }

    /// Chooses the tests that executed a function the lines touch, and every test of the file when
    /// a touched line is outside every recorded function body.
    mutating func reach(lines: ClosedRange<Int>, of file: String) {
        var covered: [ClosedRange<Int>] = []
        for index in functionsOfFile[file] ?? [] {
            let function = inputs.map.functions[index]
            guard function.touches(file, lines.lowerBound, lines.upperBound) else { continue }
            covered.append(max(lines.lowerBound, function.startLine)...min(lines.upperBound, function.endLine))
            for test in testsOfFunction[index] { choose(map: test, "executed \(function.name), which changed") }
        }
        if !TestImpact.covers(covered, lines) {
            chooseFile(file, "\(file) changed outside a function body (lines \(lines.lowerBound)–\(lines.upperBound))")
        }
    }

    /// Every test that executed anything in `file` or is defined in it.
    mutating func chooseFile(_ file: String, _ reason: String) {
        for index in functionsOfFile[file] ?? [] {
            for test in testsOfFunction[index] { choose(map: test, reason) }
        }
        for (index, test) in inputs.map.tests.enumerated() where test.file == file { choose(map: index, reason) }
        for test in inputs.current where test.file == file { choose(current: test.listed, reason) }
    }

    mutating func choose(map index: Int, _ reason: String) {
        if mapChosen[index] == nil { mapChosen[index] = reason }
    }

    mutating func choose(current listed: String, _ reason: String) {
        let name = TestImpact.matchName(listed)
        if currentChosen[name] == nil { currentChosen[name] = reason }
    }

    /// The chosen tests by `swift test list` name. A map test the sources no longer hold is left out
    /// only when its file changed since the map (it was deleted or renamed); one discovery cannot see
    /// in an unchanged file runs all the same (a test that then does not run refuses the push).
    func chosen() -> TestImpact.Chosen {
        let current = Dictionary(inputs.current.map { (TestImpact.matchName($0.listed), $0) }, uniquingKeysWith: { first, _ in first })
        var reasons: [String: String] = currentChosen
        var universe = Set(current.keys)
        for (index, test) in inputs.map.tests.enumerated() {
            guard let listed = test.listed else { continue }
            let name = TestImpact.matchName(listed)
            let gone = current[name] == nil && (test.file.map { changedPaths.contains($0) } ?? false)
            if gone { continue }
            universe.insert(name)
            if let reason = mapChosen[index], reasons[name] == nil { reasons[name] = reason }
        }
        var counts: [String: Int] = [:]
        for reason in reasons.values { counts[Self.kind(of: reason), default: 0] += 1 }
        return TestImpact.Chosen(listed: reasons.keys.sorted(), total: universe.count, changedFiles: swiftFiles, reasons: counts,
                                 notChosen: universe.subtracting(reasons.keys).sorted())
    }

    /// A reason without its particulars, for the summary: "executed a changed function".
    static func kind(of reason: String) -> String {
        if reason.hasPrefix("executed ") { return "executed a changed function" }
        if reason.hasPrefix("defined in ") { return "defined in a changed test file" }
        if reason.hasPrefix("its target depends") { return "its target gains a file" }
        if reason.contains("outside a function body") { return "ran code of a file changed outside a function" }
        if reason.contains("was deleted") || reason.contains("changed whole") { return "ran code of a file changed whole" }
        if reason.hasPrefix("the impact map does not know") { return "unknown to the map" }
        return reason
    }
}
