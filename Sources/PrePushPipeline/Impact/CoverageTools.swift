#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushRunner

/// The toolchain's `llvm-profdata` and `llvm-cov`: the ones beside the `swift` that built and ran
/// the tests. The system's may come first on `PATH` and reject the toolchain's profiles (issue 54);
/// on macOS they are what `xcrun --find` names for the selected toolchain.
struct CoverageTools: Sendable {
    /// `llvm-profdata`'s path.
    let profdata: String
    /// `llvm-cov`'s path.
    let cov: String
    /// `swift-demangle` beside them, when there is one: names are shown demangled.
    var demangler: String?

    /// The tools beside `swift` on the stage's `PATH` (symbolic links resolved: `/usr/bin/swift` is
    /// often a link into the toolchain), else, on macOS, through `xcrun --find`.
    static func locate(environment: [String: String]) -> Result<CoverageTools, ImpactError> {
        guard let swift = ProgramLookup.executable(named: "swift", path: environment["PATH"] ?? "") else {
            return .failure(.tools("no swift on the stage's PATH"))
        }
        let folder = FilePath.parent(FileSystem.realPath(swift) ?? swift)
        let beside = (FilePath.join(folder, "llvm-profdata"), FilePath.join(folder, "llvm-cov"))
        if FileManager.default.isExecutableFile(atPath: beside.0), FileManager.default.isExecutableFile(atPath: beside.1) {
            let demangler = FilePath.join(folder, "swift-demangle")
            return .success(CoverageTools(profdata: beside.0, cov: beside.1,
                                          demangler: FileManager.default.isExecutableFile(atPath: demangler) ? demangler : nil))
        }
        #if os(macOS)
        // Xcode's `swift` is a shim in /usr/bin: the selected toolchain's tools are found by xcrun.
        func find(_ tool: String) -> String? {
            let spec = ProcessSpec(executable: "xcrun", arguments: ["--find", tool], environment: environment)
            guard let found = try? CommandOutput.run(spec, timeout: 30), found.succeeded, !found.text.isEmpty else { return nil }
            return found.text
        }
        if let profdata = find("llvm-profdata"), let cov = find("llvm-cov") {
            return .success(CoverageTools(profdata: profdata, cov: cov, demangler: find("swift-demangle")))
        }
        #endif
        return .failure(.tools("no llvm-profdata and llvm-cov beside \(swift) (\(folder))"))
    }

    /// The names of the functions that ran (a count above zero) in any of the raw `profiles`, as
    /// the profile names them (`Function.key`). Nil when the tool could not read one.
    func executedFunctions(in profiles: [String], environment: [String: String]) -> Set<String>? {
        var names: Set<String> = []
        for profile in profiles {
            let spec = ProcessSpec(executable: profdata, arguments: ["show", "--covered", profile], environment: environment)
            guard let shown = try? CommandOutput.run(spec, timeout: 120), shown.succeeded else { return nil }
            for line in shown.standardOutput.split(separator: 10) where !line.isEmpty {
                names.insert(ExportedFunction.key(String(decoding: line, as: UTF8.self)))
            }
        }
        return names
    }

