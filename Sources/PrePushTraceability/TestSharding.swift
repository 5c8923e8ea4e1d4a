#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// A test as a shard names it to the test runner.
package struct ShardedTest: Sendable, Hashable {
    /// The test target (module) it belongs to, read from its file's folder (`Tests/AppTests/…` → `AppTests`).
    package let target: String
    /// The type it is declared in (`LoginUITests`, `Outer.Inner`), nil for a free `@Test` function.
    package let typeName: String?
    /// Its name as the runner names it: `testLogin` for XCTest, `signIn()` or `param(value:)` for Swift Testing.
    package let name: String
    /// Which framework runs it.
    package let framework: DiscoveredTest.Framework

    /// Creates a test.
    package init(target: String, typeName: String?, name: String, framework: DiscoveredTest.Framework) {
        self.target = target
        self.typeName = typeName
        self.name = name
        self.framework = framework
    }

    /// xcodebuild's `-only-testing:` form and the stable sort key: `AppTests/LoginTests/testLogin`,
    /// `AppTests/Suite/Inner/signIn()`, `AppTests/freeFunction()`.
    package var identifier: String {
        let path = typeName.map { framework == .swiftTesting ? $0.replacing(".", with: "/") : $0 }
        return [target, path, name].compactMap { $0 }.joined(separator: "/")
    }
}

/// The `--filter`, `-only-testing:` and list forms of one shard's tests, handed to the stage
/// command as `PREPUSH_TEST_FILTER`, `PREPUSH_ONLY_TESTING` and the file `PREPUSH_TEST_LIST` names.
package struct ShardFilters: Sendable, Equatable {
    /// A regular expression for `swift test --filter` matching exactly this shard's tests.
    package let swiftTestFilter: String
    /// `-only-testing:Target/Class[/test]` arguments, space-separated, for `xcodebuild test`.
    package let onlyTesting: String
    /// One `identifier` a line.
    package let list: String
}

