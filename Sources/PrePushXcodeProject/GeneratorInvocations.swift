#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// How the team generates its project: an XcodeGen or Tuist command in its workflows, Makefile,
/// scripts or Fastfile. Its options say which spec and folder (`xcodegen --spec project-app.yml`,
/// `--project DIR`, `tuist generate --path DIR`), and `tuist test SCHEME` which scheme CI tests.
package struct GeneratorInvocation: Sendable, Equatable {
    /// The generator a command runs.
    package enum Tool: String, Sendable { case xcodegen, tuist }

    /// Which generator it runs.
    package let tool: Tool
    /// `generate` or `test` (XcodeGen's only action is `generate`, written or not).
    package let action: String
    /// XcodeGen's `--spec` (`-s`), relative to the root; nil when the command names none (`project.yml`).
    package let spec: String?
    /// XcodeGen's `--project` (`-p`): the folder the project is written to, relative to the root.
    package let projectFolder: String?
    /// Tuist's `--path` (`-p`): the folder holding the manifests, relative to the root.
    package let path: String?
    /// The scheme `tuist test SCHEME` tests.
    package let scheme: String?
    /// Where it is written: `Scripts-bwa/bootstrap.sh:11`.
    package let place: String
    /// What a stage runs to generate as the team does: the command as written (variables in the
    /// spec's path resolved to the root), or the team's script holding it when the CI runs that
    /// script (it prepares more than the generator: swiftgen, codegen, packages).
    package let run: String
}

extension TeamCommands {
    /// Files and folders generator commands are kept in, besides `places`.
    static let generatorPlaces = ["bootstrap.sh", "setup.sh", "generate.sh", "bin"]

    /// Every XcodeGen and Tuist command of the team's files (`tuist install` and the like are not
    /// generation and are left out).
    package static func generatorInvocations(root: String) -> [GeneratorInvocation] {
        var files: [String] = []
        for place in places + generatorPlaces where !files.contains(place) {
            let absolute = FilePath.join(root, place)
            if FileSystem.isDirectory(absolute) {
                files += SourceTree.files(under: absolute) { _ in true }.map { FilePath.join(place, $0) }.filter { !files.contains($0) }
            } else if FileSystem.stamp(of: absolute) != nil {
                files.append(place)
            }
        }
        // Script folders are named freely (`scripts`, `Scripts`, `Scripts-bwa`): every top-level
        // folder whose name starts with "script" is one.
        // (Only the top level is listed: the tree below is not walked for them.)
        for folder in topFolders(root: root) where folder.lowercased().hasPrefix("script") {
            files += SourceTree.files(under: FilePath.join(root, folder)) { _ in true }.map { FilePath.join(folder, $0) }.filter { !files.contains($0) }
        }
        let workflows = files.filter { $0.hasPrefix(".github/workflows/") || $0.hasPrefix(".circleci/") || $0.hasPrefix("ci_scripts/") }
        let workflowText = workflows.map { text(of: FilePath.join(root, $0)) }.joined(separator: "\n")
        var found: [GeneratorInvocation] = []
        for file in files {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains("xcodegen") || line.contains("tuist") {
                guard !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#"),
                      var invocation = generatorInvocation(String(line), place: "\(file):\(number + 1)") else { continue }
                // A script the CI runs (`./Scripts-bwa/bootstrap.sh`) is what prepares a checkout there.
                let isScript = !workflows.contains(file) && file != "Makefile" && !file.hasPrefix("fastlane/") && file != "Fastfile"
                var run: String?
                if isScript, workflowText.contains(file) { run = "./" + file }
                // A Makefile target that makes sources before it generates (Immuni's `swiftgen`, then
                // `xcodegen generate`): the project does not build without them.
                if isMakefile(file) {
                    let before = sourceGenerators(above: number, in: lines.map(String.init))
                    if !before.isEmpty { run = (before + [invocation.run]).joined(separator: " && ") }
                }
                if let run {
                    invocation = GeneratorInvocation(tool: invocation.tool, action: invocation.action, spec: invocation.spec,
                                                     projectFolder: invocation.projectFolder, path: invocation.path, scheme: invocation.scheme,
                                                     place: invocation.place, run: run)
                }
                found.append(invocation)
            }
        }
        return found
    }

