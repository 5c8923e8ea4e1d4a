#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore
import PrePushGit
import PrePushResults
import PrePushRunner

/// A Swift package's targets as `swift package describe --type json` gives them.
package struct PackageGraph: Equatable {
    /// One target.
    package struct Target: Equatable {
        package let name: String
        /// Relative to the package root.
        package let path: String
        package let isTest: Bool
        package let dependencies: [String]
        /// An executable target: tests may run its binary without depending on it.
        package var isExecutable = false
        /// The products it is part of (an executable's binary is named after its product).
        package var products: [String] = []

        /// Creates a target.
        package init(name: String, path: String, isTest: Bool, dependencies: [String]) {
            self.name = name
            self.path = path
            self.isTest = isTest
            self.dependencies = dependencies
        }
    }

    package let targets: [Target]

    /// Creates a graph.
    package init(targets: [Target]) {
        self.targets = targets
    }

    /// Reads the JSON `swift package describe --type json` prints.
    static func parse(_ bytes: [UInt8]) -> PackageGraph? {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
              case .array(let items)? = root["targets"] else { return nil }
        var targets: [Target] = []
        for item in items {
            guard let name = item["name"]?.string, let path = item["path"]?.string else { return nil }
            var dependencies: [String] = []
            if case .array(let names)? = item["target_dependencies"] { dependencies = names.compactMap(\.string) }
            var target = Target(name: name, path: path, isTest: item["type"]?.string == "test", dependencies: dependencies)
            target.isExecutable = item["type"]?.string == "executable"
            if case .array(let names)? = item["product_memberships"] { target.products = names.compactMap(\.string) }
            targets.append(target)
        }
        return PackageGraph(targets: targets)
    }

    /// The package's graph, from `swift package describe` run in `packageRoot`, or from the copy kept
    /// in `cacheFolder` for the same `Package.swift` and `Package.resolved` (describing resolves the
    /// package, which takes a second or more).
    package static func load(packageRoot: String, cacheFolder: String, environment: [String: String]) -> Result<PackageGraph, SelectionProblem> {
        var manifest: [UInt8] = []
        for name in ["Package.swift", "Package.resolved"] {
            if case .success(let bytes) = FileReading.read(FilePath.join(packageRoot, name), limit: 16 * 1024 * 1024) {
                manifest += Array(name.utf8) + [0] + bytes + [0]
            }
        }
        guard !manifest.isEmpty else { return .failure(SelectionProblem(description: "no Package.swift in \(packageRoot)")) }
        let cached = FilePath.join(cacheFolder, Repository.contentHash(manifest + Array(packageRoot.utf8)) + ".json")
        if case .success(let bytes) = FileReading.read(cached, limit: 64 * 1024 * 1024), let graph = parse(bytes) { return .success(graph) }

        let spec = ProcessSpec(executable: "swift", arguments: ["package", "describe", "--type", "json"], environment: environment,
                               workingDirectory: packageRoot)
        let described = try? CommandOutput.run(spec, timeout: 300, errorLimit: 16 * 1024)
        guard let described, described.succeeded else {
            let said = described?.errorText.split(separator: "\n").last.map(String.init) ?? "it failed"
            return .failure(SelectionProblem(description: "swift package describe failed: \(said)"))
        }
        let output = described.standardOutput
        guard let graph = parse(output) else {
            return .failure(SelectionProblem(description: "swift package describe printed no targets prepush can read"))
        }
        try? FileManager.default.createDirectory(atPath: cacheFolder, withIntermediateDirectories: true)
        try? AtomicFile.write(output, to: cached)
        return .success(graph)
    }
}

/// Why a selective stage runs everything instead.
package struct SelectionProblem: Error, CustomStringConvertible {
    package let description: String

    /// Creates a problem.
    package init(description: String) {
        self.description = description
    }
}

/// Which tests of a Swift package a push needs: the test targets that depend, directly or through
/// other targets, on a target whose files the push changes, and the test targets it changes itself.
enum SelectiveTests {
    enum Selection: Equatable {
        /// Run every test: a change selection cannot see through (the manifest, a file outside any target).
        case all(reason: String)
        /// Run no test: the push changes only documentation.
        case none(reason: String)
        /// Run these test targets, because the push changes these targets. `leftOut` are the test
        /// targets not run; an empty `testTargets` still builds every target.
        case only(testTargets: [String], changedTargets: [String], leftOut: Int)
    }

    /// Files that cannot change what a test does.
    static func isDocumentation(_ path: String) -> Bool {
        let lowered = path.lowercased()
        let name = lowered.split(separator: "/").last.map(String.init) ?? lowered
        if ["license", "licence", "authors", "contributors", "codeowners", ".gitignore", ".gitattributes"].contains(where: { name.hasPrefix($0) }) { return true }
        if [".md", ".markdown", ".txt", ".rst", ".adoc", ".png", ".jpg", ".jpeg", ".gif", ".svg"].contains(where: { lowered.hasSuffix($0) }),
           !lowered.hasSuffix("package.resolved") {
            return true
        }
        return lowered.hasPrefix("docs/") || lowered.contains("/docs/") || lowered.hasPrefix("documentation/")
    }

    /// Why a changed file outside every target (`path` repository-relative; `inPackage` its
    /// package-relative path, nil outside the package) runs every test; nil when no test run can read it.
    static func unread(_ path: String, inPackage: String?, reader: (_ path: String, _ inPackage: String?) -> String?) -> String? {
        guard UnreadFiles.isInertKind(inPackage ?? path) else { return "\(path), \(inPackage == nil ? "outside the package" : "in no target"), changed" }
        return reader(path, inPackage).map { "\(path) changed and \($0)" }
    }