/// Splits the tests found in the sources into balanced shards, the same way every time for the
/// same inputs, so that each job of a CI matrix computes its own part without talking to the others.
package enum TestSharding {
    /// The test target of a test file: the folder after a `Tests` or `UITests` folder (SwiftPM's
    /// `Tests/AppTests/…`), else the outermost folder whose name ends in `Tests` (Xcode's
    /// `AppUITests/…`), else the file's folder.
    package static func target(ofTestFile path: String) -> String {
        let folders = path.split(separator: "/").dropLast().map(String.init)
        for (offset, folder) in folders.enumerated() {
            let isContainer = (folder == "Tests" || folder == "UITests") && offset + 1 < folders.count
            if folder.hasSuffix("Tests") && !isContainer { return folder }
        }
        return folders.last ?? "Tests"
    }

    /// The inventory's tests as shards name them, sorted by identifier, each once.
    package static func tests(in inventory: TestInventory) -> [ShardedTest] {
        var seen: Set<String> = []
        var tests: [ShardedTest] = []
        for test in inventory.tests {
            let name = test.framework == .swiftTesting
                ? "\(test.name)(\(test.parameterLabels.map { "\($0):" }.joined()))"
                : test.name
            let sharded = ShardedTest(target: target(ofTestFile: test.location.file), typeName: test.typeName, name: name, framework: test.framework)
            if seen.insert(sharded.identifier).inserted { tests.append(sharded) }
        }
        return tests.sorted { $0.identifier < $1.identifier }
    }

    /// `tests` split into `count` shards. Without durations, by count: consecutive runs of the sorted
    /// tests (so a class mostly stays in one shard), sizes differing by at most one. With durations
    /// (seconds, from an earlier run's results), longest first onto the shard with the least time so
    /// far; a test without one counts as the mean of those that have one. Ties go by identifier and
    /// shard number, so the same inputs always give the same shards.
    package static func partition(_ tests: [ShardedTest], into count: Int, duration: ((ShardedTest) -> Double?)? = nil) -> [[ShardedTest]] {
        precondition(count >= 1, "a partition into \(count) shards")
        let sorted = tests.sorted { $0.identifier < $1.identifier }
        guard let duration else {
            return (0..<count).map { shard in Array(sorted[(shard * sorted.count / count)..<((shard + 1) * sorted.count / count)]) }
        }
        let known = sorted.map(duration)
        let measured = known.compactMap { $0 }
        let fallback = measured.isEmpty ? 1 : measured.reduce(0, +) / Double(measured.count)
        let weighted = zip(sorted, known).map { (test: $0, seconds: $1 ?? fallback) }
            .sorted { $0.seconds != $1.seconds ? $0.seconds > $1.seconds : $0.test.identifier < $1.test.identifier }
        var shards = [[ShardedTest]](repeating: [], count: count)
        var loads = [Double](repeating: 0, count: count)
        for (test, seconds) in weighted {
            var lightest = 0
            for shard in 1..<count where loads[shard] < loads[lightest] { lightest = shard }
            shards[lightest].append(test)
            loads[lightest] += seconds
        }
        return shards.map { $0.sorted { $0.identifier < $1.identifier } }
    }

    /// The filters of `shard`, one of the shards of `all`. A type whose every test is in the shard
    /// is named once (`^App\.LoginTests/[^/]+$`, `-only-testing:App/LoginTests`) to keep the
    /// variables short; a type with nested suites is named test by test.
    package static func filters(of shard: [ShardedTest], among all: [ShardedTest]) -> ShardFilters {
        var testsPerType: [String: Int] = [:]
        for test in all { if let type = test.typeName { testsPerType["\(test.target)/\(type)", default: 0] += 1 } }
        let nestingTypes = Set(all.compactMap { test in test.typeName.flatMap { type in type.contains(".") ? "\(test.target)/\(type.split(separator: ".").dropLast().joined(separator: "."))" : nil } })
        var inShard: [String: Int] = [:]
        for test in shard { if let type = test.typeName { inShard["\(test.target)/\(type)", default: 0] += 1 } }
        var patterns: [String] = []
        var onlyTesting: [String] = []
        var named: Set<String> = []
        for test in shard {
            let typeKey = test.typeName.map { "\(test.target)/\($0)" }
            if let typeKey, let type = test.typeName, inShard[typeKey] == testsPerType[typeKey], !nestingTypes.contains(typeKey) {
                guard named.insert(typeKey).inserted else { continue }
                let typePath = test.framework == .swiftTesting ? type.replacing(".", with: "/") : type
                // Swift Testing matches `--filter` against ids that end in the source place
                // (`App.Suite/signIn()/File.swift:12:4`): a test is anchored at its `(`, not at `$`.
                patterns.append("^\(regexEscaped(test.target))\\.\(regexEscaped(typePath))/[^/]+" + (test.framework == .swiftTesting ? "\\(" : "$"))
                onlyTesting.append("-only-testing:\(test.target)/\(typePath)")
                continue
            }
            onlyTesting.append("-only-testing:\(test.identifier)")
            let prefix = regexEscaped(test.target) + "\\." + (test.typeName.map { type in
                regexEscaped(test.framework == .swiftTesting ? type.replacing(".", with: "/") : type) + "/"
            } ?? "")
            patterns.append(test.framework == .swiftTesting
                ? "^\(prefix)\(regexEscaped(test.name))(/|$)"
                : "^\(prefix)\(regexEscaped(test.name))$")
        }
        // A shard with no tests must select none: a filter that matches nothing (an empty one matches everything).
        let filter = patterns.isEmpty ? "^prepush-shard-holds-no-tests$" : patterns.joined(separator: "|")
        return ShardFilters(swiftTestFilter: filter, onlyTesting: onlyTesting.joined(separator: " "),
                            list: shard.map { $0.identifier + "\n" }.joined())
    }

    /// `text` with the characters that mean something in a regular expression escaped (only those:
    /// an escaped `:` is an error in some regex dialects).
    package static func regexEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if "\\^$.|?*+()[]{}".contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }
}
