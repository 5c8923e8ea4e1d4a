#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushGit
import PrePushHistory
import PrePushCore
import PrePushResults
import PrePushTestDiscovery
import PrePushTraceability

/// Traceability as a step: the catalog, the tests found in the sources, and after the stages the
/// matrix, its reports and the gate.
package struct TraceabilityStep: Sendable {
    /// Where the catalog is looked for when the configuration names none.
    package static let defaultCatalog = ".prepush/scenarios.yml"
    /// Test sources searched when the configuration names none: `Tests/` and every `*Tests/` folder.
    package static let defaultTests = ["Tests/**/*.swift", "**/*Tests/**/*.swift"]
    /// Sources read for `LaunchArguments` constants when the configuration names none.
    package static let defaultLaunchArguments = ["**/LaunchArguments*.swift"]

    /// The repository root.
    package let root: String
    /// The catalog's path relative to the root (or absolute).
    package let catalogPath: String
    /// Whether the configuration names the catalog (then a missing file is an error).
    package let catalogConfigured: Bool
    let tests: [Glob]
    let launchArguments: [Glob]
    /// The gate.
    package internal(set) var gate: TraceabilityGate
    /// What the change under test tried to loosen in the gate's policy (`GatePolicyTrust`), for every report.
    var policyChanges: [String] = []
    /// `traceability.testNamePattern`, when set.
    package let testNamePattern: String?
    /// `traceability.linkPattern`, when set.
    package let linkPattern: String?

    /// The step from the `traceability:` section.
    package init(_ section: FileTraceability?, root: String, quarantine: Quarantine = Quarantine()) {
        self.root = root
        catalogPath = section?.catalog?.value ?? Self.defaultCatalog
        catalogConfigured = section?.catalog != nil
        let testGlobs = section?.tests.map(\.value) ?? []
        tests = (testGlobs.isEmpty ? Self.defaultTests : testGlobs).map(Glob.init)
        let argumentGlobs = section?.launchArguments.map(\.value) ?? []
        launchArguments = (argumentGlobs.isEmpty ? Self.defaultLaunchArguments : argumentGlobs).map(Glob.init)
        gate = section?.gate.map { TraceabilityGate(blocking: Set($0.compactMap { TestPriority(rawValue: $0.value) })) } ?? TraceabilityGate()
        gate.unmappedFailures = section?.unmappedFailures.flatMap { TraceabilityGate.UnmappedFailureRule(rawValue: $0.value) } ?? .warn
        gate.minTests = section?.minTests?.value
        testNamePattern = section?.testNamePattern?.value
        linkPattern = section?.linkPattern?.value
        gate.quarantine = quarantine
    }

    /// The catalog's absolute path.
    package var absoluteCatalogPath: String { catalogPath.hasPrefix("/") ? catalogPath : FilePath.join(root, catalogPath) }

    /// Whether there is a catalog to trace (a configured one that is missing is an error, found when loading).
    package var isActive: Bool { catalogConfigured || FileManager.default.fileExists(atPath: absoluteCatalogPath) }

    /// The configured (or default) catalog, which must be inside the repository.
    func loadCatalog() throws(CatalogError) -> ScenarioCatalog {
        try ScenarioCatalog.load(repositoryPath: catalogPath, root: root, testNamePattern: testNamePattern)
    }

    /// Reads the catalog (errors name it as configured) and finds the tests.
    package func prepare() throws(CatalogError) -> (catalog: ScenarioCatalog, inventory: TestInventory) {
        (try loadCatalog(), inventory())
    }

    /// The tests in the sources: one walk of the tree finds both the test files and the files
    /// declaring `LaunchArguments`.
    func inventory() -> TestInventory {
        let swiftFiles = TestDiscovery.files(under: root, include: tests + launchArguments)
        let testFiles = swiftFiles.filter { path in tests.contains { $0.matches(path) } }
        let constantFiles = swiftFiles.filter { path in launchArguments.contains { $0.matches(path) } }
        return TestDiscovery.discover(root: root, testFiles: testFiles, constantFiles: constantFiles)
    }

    /// The tests in the sources alone (no `LaunchArguments` files): with `platform`, those compiled
    /// there. What sharding splits and what gives console results their identity.
    func testInventory(globs: [Glob]? = nil, platform: BuildPlatform?) -> TestInventory {
        let files = TestDiscovery.files(under: root, include: globs ?? tests)
        return TestDiscovery.discover(root: root, testFiles: files, platform: platform)
    }

    /// How many recorded runs (a run is one stage) the strips are read from.
    static let historyRuns = 60

    /// The recent results of the run history at `path` by test identifier; none when there is no
    /// history there (a report never creates one) or it cannot be read.
    static func pastResults(_ path: String) -> [String: [PastResult]] {
        guard FileManager.default.fileExists(atPath: path), let history = try? RunHistory(path: path),
              let recent = try? history.recentResults(runs: historyRuns) else { return [:] }
        var past: [String: [PastResult]] = [:]
        for entry in recent { past[entry.test.identifier, default: []].append(PastResult(run: entry.run, tree: entry.tree, status: entry.test.status)) }
        return past
    }

    /// `; 12 tests in no scenario`, or nothing.
    static func unmappedNote(_ matrix: TraceabilityMatrix) -> String {
        matrix.unmappedTests.isEmpty ? "" : "; \(TextFormatting.count(matrix.unmappedTests.count, "test")) in no scenario"
    }

    /// The test files discovery did not read, said once: `2 test files not read: a (…), b (…)`.
    static func skippedNote(_ inventory: TestInventory) -> String? {
        guard !inventory.skippedFiles.isEmpty else { return nil }
        let named = inventory.skippedFiles.prefix(3).joined(separator: ", ") + (inventory.skippedFiles.count > 3 ? ", …" : "")
        return "\(TextFormatting.count(inventory.skippedFiles.count, "test file")) not read: \(named)"
    }

    /// The matrix of a run and what its gate refuses; nothing is written (`publish` writes).
    /// `buildFailed`: a stage failed before any test ran (a red build), said once rather than per scenario.
    package func judge(catalog: ScenarioCatalog, inventory: TestInventory, results: [UITestResult], stamp: ReportStamp,
                      history: String?, environment: [String: String], buildFailed: Bool = false) -> Judged {
        var gate = self.gate
        // In CI a test with no result is a hole in the proof; on a laptop, a stage the user skipped
        // leaves its tests without results, which is said, not refused.
        gate.notRun = ConfigurationResolver.runsInCI(environment) ? .refuse : .refuseWhenItsSuiteRan
        var matrix = TraceabilityMatrix(catalog: catalog, inventory: inventory, results: results, notRun: gate.notRun)
        matrix.stamp = stamp
        matrix.buildFailed = buildFailed
        matrix.root = root
        matrix.linkPattern = linkPattern
        matrix.policyChanges = policyChanges
        if let history { matrix.attachHistory(Self.pastResults(history)) }
        return Judged(matrix: matrix, gate: gate, inventory: inventory, violations: gate.violations(in: matrix))
    }

    /// A push's matrix and what its gate refuses, before anything is written: the tests' reports
    /// state the gate's refusal too.
    package struct Judged {
        let matrix: TraceabilityMatrix
        let gate: TraceabilityGate
        let inventory: TestInventory
        /// What the gate refuses, a line each.
        package let violations: [String]
    }

    /// Writes the traceability reports of a judged push into `folder` (and the step summary);
    /// returns the paths written.
    func publish(_ judged: Judged, folder: String, checkout: Checkout?, environment: [String: String], diagnostics: Diagnostics) -> [String] {
        let console = diagnostics.console
        let (matrix, gate, inventory) = (judged.matrix, judged.gate, judged.inventory)
        console.line("prepush: scenarios: \(matrix.total.total), \(matrix.counts)" + Self.unmappedNote(matrix))
        if let skipped = Self.skippedNote(inventory) { diagnostics.note("traceability: \(skipped)") }
        var written: [String] = []
        var markdown = ""
        for format in TraceabilityFormat.pushFormats {
            let path = FilePath.join(folder, "traceability.\(format.fileExtension)")
            let text = format.render(matrix, gate: gate)
            if format == .markdown { markdown = text }
            do {
                try ReportPublisher.writeWhole(text, to: path, checkout: checkout)
                written.append(path)
            } catch {
                diagnostics.warning("could not write \(path): \(ErrorText.describe(error))")
            }
        }
        // The step summary gets the Markdown already made for traceability.md.
        try? ReportPublisher(environment: environment).appendStepSummary(markdown: markdown, block: "traceability")
        return written
    }
}