    /// The selection for `changed` (repository-relative paths) in the package at `packageFolder`
    /// (repository-relative, "" for the root). `configurationFile` (repository-relative) counts as a change to everything.
    /// A changed executable target also selects every test target whose sources name its binary
    /// (`mentions(testTarget, names)`): tests run executables without declaring a dependency.
    /// A changed file outside every target counts for nothing only when it is of a kind no build step
    /// reads and `reader` (`FileReaders.reader(of:inPackage:)`) finds nothing in the package that could read it.
    static func select(changed: [String], packageFolder: String, graph: PackageGraph, configurationFile: String?,
                       mentions: (PackageGraph.Target, [String]) -> Bool = { _, _ in false },
                       reader: (_ path: String, _ inPackage: String?) -> String? = { _, _ in "not checked" }) -> Selection {
        let prefix = packageFolder.isEmpty || packageFolder == "." ? "" : packageFolder + "/"
        var changedTargets: [String] = []
        var documentation: [String] = []
        for file in changed {
            if let configurationFile, file == configurationFile { return .all(reason: "\(file) changed") }
            guard file.hasPrefix(prefix) else {
                if let everything = unread(file, inPackage: nil, reader: reader) { return .all(reason: everything) }
                documentation.append(file)
                continue
            }
            let inPackage = String(file.dropFirst(prefix.count))
            if inPackage == "Package.swift" || inPackage == "Package.resolved" || inPackage.hasPrefix("Package@swift") {
                return .all(reason: "\(file) changed")
            }
            if let target = graph.targets.first(where: { inPackage.hasPrefix($0.path + "/") }) {
                if !changedTargets.contains(target.name) { changedTargets.append(target.name) }
            } else if let everything = unread(file, inPackage: inPackage, reader: reader) {
                return .all(reason: everything)
            } else {
                documentation.append(file)
            }
        }
        guard !changedTargets.isEmpty else {
            let shown = documentation.prefix(3).joined(separator: ", ") + (documentation.count > 3 ? ", …" : "")
            return .none(reason: documentation.isEmpty ? "the push changes no file" : "the push changes no target, only \(shown)")
        }
        // Every target that depends on a changed one, through any chain of dependencies.
        var affected = Set(changedTargets)
        var grew = true
        while grew {
            grew = false
            for target in graph.targets where !affected.contains(target.name) && target.dependencies.contains(where: affected.contains) {
                affected.insert(target.name)
                grew = true
            }
        }
        // An executable's binary is run by name (`.build/debug/math`, `Process`): the graph does not show it.
        let binaries = graph.targets.filter { $0.isExecutable && affected.contains($0.name) }.flatMap { [$0.name] + $0.products }
        if !binaries.isEmpty {
            for target in graph.targets where target.isTest && !affected.contains(target.name) && mentions(target, binaries) {
                affected.insert(target.name)
            }
        }
        let allTests = graph.targets.filter(\.isTest)
        let tests = allTests.filter { affected.contains($0.name) }.map(\.name)
        return .only(testTargets: tests, changedTargets: changedTargets, leftOut: allTests.count - tests.count)
    }

    /// Whether a Swift file under `folder` names one of `words` as a whole word (an identifier, a
    /// string's word, a path's last part): the test may run that binary.
    static func sources(in folder: String, mention words: [String]) -> Bool {
        let wanted = Set(words.map { Array($0.utf8) })
        guard !wanted.isEmpty else { return false }
        for file in SourceTree.files(under: folder, where: { $0.hasSuffix(".swift") }) {
            guard case .success(let bytes) = FileReading.read(FilePath.join(folder, file), limit: 8 * 1024 * 1024) else { continue }
            var start = 0
            for index in 0...bytes.count {
                let isWordByte = index < bytes.count && (bytes[index] == 95 || bytes[index] == 45 || (bytes[index] | 0x20 >= 97 && bytes[index] | 0x20 <= 122)
                                                         || (bytes[index] >= 48 && bytes[index] <= 57) || bytes[index] >= 0x80)
                if isWordByte { continue }
                if index > start, wanted.contains(Array(bytes[start..<index])) { return true }
                start = index + 1
            }
        }
        return false
    }

    /// The command that builds everything a full run builds, for a push whose change no test reaches:
    /// a type error anywhere still refuses.
    static let buildEverything = "swift build --build-tests"

    /// SwiftPM's `--filter` for these test targets: their tests' identifiers start with `Target.`.
    static func filter(_ testTargets: [String]) -> String {
        "^(\(testTargets.joined(separator: "|")))\\."
    }

    /// The command with `--filter ARGUMENT` added when its last step is `swift test` (and has no
    /// filter of its own: two filters select the union); nil when it is not (the stage then reads
    /// `PREPUSH_TEST_FILTER` itself, or runs everything). `argument` is shell text: a quoted
    /// regular expression, or `"$PREPUSH_TEST_FILTER"`.
    static func command(_ command: String, filterArgument argument: String) -> String? {
        let steps = command.components(separatedBy: "&&")
        guard let last = steps.last else { return nil }
        let words = last.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard words.count >= 2, words[0] == "swift", words[1] == "test",
              !last.contains("|"), !last.contains(";"), !last.contains("--filter") else { return nil }
        return TextFormatting.trimmed(command) + " --filter \(argument)"
    }
}
