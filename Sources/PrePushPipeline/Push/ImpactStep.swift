import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushHistory
import PrePushTestDiscovery
import PrePushTraceability

/// What `selective: tests` reads before it can choose: the newest impact map of the stage, the
/// changes from the map's commit to the pushed tree, and the tests the pushed sources hold.
package struct ImpactReading {
    package var map: ImpactMap
    package var changes: [OldSideChange]
    /// The tests the pushed sources hold in the test files changed since the map, read when called:
    /// a change that runs every test needs none of them, and parsing them is most of a push's choice.
    package var readCurrent: @Sendable () -> [CurrentTest]
    /// What to say about the map (another toolchain, many commits old): it is used all the same.
    package var notes: [String] = []

    /// A reading whose current tests are already known.
    package init(map: ImpactMap, changes: [OldSideChange], current: [CurrentTest], notes: [String] = []) {
        self.init(map: map, changes: changes, readCurrent: { current }, notes: notes)
    }

    /// A reading whose current tests are read when the choice needs them.
    package init(map: ImpactMap, changes: [OldSideChange], readCurrent: @escaping @Sendable () -> [CurrentTest], notes: [String] = []) {
        self.map = map
        self.changes = changes
        self.readCurrent = readCurrent
        self.notes = notes
    }
}

