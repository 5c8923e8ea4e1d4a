#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushTraceability

/// The map made of what the runs left: each test's executed function names joined by name to the
/// functions `llvm-cov export` places, only those of the repository's own files kept.
enum ImpactMapBuilder {
    /// `header` with its functions and tests filled in. `testFile` gives the repository-relative
    /// file that defines a test (by identifier), when the sources tell.
    static func map(tests: [ListedTest], outcomes: [ImpactRecorder.TestOutcome], functions: [ExportedFunction],
                    repositoryRoot: String, testFile: (String) -> String?, header: ImpactMap) -> ImpactMap {
        // Names are not unique across binaries (a `main` in each tool): a name stands for each function it names.
        var byKey: [String: [ExportedFunction]] = [:]
        // The compiler may have seen the root with its links resolved (`/private/tmp` for `/tmp` on macOS).
        let resolvedRoot = FileSystem.realPath(repositoryRoot) ?? repositoryRoot
        for function in functions {
            guard let file = ownFile(function.file, repositoryRoot: repositoryRoot) ?? ownFile(function.file, repositoryRoot: resolvedRoot) else { continue }
            byKey[function.key, default: []].append(ExportedFunction(key: function.key, file: file, startLine: function.startLine, endLine: function.endLine))
        }
        var map = header
        var index: [ImpactMap.Function: Int] = [:]
        for (test, outcome) in zip(tests, outcomes) {
            var used: Set<Int> = []
            if outcome.unknown == nil {
                for name in outcome.executed {
                    for function in byKey[name] ?? [] {
                        let record = ImpactMap.Function(file: function.file, name: name, startLine: function.startLine, endLine: function.endLine)
                        if let known = index[record] {
                            used.insert(known)
                        } else {
                            index[record] = map.functions.count
                            used.insert(map.functions.count)
                            map.functions.append(record)
                        }
                    }
                }
            }
            map.tests.append(ImpactMap.Test(identifier: test.identifier, listed: test.listed, file: testFile(test.identifier),
                                            functions: used.sorted(), unknown: outcome.unknown))
        }
        return map
    }

    /// `path` relative to the repository when it is one of its own sources; nil for the toolchain's,
    /// a dependency's (`.build/checkouts`), or code SwiftPM generated in the scratch path (inside `.git`).
    static func ownFile(_ path: String, repositoryRoot: String) -> String? {
        let relative = FilePath.relative(FilePath.normalize(path), to: repositoryRoot)
        guard relative != ".", !relative.hasPrefix("/"), !relative.hasPrefix("..") else { return nil }
        let components = relative.split(separator: "/")
        return components.contains(where: { $0 == ".git" || $0 == ".build" || $0 == ".swiftpm" }) ? nil : relative
    }
}

/// Which file defines each test, from the tests found in the sources (swift-syntax, as the
/// history's identities are): a change to that file runs the test.
struct TestFiles {
    private var files: [String: String] = [:]

    init(repositoryRoot: String) {
        let inventory = TraceabilityStep(nil, root: repositoryRoot).testInventory(platform: nil)
        for test in inventory.tests {
            let module = TestSharding.target(ofTestFile: test.location.file)
            let identifier: String
            switch test.framework {
            case .swiftTesting:
                let suite = test.typeName.map { "\(module).\($0.replacing(".", with: "/"))" } ?? module
                identifier = "\(suite).\(test.name)(\(test.parameterLabels.map { "\($0):" }.joined()))"
            case .xctest:
                guard let type = test.typeName else { continue }
                identifier = "\(module).\(type).\(test.name)"
            }
            // Two declarations of one identity (`#if` branches): neither is the one file.
            files[identifier] = files[identifier] == nil ? test.location.file : ""
        }
    }

    /// The repository-relative file that defines the test `identifier`, or nil.
    func file(of identifier: String) -> String? {
        files[identifier].flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// What `swift build --build-tests` leaves in a scratch path's `debug` folder.
enum BuiltProducts {
    /// The package's test bundle (`NamePackageTests.xctest`).
    static func testBundle(in scratchPath: String) -> String? {
        let debug = FilePath.join(scratchPath, "debug")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: debug)) ?? []).filter { $0.hasSuffix("PackageTests.xctest") }.sorted()
        return names.first.map { FilePath.join(debug, $0) }
    }

    /// The binary inside a bundle: the bundle itself on Linux, `Contents/MacOS/Name` on macOS.
    static func binary(ofBundle bundle: String) -> String {
        #if os(macOS)
        let name = String((bundle.split(separator: "/").last ?? "").dropLast(".xctest".count))
        return FilePath.join(bundle, "Contents/MacOS/\(name)")
        #else
        return bundle
        #endif
    }

    /// The package's executables (`math`, `greet`): regular executable files without an extension.
    /// A test that starts one records its coverage under the executable's own binary.
    static func executables(in scratchPath: String) -> [String] {
        let debug = FilePath.join(scratchPath, "debug")
        return ((try? FileManager.default.contentsOfDirectory(atPath: debug)) ?? []).sorted().compactMap { name in
            let path = FilePath.join(debug, name)
            guard !name.contains("."), !FileSystem.isDirectory(path), FileManager.default.isExecutableFile(atPath: path) else { return nil }
            return path
        }
    }
}
