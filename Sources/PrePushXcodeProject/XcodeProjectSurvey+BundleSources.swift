import PrePushCore

/// What a scheme's test bundles' sources say, read from the files the project file gives each
/// target: which UI bundles take screenshots, which unit bundles compare snapshots.
extension XcodeProjectSurvey {
    /// Whether a UI bundle takes screenshots only (fastlane's helper among its sources, or every
    /// class the scheme runs in it taking screenshots), else which of its classes do. The classes
    /// it runs are those its plan selects, else all but the classes it skips (Passepartout's
    /// default plan skips every class but the one that takes tvOS screenshots).
    mutating func noteScreenshots(_ bundle: (identifier: String, name: String, container: String), from folder: String,
                                  selected: [String]?, skipped: Set<String>, in tests: inout SchemeTests) {
        let project = FilePath.normalize(FilePath.join(folder, bundle.container))
        guard project.hasSuffix(".xcodeproj"), let target = projectFiles[project]??.targets[bundle.identifier] else { return }
        let (reading, helper) = screenshotReading(project: project, target: target.name)
        // A bundle with screenshot classes and others: the helper says nothing of a scheme's run.
        let mixed = helper && !reading.screenshotClasses.isEmpty && !reading.testClasses.isSubset(of: reading.screenshotClasses)
        if mixed { mixedScreenshotBundles.insert(bundle.name) } else if helper { snapshotHelperBundles.insert(bundle.name) }
        bundleReadings[bundle.name] = reading
        // `Class/test()` or `Class`: the classes the scheme's plan runs.
        let classes = selected.map { Set($0.compactMap { $0.split(separator: "/").first.map(String.init) }) } ?? reading.testClasses.subtracting(skipped)
        if (helper && !mixed) || (!classes.isEmpty && classes.isSubset(of: reading.screenshotClasses)) {
            tests.screenshotBundles.append(bundle.name)
        } else {
            tests.screenshotClasses += classes.intersection(reading.screenshotClasses).sorted().map { bundle.name + "/" + $0 }
        }
    }

    /// Records the whole classes a test plan skips in each bundle it runs.
    mutating func notePlanSkips(_ plan: XcodeTestPlan, path: String) {
        for target in plan.targets where target.enabled {
            planSkippedClasses[path, default: [:]][target.name, default: []].formUnion(target.skippedTests.filter { !$0.contains("/") })
        }
    }

    /// A scheme without a test plan that runs a UI bundle runs the classes every plan the team wrote
    /// for that bundle skips: classes the team never runs (Passepartout's flow tests, skipped by its
    /// two screenshot plans, run only through an extension's scheme that lists the bundle). When all
    /// the bundle's other classes take screenshots, that scheme takes screenshots with it.
    mutating func noteClassesNoPlanRuns() {
        var neverRun: [String: Set<String>] = [:]
        for plan in planSkippedClasses.values {
            for (bundle, classes) in plan { neverRun[bundle] = neverRun[bundle].map { $0.intersection(classes) } ?? classes }
        }
        for index in schemes.indices where schemes[index].testPlan == nil {
            for bundle in schemes[index].uiBundles where !schemes[index].screenshotBundles.contains(bundle) {
                guard let never = neverRun[bundle], !never.isEmpty, let reading = bundleReadings[bundle] else { continue }
                let runs = reading.testClasses.subtracting(never)
                guard !runs.isEmpty, runs.isSubset(of: reading.screenshotClasses) else { continue }
                schemes[index].screenshotBundles.append(bundle)
                schemes[index].screenshotBundlesBesidesSkipped.append(bundle)
                schemes[index].screenshotClasses.removeAll { $0.hasPrefix(bundle + "/") }
            }
        }
    }

    /// What a UI bundle's Swift sources (its sources build phase and synchronized folders, from the
    /// project file) say: its test classes and those that take screenshots, and whether fastlane's
    /// `SnapshotHelper.swift` is among them. Read once per bundle.
    mutating func screenshotReading(project: String, target: String) -> (reading: ScreenshotTests.Reading, helper: Bool) {
        let key = project + "/" + target
        if let known = screenshotReadings[key] { return known }
        var result = (reading: ScreenshotTests.Reading(), helper: false)
        defer { screenshotReadings[key] = result }
        let files = swiftFiles(project: project, target: target)
        result.helper = files.contains { $0 == "SnapshotHelper.swift" || $0.hasSuffix("/SnapshotHelper.swift") }
        // A UI bundle is tens of files; the bound keeps a generated one from taking long.
        let texts = files.prefix(400).compactMap { file -> String? in
            guard case .success(let bytes) = FileReading.read(FilePath.join(root, file), limit: 2_000_000) else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
        result.reading = ScreenshotTests.read(texts)
        return result
    }

    /// The first Swift file under a package's `Tests` folder (relative to the root) that imports a
    /// snapshot-testing library, or nil.
    func snapshotTestFile(folder: String) -> String? {
        let tests = FilePath.join(folder, "Tests")
        for file in SourceTree.files(under: FilePath.join(root, tests), where: { $0.hasSuffix(".swift") }).prefix(3000) {
            let path = FilePath.join(tests, file)
            if importsSnapshotLibrary(path) { return path }
        }
        return nil
    }

    /// Whether the Swift file at `path` (relative to the root) imports a snapshot-testing library;
    /// a file that never says "Snapshot" is not decoded.
    func importsSnapshotLibrary(_ path: String) -> Bool {
        guard case .success(let bytes) = FileReading.read(FilePath.join(root, path), limit: 2_000_000),
              ByteSearch.contains(bytes, Array("Snapshot".utf8)) else { return false }
        return SnapshotLibraries.imported(in: String(decoding: bytes, as: UTF8.self))
    }

    /// Whether a unit bundle's Swift sources import a snapshot-testing library: pointfree's
    /// `SnapshotTesting`, Uber's `iOSSnapshotTestCase` (once `FBSnapshotTestCase`). Read once per bundle.
    mutating func comparesSnapshots(_ bundle: (identifier: String, name: String, container: String), from folder: String) -> Bool {
        let project = FilePath.normalize(FilePath.join(folder, bundle.container))
        guard project.hasSuffix(".xcodeproj"), let target = projectFiles[project]??.targets[bundle.identifier] else { return false }
        let key = project + "/" + target.name
        if let known = snapshotImports[key] { return known }
        let found = swiftFiles(project: project, target: target.name).prefix(2000).contains(where: importsSnapshotLibrary)
        snapshotImports[key] = found
        return found
    }

    /// The Swift files of one target of a project (its sources build phase and synchronized
    /// folders, without what a folder excepts), relative to the root.
    mutating func swiftFiles(project: String, target: String) -> [String] {
        guard let claim = claims(of: project).first(where: { $0.target == target }) else { return [] }
        var files = claim.files.sorted()
        for folder in claim.folders {
            files += SourceTree.files(under: FilePath.join(root, folder)) { $0.hasSuffix(".swift") }.map { FilePath.join(folder, $0) }.filter { !claim.excluded.contains($0) }
        }
        return files
    }
}