    /// Tools that write sources a project compiles, from their own config (`swiftgen.yml`, `.sourcery.yml`).
    package static let sourceGeneratorTools: Set<String> = ["swiftgen", "sourcery"]

    /// The source generators (`swiftgen`, `mint run sourcery`) a Makefile recipe runs on its own
    /// lines before line `index` (0-based), in the same target, as written.
    static func sourceGenerators(above index: Int, in lines: [String]) -> [String] {
        var found: [String] = []
        for line in lines[..<index].reversed() {
            guard line.first == "\t" else { break }
            let command = line.drop { $0 == "\t" || $0 == " " || $0 == "@" || $0 == "-" }
            let words = command.split(separator: " ")
            let tool = words.first == "mint" && words.dropFirst().first == "run" ? words.dropFirst(2).first : words.first
            // A bare command only: `swiftgen config run --config x.yml` too, but nothing chained or redirected.
            guard let tool, sourceGeneratorTools.contains(String(tool)),
                  !command.contains(where: { ";&|<>$`".contains($0) }) else { continue }
            found.insert(String(command).trimmingSuffixBlanks(), at: 0)
        }
        return found
    }

    /// A file's text, or "" when it cannot be read (a team file init does not need) or is binary.
    /// A binary file (git's rule: a NUL byte in its first 8,000 bytes) holds no command; the team's
    /// folders hold them (ugglan keeps 35 snapshot PNGs, 2.8 MB, in `ci_scripts`), and decoding one
    /// and searching it by `Character` took half of `init`'s CPU there.
    /// Line ends are `\n` in what it returns: Swift takes `\r\n` for one `Character`, so a file saved
    /// with CRLF line ends would otherwise be one line to every `split(separator: "\n")` that reads it.
    static func text(of path: String) -> String {
        guard case .success(var bytes) = FileReading.read(path, limit: 1_000_000), !isBinary(bytes) else { return "" }
        if bytes.contains(13) { bytes.removeAll { $0 == 13 } }
        let text = String(decoding: bytes, as: UTF8.self)
        // A Makefile's commands name its variables (`--spec "${PROJECT_YAML_FILE}"`): read as make runs them.
        return isMakefile(path) ? MakeVariables.expanded(text) : text
    }

