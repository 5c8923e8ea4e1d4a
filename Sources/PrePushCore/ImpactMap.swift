#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which code each test executed, recorded once with coverage (`prepush impact record`), one test
/// per process: what `selective: tests` reads to run only the tests a push can reach.
///
/// A test the map does not know, or knows only as `unknown`, always runs: the map narrows a run,
/// it never excuses a test.
public struct ImpactMap: Sendable, Equatable, Codable {
    /// One function the profile's function records name, where its body is.
    public struct Function: Sendable, Hashable, Codable {
        /// Repository-relative path of the file that defines it.
        public var file: String
        /// The profile's (demangled where possible) name; for reading, not for matching.
        public var name: String
        /// First and last line of its body, 1-based and inclusive.
        public var startLine: Int
        public var endLine: Int

        /// Creates a function record.
        public init(file: String, name: String, startLine: Int, endLine: Int) {
            self.file = file
            self.name = name
            self.startLine = startLine
            self.endLine = endLine
        }

        /// Whether a change to lines `first...last` of `path` touches this function's body.
        public func touches(_ path: String, _ first: Int, _ last: Int) -> Bool {
            path == file && first <= endLine && last >= startLine
        }
    }

    /// One test as recorded.
    public struct Test: Sendable, Equatable, Codable {
        /// The test's identity as the run history and the results name it (`TestResult.testIdentifier`,
        /// module included: `ParserTests.SplitTests.testEmpty()`).
        public var identifier: String
        /// How `swift test list` names it (`ParserTests.SplitTests/testEmpty`); the selector builds an
        /// exact `--filter` from it. Nil when the runner cannot run it alone.
        public var listed: String?
        /// Repository-relative file that defines the test, when known: a change to it runs the test.
        public var file: String?
        /// Indices into `functions` of every function the test executed (count > 0).
        public var functions: [Int]
        /// Why the test is not mapped (it failed, crashed or timed out while recording, or wrote no
        /// profile); such a test always runs. Nil for a mapped test.
        public var unknown: String?

        /// Creates a test record.
        public init(identifier: String, listed: String?, file: String?, functions: [Int], unknown: String? = nil) {
            self.identifier = identifier
            self.listed = listed
            self.file = file
            self.functions = functions
            self.unknown = unknown
        }
    }

    /// The format's version; a map of another version is not read (it is recorded again).
    public static let formatVersion = 1

    public var version: Int
    /// The stage it was recorded for (`unit`).
    public var stage: String
    /// Repository-relative folder of the package (`""` for the root).
    public var packageFolder: String
    /// The commit whose tree was recorded (full object id).
    public var commit: String
    /// `swift --version`'s first line where it was recorded: a map from another toolchain is used but said.
    public var toolchain: String
    /// When it was recorded, seconds since 1970, and how long recording took.
    public var recorded: Double
    public var seconds: Double
    public var functions: [Function]
    public var tests: [Test]

    /// Creates a map.
    public init(stage: String, packageFolder: String, commit: String, toolchain: String, recorded: Double, seconds: Double,
                functions: [Function], tests: [Test]) {
        self.version = Self.formatVersion
        self.stage = stage
        self.packageFolder = packageFolder
        self.commit = commit
        self.toolchain = toolchain
        self.recorded = recorded
        self.seconds = seconds
        self.functions = functions
        self.tests = tests
    }

    /// The identifiers of the tests that executed a function of `file` (repository-relative) or are
    /// defined in it, sorted; `prepush impact show` prints them.
    public func tests(covering file: String) -> [String] {
        let inFile = Set(functions.indices.filter { functions[$0].file == file })
        return tests.filter { test in test.file == file || test.functions.contains(where: inFile.contains) }
            .map(\.identifier).sorted()
    }

    /// The map as `prepush impact export` writes it (JSON, sorted keys: the same map gives the same bytes).
    public func exported() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    /// Reads a map `exported()` wrote; a problem says what (bad JSON, another format version).
    public static func imported(_ bytes: [UInt8]) -> Result<ImpactMap, ImpactMapProblem> {
        let map: ImpactMap
        if let read = ImpactMapReader.read(bytes) {
            // A push reads the map in the hook's time: the byte reader, with JSONDecoder for what it does not expect.
            map = read
        } else {
            do {
                map = try JSONDecoder().decode(ImpactMap.self, from: Data(bytes))
            } catch {
                return .failure(ImpactMapProblem(description: "not an impact map prepush wrote: \(error)"))
            }
        }
        guard map.version == formatVersion else {
            return .failure(ImpactMapProblem(description: "an impact map of format \(map.version); this prepush reads format \(formatVersion): record it again"))
        }
        // Indices come from a file anyone could have written: one out of range would crash a push.
        for test in map.tests where test.functions.contains(where: { $0 < 0 || $0 >= map.functions.count }) {
            return .failure(ImpactMapProblem(description: "test \(test.identifier) names a function the map does not hold"))
        }
        return .success(map)
    }
}

/// Why an impact map cannot be read.
public struct ImpactMapProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String

    /// Creates a problem.
    public init(description: String) {
        self.description = description
    }
}
