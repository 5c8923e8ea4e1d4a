#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushResults
import PrePushTraceability

/// Chooses between a stage's console and the result files its command asked for.
enum StageResultReading {
    /// The stage's tests: Swift Testing's from its event stream, else from SwiftPM's xunit files where
    /// the command names them, this run wrote them and the console is ambiguous; the console's otherwise. A file that cannot be read is said in one warning line.
    static func preferringFiles(_ files: StageResultFiles, over console: TestRun, writtenSince start: Date,
                                diagnostics: Diagnostics) -> TestRun {
        guard !files.isEmpty else { return console }
        func read(_ path: String?) -> TestRun? {
            guard let path, let modified = modificationDate(path), modified >= start.addingTimeInterval(-1) else { return nil }
            do {
                let parsed = try ResultsInput.parse(file: path)
                return parsed.run.results.isEmpty ? nil : parsed.run
            } catch {
                diagnostics.warning("cannot read \(path) (\(error)); the console output is used instead")
                return nil
            }
        }
        // The console tells XCTest from Swift Testing: XCTest names always carry their class.
        let consoleXCTest = console.results.filter { !$0.suite.isEmpty }
        let consoleSwiftTesting = console.results.filter { $0.suite.isEmpty }
        var swiftTesting = consoleSwiftTesting
        if let fromEvents = read(files.eventStream)?.results {
            swiftTesting = withArguments(fromEvents, console: consoleSwiftTesting)
        } else if let fromXunit = read(files.swiftTestingXunit)?.results, isAmbiguous(consoleSwiftTesting, beside: fromXunit) {
            swiftTesting = fromXunit
        }
        var xctest = consoleXCTest
        if let fromXunit = read(files.xunit)?.results, isAmbiguous(consoleXCTest, beside: fromXunit) {
            // SwiftPM's xunit writes an XCTSkip as a pass; the console knows it was skipped.
            let skipped = Dictionary(consoleXCTest.filter { $0.status == .skipped }.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            xctest = fromXunit.map { test in test.status == .passed ? (skipped[test.name] ?? test) : test }
        }
        return TestRun(results: xctest + swiftTesting, runFailures: console.runFailures)
    }

    /// Swift Testing's event stream does not say which arguments a parameterized test's failing
    /// case had; its console does (`recorded an issue with 1 argument days → 3 at …`), and the
    /// console reader keeps that as ` (1 argument days → 3)` after the message. The stream's
    /// failures get it back, matched by test and line, in the order the cases failed.
    static func withArguments(_ results: [UITestResult], console: [UITestResult]) -> [UITestResult] {
        var notes: [String: [String]] = [:]
        for result in console where !result.passed {
            for failure in result.failures {
                let firstLine = String(failure.message.split(separator: "\n", maxSplits: 1).first ?? "")
                guard let line = failure.location?.line, let note = argumentNote(firstLine) else { continue }
                notes[TraceabilityMatrix.bareName(result.name) + "@\(line)", default: []].append(note)
            }
        }
        guard !notes.isEmpty else { return results }
        return results.map { result in
            guard !result.passed else { return result }
            return result.mappingFailures { failure in
                let key = TraceabilityMatrix.bareName(result.name) + "@\(failure.location?.line ?? -1)"
                guard var queue = notes[key], !queue.isEmpty else { return failure }
                let note = queue.removeFirst()
                notes[key] = queue
                var lines = failure.message.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                if !lines[0].hasSuffix(note) { lines[0] += note }
                return TestFailure(message: lines.joined(separator: "\n"), location: failure.location)
            }
        }
    }

    /// ` (1 argument days → 3)` at the end of a console failure's first line, when it has one.
    static func argumentNote(_ message: String) -> String? {
        guard message.hasSuffix(")"), let open = message.ranges(of: " (").last else { return nil }
        let inside = message[open.upperBound...].dropLast()
        guard let first = inside.first, first.isNumber, inside.contains(" argument"), inside.contains("→") else { return nil }
        return String(message[open.lowerBound...])
    }

    /// SwiftPM's xunit files have no source places (XCTest's says only "failure"), display names or
    /// known issues: they win only where the console cannot be trusted — a name it shows more than
    /// once, or a count that differs from the file's.
    static func isAmbiguous(_ console: [UITestResult], beside file: [UITestResult]) -> Bool {
        let names = console.map(\.testIdentifier)
        return Set(names).count != names.count || console.count != file.count
    }

    private static func modificationDate(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
    }
}

/// Shows source places from the repository root: absolute paths inside it lose the root, and the
/// bare file names Swift Testing's console prints (`T.swift`, `Module/T.swift`) are found in the
/// repository when exactly one file fits.
package final class SourcePlaces {
    let root: String
    private var byName: [String: [String]]?

    /// Places from `root` (a repository's working folder, or the folder a CI job runs in).
    package init(root: String) {
        self.root = root
    }

    /// `run`'s failures with their files from the root, where a file with that path or tail is here:
    /// what GitHub needs to place an annotation.
    package func placed(_ run: TestRun) -> TestRun {
        var placed = run
        placed.results = run.results.map { $0.passed && !$0.isFlaky ? $0 : $0.placingFailures(relativePath) }
        placed.buildErrors = run.buildErrors?.map { error in
            TestFailure(message: error.message, location: error.location.map { SourceLocation(file: relativePath($0.file), line: $0.line, column: $0.column) })
        }
        return placed
    }

    /// `path:line:col` (or `path:line` without a column), the path from the repository root where it can be.
    func describe(_ location: SourceLocation) -> String {
        let path = relativePath(location.file)
        return location.column > 0 ? "\(path):\(location.line):\(location.column)" : "\(path):\(location.line)"
    }

    func relativePath(_ file: String) -> String {
        guard !root.isEmpty else { return file }
        if file.hasPrefix(root + "/") { return String(file.dropFirst(root.count + 1)) }
        if file.hasPrefix("/") { return foreignPath(file) ?? file }
        if FileManager.default.fileExists(atPath: FilePath.join(root, file)) { return file }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let candidates = (index()[name] ?? []).filter { $0.hasSuffix("/" + file) || $0 == file }
        return candidates.count == 1 ? candidates[0] : file
    }

    /// An absolute path from another machine (a log of a macOS runner read on Linux:
    /// `/Users/runner/work/app/app/Tests/A.swift`, a DerivedData path) as the longest tail of it
    /// that is a file here; nil when none is.
    func foreignPath(_ file: String) -> String? {
        let parts = file.split(separator: "/")
        for start in parts.indices.dropFirst() {
            let tail = parts[start...].joined(separator: "/")
            let path = FilePath.join(root, tail)
            if FileManager.default.fileExists(atPath: path), !FileSystem.isDirectory(path) {
                return tail
            }
        }
        return nil
    }

    /// Swift files of the repository by name, skipping build output and hidden folders.
    private func index() -> [String: [String]] {
        if let byName { return byName }
        var found: [String: [String]] = [:]
        for relative in SourceTree.files(under: root, where: { $0.hasSuffix(".swift") }) {
            found[relative.split(separator: "/").last.map(String.init) ?? relative, default: []].append(relative)
        }
        byName = found
        return found
    }
}