    /// Whether `path` is a Makefile by its name (`Makefile`, `GNUmakefile`, `tests.mk`).
    static func isMakefile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return ["Makefile", "makefile", "GNUmakefile"].contains(name) || name.hasSuffix(".mk")
    }

    /// Whether `bytes` are binary by git's rule: a NUL byte in the first 8,000.
    static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.prefix(8000).contains(0)
    }

    /// One line's generator command, or nil when it runs none. The words from the start of its
    /// command (`mint run xcodegen …`, `mise exec -- tuist …`) are what a stage runs.
    package static func generatorInvocation(_ line: String, place: String) -> GeneratorInvocation? {
        // A workflow step's `- run: xcodegen` is the command after the key.
        var line = Substring(line).drop { $0 == " " || $0 == "\t" || $0 == "-" }
        if line.hasPrefix("run:") { line = line.dropFirst(4) }
        let text = String(line)
        let tokens = ShellWords.tokens(text)
        guard let index = tokens.firstIndex(where: { !$0.isOperator && ["xcodegen", "tuist"].contains($0.value.split(separator: "/").last.map(String.init) ?? "") }),
              let tool = GeneratorInvocation.Tool(rawValue: String(tokens[index].value.split(separator: "/").last ?? "")) else { return nil }
        let start = tokens[..<index].lastIndex(where: \.isOperator).map { $0 + 1 } ?? tokens.startIndex
        let end = tokens[index...].firstIndex(where: \.isOperator) ?? tokens.endIndex
        let words = tokens[(index + 1)..<end].map(\.value)
        // `brew install xcodegen`, `which tuist`, `echo "run xcodegen"`: the tool named, not run.
        let before = Set(tokens[start..<index].map(\.value))
        // A YAML key (`- name: Generate with xcodegen`) or a comment names the tool without running it.
        guard before.isDisjoint(with: ["install", "upgrade", "uninstall", "which", "command", "type", "echo", "printf", "brew"]),
              !before.contains(where: { $0.hasSuffix(":") || $0.hasPrefix("#") }),
              !words.contains("--version"), !words.contains("--help") else { return nil }
        let first = words.first { !$0.hasPrefix("-") }
        let action: String
        switch tool {
        case .xcodegen:
            // `xcodegen dump`, `xcodegen cache`: not generation. The first bare word of `xcodegen --spec F` is F.
            if let first = words.first, !first.hasPrefix("-"), first != "generate" { return nil }
            action = "generate"
        case .tuist:
            guard let first, ["generate", "test"].contains(first) else { return nil }
            action = first
        }
        func option(_ names: String...) -> String? {
            guard let at = words.firstIndex(where: names.contains), at + 1 < words.count else { return nil }
            return rootRelative(words[at + 1])
        }
        let spec = tool == .xcodegen ? option("--spec", "-s") : nil
        let projectFolder = tool == .xcodegen ? option("--project", "-p") : nil
        let path = tool == .tuist ? option("--path", "-p") : nil
        // `tuist test Scheme`: the first word after the action that is no option's value.
        var scheme: String?
        if tool == .tuist, action == "test", let at = words.firstIndex(of: "test") {
            let valued: Set<String> = ["--path", "-p", "--device", "--os", "--configuration", "-C", "--platform", "--result-bundle-path", "--test-plan"]
            var index = at + 1
            while index < words.count {
                if !words[index].hasPrefix("-") { scheme = words[index]; break }
                index += valued.contains(words[index]) ? 2 : 1
            }
        }
        var written = tokens[start..<end].map { String(text[$0.range]) }
        if let spec, let at = tokens[start..<end].firstIndex(where: { ["--spec", "-s"].contains($0.value) }), at + 1 < end {
            written[at + 1 - start] = ShellQuoting.word(spec)
        }
        if let projectFolder, let at = tokens[start..<end].firstIndex(where: { ["--project", "-p"].contains($0.value) }), at + 1 < end, tool == .xcodegen {
            written[at + 1 - start] = ShellQuoting.word(projectFolder)
        }
        if tool == .tuist, action == "test" {
            // A stage runs xcodebuild itself: it generates, as `tuist test` does first.
            written = Array(written.prefix(index - start + 1)) + ["generate", "--no-open"] + (path.map { ["--path", ShellQuoting.word($0)] } ?? [])
        } else if tool == .tuist, !words.contains("--no-open") {
            written.append("--no-open")
        }
        return GeneratorInvocation(tool: tool, action: action, spec: spec, projectFolder: projectFolder, path: path, scheme: scheme,
                                   place: place, run: written.joined(separator: " "))
    }

    /// A path a script writes from its root variable (`"$repo_root/project-bwa.yml"`,
    /// `$(pwd)/App`, `${PWD}/App`) as one relative to the root; `.` for the root itself. A path
    /// built from other variables keeps them: it is no file init can read.
    static func rootRelative(_ value: String) -> String {
        var text = Substring(value)
        for prefix in ["$(pwd)", "${PWD}", "$PWD", "$repo_root", "${repo_root}", "$ROOT_DIR", "${ROOT_DIR}", "$SRCROOT", "${SRCROOT}", "$REPO_ROOT", "${REPO_ROOT}"]
        where text.hasPrefix(prefix) {
            text = text.dropFirst(prefix.count)
            break
        }
        text = text.drop { $0 == "/" }
        while text.hasPrefix("./") { text = text.dropFirst(2) }
        while text.count > 1, text.hasSuffix("/") { text = text.dropLast() }
        return text.isEmpty ? "." : String(text)
    }
}