    /// `names` demangled for reading (`add(_:_:)` for `$s4Core3addyS2i_SitF`), one process for all
    /// of them; `names` as they are when there is no demangler or it fails.
    func demangled(_ names: [String], scratch: String, environment: [String: String]) -> [String] {
        guard let demangler, !names.isEmpty else { return names }
        let input = FilePath.join(scratch, "names.txt")
        guard (try? AtomicFile.write(names.joined(separator: "\n") + "\n", to: input)) != nil else { return names }
        let spec = ProcessSpec(executable: demangler, arguments: ["--simplified"], environment: environment, standardInputFile: input)
        guard let shown = try? CommandOutput.run(spec, timeout: 120), shown.succeeded else { return names }
        let lines = shown.standardOutput.split(separator: 10, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        // One line out for each in; anything else is not trusted to line up.
        return lines.count >= names.count && lines[names.count...].allSatisfy(\.isEmpty) ? Array(lines.prefix(names.count)) : names
    }

    /// Every function the binaries' coverage mapping holds, with its file and lines: `llvm-cov
    /// export` of `binaries` (the test bundle first, the package's executables after it) against
    /// the raw `profile` (any one: the mapping, not the counts, says where a function is).
    /// `scratch` holds the indexed profile made for it.
    func functions(binaries: [String], profile: String, scratch: String, environment: [String: String]) -> Result<[ExportedFunction], ImpactError> {
        let indexed = FilePath.join(scratch, "any.profdata")
        let merge = ProcessSpec(executable: profdata, arguments: ["merge", "-sparse", profile, "-o", indexed], environment: environment)
        guard let merged = try? CommandOutput.run(merge, timeout: 300), merged.succeeded else {
            return .failure(.tools("llvm-profdata merge failed on \(profile)"))
        }
        guard let bundle = binaries.first else { return .failure(.tools("no test bundle to read the coverage mapping of")) }
        var arguments = ["export", "-format=text", "-skip-expansions", "-instr-profile", indexed, bundle]
        for object in binaries.dropFirst() { arguments += ["-object", object] }
        let spec = ProcessSpec(executable: cov, arguments: arguments, environment: environment)
        guard let exported = try? CommandOutput.run(spec, timeout: 600), exported.succeeded else {
            return .failure(.tools("llvm-cov export failed for \(bundle)"))
        }
        return ExportedFunction.parse(exported.standardOutput).mapError { .tools("llvm-cov export printed what prepush cannot read: \($0)") }
    }
}

/// One function of `llvm-cov export`'s function records: where its body is.
struct ExportedFunction: Sendable, Equatable {
    /// The profile's name without the file prefix local symbols carry (`Function.key`).
    let key: String
    /// The file that defines it (absolute, as the compiler saw it).
    let file: String
    /// First and last line of its regions in that file, 1-based.
    let startLine: Int
    let endLine: Int

    /// The profile names a function with internal linkage `File.swift:$s…` (`llvm-profdata show`)
    /// where `llvm-cov export` names it `$s…`: the file prefix is dropped from both, so they join.
    /// A C++ name's `::` is not a file prefix.
    static func key(_ name: String) -> String {
        var index = name.startIndex
        while let colon = name[index...].firstIndex(of: ":") {
            let next = name.index(after: colon)
            if next < name.endIndex, name[next] == ":" {
                index = name.index(after: next)
                continue
            }
            let prefix = name[..<colon]
            // A path (`/src/File.swift`) or a file name (`File.swift`) before the colon.
            return prefix.contains("/") || prefix.contains(".") ? String(name[next...]) : name
        }
        return name
    }

    private struct Export: Decodable {
        struct Data: Decodable { let functions: [Function] }
        struct Function: Decodable {
            let name: String
            let filenames: [String]
            /// `[lineStart, columnStart, lineEnd, columnEnd, count, fileID, expandedFileID, kind]`.
            let regions: [[Int]]
        }
        let data: [Data]
    }

    /// Reads `llvm-cov export -format=text`'s JSON.
    static func parse(_ bytes: [UInt8]) -> Result<[ExportedFunction], ImpactError> {
        let export: Export
        do {
            export = try JSONDecoder().decode(Export.self, from: Data(bytes))
        } catch {
            return .failure(.tools("\(error)"))
        }
        var functions: [ExportedFunction] = []
        for data in export.data {
            for function in data.functions {
                guard let file = function.filenames.first else { continue }
                // Regions of file 0 are the body's; others are code expanded from elsewhere (macros).
                let own = function.regions.filter { $0.count >= 6 && $0[5] == 0 }
                guard let start = own.map({ $0[0] }).min(), let end = own.map({ $0[2] }).max() else { continue }
                functions.append(ExportedFunction(key: key(function.name), file: file, startLine: start, endLine: end))
            }
        }
        return .success(functions)
    }
}