/// Reads what `selective: tests` needs (the store, libgit2, discovery), and turns a choice into the
/// stage's command. The choice itself is `TestImpact.decide`, a pure function.
package enum ImpactStep {
    /// The most `--filter` (or `--skip`) arguments selection writes, one per suite: the whole command
    /// is one argument of `sh -c`, which Linux limits to 128 KiB (`MAX_ARG_STRLEN`). Past it, and past
    /// `maximumCommandBytes`, the stage skips the tests not chosen instead, or runs their test targets.
    package static let maximumFilters = 400
    /// The longest command selection writes, in bytes, well under that limit.
    package static let maximumCommandBytes = 96 * 1024

    /// The map and changes for `stage`, or why the stage falls back to test targets.
    package static func read(stage: StageSettings, packageFolder: String, graph: PackageGraph, repository: Repository, pushedCommit: String,
                     root: String, toolchain: () -> String) -> Result<ImpactReading, SelectionProblem> {
        // The planner names the root package "." (a relative path); the store keys it as "".
        let packageFolder = packageFolder == "." ? "" : packageFolder
        let map: ImpactMap
        do {
            let store = try ImpactStore(path: ImpactStore.path(commonDirectory: repository.commonDirectory))
            guard let stored = try store.latest(stage: stage.kind.rawValue, packageFolder: packageFolder) else {
                return .failure(SelectionProblem(description: "no impact map is recorded for \(stage.kind.rawValue) (prepush impact record)"))
            }
            map = stored
        } catch {
            return .failure(SelectionProblem(description: "the impact map cannot be read: \(ErrorText.describe(error))"))
        }
        let short = String(map.commit.prefix(7))
        guard repository.containsCommit(map.commit) else {
            return .failure(SelectionProblem(description: "the impact map's commit \(short) is not in this repository"))
        }
        let head: String
        let changes: [OldSideChange]
        do {
            head = try repository.commitID(pushedCommit)
            changes = try repository.oldSideChanges(from: map.commit, to: head)
        } catch {
            return .failure(SelectionProblem(description: "cannot compare the impact map's commit \(short) with the push: \(ErrorText.describe(error))"))
        }
        // Only a test file that changed since the map can hold a test the map does not know (or no
        // longer hold one it knows): an unchanged one holds what was recorded, so only those are parsed.
        let changedFiles = Set(changes.filter { $0.kind != .deleted }.map(\.path))
        var reading = ImpactReading(map: map, changes: changes, readCurrent: {
            currentTests(graph: graph, packageFolder: packageFolder, root: root, among: changedFiles)
        })
        if let age = repository.commitCount(from: map.commit, to: head, limit: stage.impactMapAge + 1), age > stage.impactMapAge {
            reading.notes.append("the impact map of \(short) is more than \(stage.impactMapAge) commits old (impactMapAge); it is used, record it again")
        }
        if !map.toolchain.isEmpty, !toolchain().contains(map.toolchain) {
            reading.notes.append("the impact map of \(short) was recorded with another toolchain (\(map.toolchain)); it is used, record it again")
        }
        return .success(reading)
    }

    /// The tests in the package's test targets as `swift test list` names them, found statically in
    /// `files` (repository-relative; nil: every Swift file of a test target).
    package static func currentTests(graph: PackageGraph, packageFolder: String, root: String, among files: Set<String>? = nil) -> [CurrentTest] {
        let prefix = packageFolder.isEmpty || packageFolder == "." ? "" : packageFolder + "/"
        let testTargets = graph.targets.filter(\.isTest)
        let files = files.map { wanted in
            wanted.filter { path in path.hasSuffix(".swift") && testTargets.contains { path.hasPrefix(prefix + $0.path + "/") } }.sorted()
        } ?? TestDiscovery.files(under: root, include: testTargets.map { Glob("\(prefix)\($0.path)/**/*.swift") })
        let inventory = TestDiscovery.discover(root: root, testFiles: files, platform: .host)
        var tests: [CurrentTest] = []
        for test in inventory.tests {
            let file = test.location.file
            let inPackage = file.hasPrefix(prefix) ? String(file.dropFirst(prefix.count)) : file
            guard let target = testTargets.first(where: { inPackage.hasPrefix($0.path + "/") }) else { continue }
            tests.append(CurrentTest(listed: listedName(test, target: target.name), target: target.name, file: file))
        }
        return tests
    }

    /// `swift test list`'s name of a discovered test: `Target.Type/test` (XCTest),
    /// `Target.Suite/Inner/test(label:)` and `Target.free()` (Swift Testing).
    package static func listedName(_ test: DiscoveredTest, target: String) -> String {
        guard test.framework == .swiftTesting else { return "\(target).\(test.typeName ?? "")/\(test.name)" }
        let name = "\(test.name)(\(test.parameterLabels.map { "\($0):" }.joined()))"
        guard let type = test.typeName else { return "\(target).\(name)" }
        return "\(target).\(type.replacing(".", with: "/"))/\(name)"
    }

    /// The exact `--filter` of one test: its `swift test list` name escaped as a regular expression,
    /// anchored at the start only. Swift Testing matches the filter against ids that end in a source
    /// place (`…/doubled()/File.swift:4:6`), so a `$` would match nothing; a name ending in `)` needs
    /// no end, and one ending in a letter ends at a word boundary (`testDouble` not `testDoubleTwice`).
    package static func filter(_ listed: String) -> String {
        let name = TestImpact.matchName(listed)
        let endsInWord = name.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
        return "^" + TestSharding.regexEscaped(name) + (endsInWord ? "\\b" : "")
    }

    /// One regular expression per suite (or module, for free functions) that holds a test of
    /// `listed`, matching every test of it: `^LibTests\.MathTests/`.
    package static func suiteFilters(_ listed: [String]) -> [String] {
        var seen: Set<String> = []
        return listed.map(TestImpact.matchName).compactMap { name in
            let cut = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.firstIndex(of: ".").map { name.index(after: $0) } ?? name.endIndex
            let suite = String(name[..<cut])
            return seen.insert(suite).inserted ? "^" + TestSharding.regexEscaped(suite) : nil
        }
    }

    /// The regular expressions naming exactly `listed`, one per suite (or module, for free
    /// functions): `^LibTests\.MathTests/(testDouble\b|testTriple\b)`. Each alternative is the end
    /// `filter(_:)` gives one test, so the group matches what the tests' own filters match, in a
    /// fraction of the bytes (549 tests of swift-argument-parser: 50 groups).
    package static func groups(_ listed: [String]) -> [String] {
        var order: [String] = []
        var leaves: [String: [String]] = [:]
        for name in Set(listed.map(TestImpact.matchName)).sorted() {
            // The suite path ends at the last `/`; a free function's at the module's `.`.
            let cut = name.lastIndex(of: "/").map { name.index(after: $0) } ?? name.firstIndex(of: ".").map { name.index(after: $0) } ?? name.startIndex
            let key = String(name[..<cut])
            if leaves[key] == nil { order.append(key) }
            let leaf = String(name[cut...])
            let endsInWord = leaf.last.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
            leaves[key, default: []].append(TestSharding.regexEscaped(leaf) + (endsInWord ? "\\b" : ""))
        }
        return order.map { key in
            let alternatives = leaves[key] ?? []
            return "^" + TestSharding.regexEscaped(key) + (alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: "|") + ")")
        }
    }

    /// The stage's command running exactly `listed` (one `--filter` per suite, `groups(_:)`), nil
    /// when the command does not end in a `swift test` prepush can add filters to.
    package static func command(_ command: String, running listed: [String]) -> String? {
        let quoted = groups(listed).map(ShellQuoting.quoted)
        guard let first = quoted.first, let withFirst = SelectiveTests.command(command, filterArgument: first) else { return nil }
        return withFirst + quoted.dropFirst().map { " --filter \($0)" }.joined()
    }

    /// The stage's command running every test but `skipped` (one `--skip` per suite): what runs is
    /// the chosen tests and any test the map and the sources do not name, a superset. Nil when the
    /// command does not end in a `swift test` prepush can add to, or `skipped` is empty.
    package static func command(_ command: String, skipping skipped: [String]) -> String? {
        let quoted = groups(skipped).map(ShellQuoting.quoted)
        // A `--skip` of the command's own would be kept (skips add up), but say nothing of it: leave such a command alone.
        let words = command.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard !quoted.isEmpty, SelectiveTests.command(command, filterArgument: "''") != nil,
              !words.contains(where: { $0 == "--skip" || $0.hasPrefix("--skip=") }) else { return nil }
        return TextFormatting.trimmed(command) + quoted.map { " --skip \($0)" }.joined()
    }

    /// How a stage runs `chosen`: `--filter`s of the chosen tests, or, when those do not fit one
    /// command and the tests not chosen are fewer, `--skip`s of those; nil when neither fits.
    static func narrowing(_ command: String, chosen: TestImpact.Chosen) -> (command: String?, filter: String, skipping: Bool)? {
        let fits = { (arguments: Int, text: String) in arguments <= maximumFilters && text.utf8.count <= maximumCommandBytes }
        let filters = groups(chosen.listed)
        let joined = filters.joined(separator: "|")
        let running = Self.command(command, running: chosen.listed)
        if fits(filters.count, running ?? joined) { return (running, joined, false) }
        // A command that does not end in swift test gets only $PREPUSH_TEST_FILTER: it cannot skip.
        let skips = groups(chosen.notChosen)
        if let skipping = Self.command(command, skipping: chosen.notChosen), fits(skips.count, skipping) { return (skipping, joined, true) }
        return nil
    }
}

