#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// One function of `xcrun xccov view --report --json`: its file, its (demangled) name, the line it
/// starts on, how many executable lines it has, and how often the run executed it. xccov gives no
/// end line; `XccovReport.placed` says which lines are certainly its.
struct XccovFunction: Sendable, Equatable {
    /// The file as the compiler saw it (absolute).
    let file: String
    /// xccov's name: `Module.Type.method(label:) -> ()`, `closure #1 (…) -> … in Module.Type.method…`.
    let name: String
    /// The first line of the function, 1-based.
    let lineNumber: Int
    /// How many of its lines hold code (xccov's `executableLines`), at least 0.
    let executableLines: Int
    /// How many times the run executed it.
    let executionCount: Int
}

/// Reads `xcrun xccov view --report --json <bundle>` (targets → files → functions), the coverage of
/// an `xcodebuild` stage's result bundle, into the functions an impact map records.
enum XccovReport {
    private struct Report: Decodable {
        let targets: [Target]
    }

    private struct Target: Decodable {
        /// A framework without sources (CocoaPods' umbrella frameworks) lists no files.
        let files: [File]?
    }

    private struct File: Decodable {
        let path: String
        let functions: [Function]?
    }

    private struct Function: Decodable {
        let name: String
        let lineNumber: Int
        let executableLines: Int
        let executionCount: Int
    }

    /// Every function of the report, in its order. `source` names the report in a problem
    /// (`<bundle>: targets[1].files[3].functions[0].lineNumber: expected a number, found a string`).
    static func parse(_ bytes: [UInt8], source: String) -> Result<[XccovFunction], ImpactError> {
        let report: Report
        do {
            report = try JSONDecoder().decode(Report.self, from: Data(bytes))
        } catch let error as DecodingError {
            return .failure(.report(path: source, reason: describe(error)))
        } catch {
            return .failure(.report(path: source, reason: "\(error)"))
        }
        var functions: [XccovFunction] = []
        for (targetIndex, target) in report.targets.enumerated() {
            for (fileIndex, file) in (target.files ?? []).enumerated() {
                for (index, function) in (file.functions ?? []).enumerated() {
                    // A line before the first, or a negative count, is a damaged report: placing it would be a guess.
                    guard function.lineNumber >= 1, function.executableLines >= 0, function.executionCount >= 0 else {
                        let place = "targets[\(targetIndex)].files[\(fileIndex)].functions[\(index)]"
                        return .failure(.report(path: source, reason: "\(place) (\(function.name)): expected lineNumber ≥ 1 and counts ≥ 0, found lineNumber \(function.lineNumber), executableLines \(function.executableLines), executionCount \(function.executionCount)"))
                    }
                    functions.append(XccovFunction(file: file.path, name: function.name, lineNumber: function.lineNumber,
                                                   executableLines: function.executableLines, executionCount: function.executionCount))
                }
            }
        }
        return .success(functions)
    }

    /// The names of the functions the run executed (a count above zero): what one test ran, when
    /// the bundle ran one test.
    static func executed(_ functions: [XccovFunction]) -> Set<String> {
        Set(functions.filter { $0.executionCount > 0 }.map(\.name))
    }

    /// Each function with the lines that are certainly its own, as `ExportedFunction`s keyed by name.
    ///
    /// xccov gives where a function starts and how many executable lines it has, not where it ends.
    /// Those lines are distinct lines of its body, so the body reaches at least `lineNumber +
    /// executableLines - 1`; a nested closure or local function (`… in Parent`, same file) lies in
    /// its parent's body, so the parent reaches at least as far as each of them. That is the range
    /// kept: never wider than the body, often narrower.
    ///
    /// Narrower, not wider, because of how a push reads the map (`TestImpact`): a changed line inside
    /// a function's range runs the tests that executed that function; a changed line inside no range
    /// runs every test that executed anything in the file. A range cut short sends a change in the
    /// rest of the body to that second rule, which includes the function's tests: more tests, safe.
    /// A range stretched to the next function's start would also cover what lies between two
    /// functions (a stored property, an enum's raw value, a conformance) and give a change there
    /// only the first function's tests: a false green.
    static func placed(_ functions: [XccovFunction]) -> [ExportedFunction] {
        var ends = functions.map { $0.lineNumber + max($0.executableLines, 1) - 1 }
        // Per file, the functions of each name: a nested one names its parent after each " in ".
        var byName: [String: [String: [Int]]] = [:]
        for (index, function) in functions.enumerated() { byName[function.file, default: [:]][function.name, default: []].append(index) }
        for (index, function) in functions.enumerated() {
            let names = byName[function.file] ?? [:]
            var rest = Substring(function.name)
            while let marker = rest.firstRange(of: " in ") {
                rest = rest[marker.upperBound...]
                // Only a name of this file is a parent; `(extension in Module)` and `(_x in _HASH)` are not.
                for parent in names[String(rest)] ?? [] where parent != index && functions[parent].lineNumber <= function.lineNumber {
                    ends[parent] = max(ends[parent], ends[index])
                }
            }
        }
        return functions.indices.map { index in
            ExportedFunction(key: functions[index].name, file: functions[index].file, startLine: functions[index].lineNumber, endLine: ends[index])
        }
    }

    /// The name of the stand-in for a file the report does not hold.
    static func notInReport(_ file: String) -> String { "(no coverage of \(file) in the report)" }

    /// A stand-in function, over the whole file, for each of `sources` (repository-relative Swift
    /// sources of the package's targets) that has no function in the report: every test is recorded
    /// as executing it, so a change there runs every test.
    ///
    /// xccov reports only the targets the scheme or test plan gathers coverage for. A file it does not
    /// hold is not a file no test reaches: without the stand-in, a change to it would be outside every
    /// recorded function with no test that executed its file, and would choose none.
    static func standIns(sources: [String], report: [XccovFunction], repositoryRoot: String) -> [ExportedFunction] {
        // The compiler may have seen the root with its links resolved (`/private/tmp` for `/tmp` on macOS).
        let resolvedRoot = FileSystem.realPath(repositoryRoot) ?? repositoryRoot
        let reported = Set(report.compactMap {
            ImpactMapBuilder.ownFile($0.file, repositoryRoot: repositoryRoot) ?? ImpactMapBuilder.ownFile($0.file, repositoryRoot: resolvedRoot)
        })
        return sources.filter { !reported.contains($0) }.sorted().map { file in
            ExportedFunction(key: notInReport(file), file: repositoryRoot + "/" + file, startLine: 1, endLine: Int(Int32.max))
        }
    }

    /// A decoding error as a place in the document and what was expected there.
    private static func describe(_ error: DecodingError) -> String {
        func place(_ path: [CodingKey]) -> String {
            let text = path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            let trimmed = text.hasPrefix(".") ? String(text.dropFirst()) : text
            return trimmed.isEmpty ? "the top level" : trimmed
        }
        switch error {
        case .keyNotFound(let key, let context):
            let needed = ["name", "lineNumber", "executableLines", "executionCount"].contains(key.stringValue)
            return "\(place(context.codingPath + [key])): missing" + (needed ? " (every function needs name, lineNumber, executableLines and executionCount)" : "")
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath)): expected \(type == Int.self ? "an integer" : "\(type)"), found something else"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath)): expected \(type), found null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON (\(context.debugDescription))" : "\(place(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