extension ImpactStep {
    /// An xcodebuild stage's command running `listed` (`XcodebuildImpact.narrowing`): by test, or,
    /// when there are too many to name one by one, by their suites or test targets, every test of
    /// which runs (never fewer than chosen). With the `$PREPUSH_TEST_FILTER` that names the same
    /// scope, and what it was widened to (`3 suites`), nil when it names the tests themselves.
    static func xcodebuildNarrowing(_ command: String, chosen listed: [String])
        -> (command: String?, filter: String, onlyTesting: [String], widened: String?)? {
        guard let xcode = XcodebuildImpact.narrowing(command, chosen: listed) else { return nil }
        let filters: [String]
        let widened: String?
        switch xcode.breadth {
        case .tests:
            filters = listed.map(filter)
            widened = nil
        case .suites:
            filters = suiteFilters(listed)
            widened = TextFormatting.count(xcode.onlyTesting.count, "suite")
        case .targets:
            filters = xcode.onlyTesting.map { "^" + TestSharding.regexEscaped(String($0.dropFirst("-only-testing:".count))) + "\\." }
            widened = TextFormatting.count(xcode.onlyTesting.count, "test target")
        }
        return (xcode.command, filters.joined(separator: "|"), xcode.onlyTesting, widened)
    }
}

extension PushPlanner {
    /// Narrows a `selective: tests` stage with the map, or says why test targets run instead (and
    /// then narrows it to them): false when the caller should apply target-level selection.
    static func applyImpact(_ stage: StageSettings, reading: ImpactReading, packageFolder: String, graph: PackageGraph,
                            configurationFile: String?, readers: FileReaders, plan: inout PushPlan) -> Bool {
        let name = stage.kind.rawValue
        for note in reading.notes { plan.notes.append(.note("\(name): selective: \(note)")) }
        var inputs = TestImpact.Inputs(map: reading.map, changes: reading.changes, packageFolder: packageFolder, graph: graph,
                                       current: [], configurationFile: configurationFile, reader: readers.reader(of:inPackage:),
                                       testFileReader: readers.reader(of:outside:))
        if case .all(let reason)? = TestImpact.everything(inputs) {
            plan.notes.append(.note("\(name): selective: every test runs (\(reason))"))
            return true
        }
        inputs.current = reading.readCurrent()
        var chosen: TestImpact.Chosen
        switch TestImpact.decide(inputs) {
        case .all(let reason):
            plan.notes.append(.note("\(name): selective: every test runs (\(reason))"))
            return true
        case .tests(let tests): chosen = tests
        }
        let xcodebuild = XcodebuildImpact.isXcodebuildTestStage(stage.command)
        // An xcodebuild stage that narrows itself (`-only-testing:`, `-skip-testing:`) cannot run a test outside that.
        if xcodebuild, let scope = XcodebuildImpact.scope(of: stage.command) {
            chosen.listed = chosen.listed.filter(scope.runs)
        }
        let short = String(reading.map.commit.prefix(7))
        let basis = "impact map of \(short), \(TextFormatting.count(chosen.changedFiles, "file")) changed"
        let leftOut = chosen.total - chosen.listed.count
        let why = chosen.reasons.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        plan.selectiveSummaries[stage.kind] = "\(leftOut) of \(chosen.total) tests not run: the \(basis) shows the change does not reach them"
            + (why.isEmpty ? "" : " (ran: \(why))")
        guard !chosen.listed.isEmpty else {
            // Nothing to test, but a type error anywhere must still refuse: build what a full run builds.
            let build = xcodebuild ? XcodebuildImpact.buildForTestingCommand(stage.command) : SelectiveTests.buildEverything
            guard let build else {
                plan.selectiveSummaries[stage.kind] = nil
                plan.notes.append(.note("\(name): selective: every test runs (0 of \(chosen.total) tests chosen, and test-without-building has nothing to build)"))
                return true
            }
            plan.stages.replace(stage.kind, with: stage.narrowed(to: build, adding: []))
            plan.notes.append(.said("\(name): selective: 0 of \(chosen.total) tests (\(basis)); every target is built (\(xcodebuild ? "build-for-testing" : build)), no test runs"))
            return true
        }
        // An xcodebuild stage runs them by `-only-testing:` (their selectors); it has no skip that lets
        // the tests a map does not know run, so it never skips. A swift test stage: `--filter` per suite, or `--skip`.
        var onlyTesting = XcodebuildImpact.onlyTesting(chosen.listed)
        let narrowing: (command: String?, filter: String, skipping: Bool)?
        var widened: String?
        if xcodebuild {
            let xcode = ImpactStep.xcodebuildNarrowing(stage.command, chosen: chosen.listed)
            onlyTesting = xcode?.onlyTesting ?? onlyTesting
            widened = xcode?.widened
            narrowing = xcode.map { ($0.command, $0.filter, false) }
        } else {
            narrowing = ImpactStep.narrowing(stage.command, chosen: chosen)
        }
        guard let (command, joined, skipping) = narrowing else {
            plan.selectiveSummaries[stage.kind] = nil
            plan.notes.append(.note("\(name): selective: \(chosen.listed.count) of \(chosen.total) tests chosen, more than one command can name (\(ImpactStep.maximumFilters) filters or skips, \(ImpactStep.maximumCommandBytes / 1024) KiB); their test targets run"))
            return false
        }
        let narrowed = stage.narrowed(to: command ?? stage.command, adding: [EnvironmentEntry(name: "PREPUSH_TEST_FILTER", value: joined),
                                                                          EnvironmentEntry(name: "PREPUSH_ONLY_TESTING", value: onlyTesting.joined(separator: " "))],
                                      chosen: chosen.listed)
        plan.stages.replace(stage.kind, with: narrowed)
        plan.notes.append(.said("\(name): selective: \(chosen.listed.count) of \(chosen.total) tests (\(basis))"
                                + (skipping ? "; run by skipping the \(chosen.notChosen.count) others (tests the map does not know run too)" : "")
                                + (widened.map { "; run by their \($0), every test of which runs (too many to name one by one)" } ?? "")
                                + (command == nil ? "; the command runs neither swift test nor xcodebuild test, so it gets them as $PREPUSH_TEST_FILTER and $PREPUSH_ONLY_TESTING" : "")))
        return true
    }
}
