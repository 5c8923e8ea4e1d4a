import PrePushCore

extension TeamCommands {
    /// A scheme the team's CI hands to one of the repository's scripts as an argument, which the
    /// script passes on as a scheme: Simplenote's Buildkite step `.buildkite/commands/build-and-ui-test.sh
    /// SimplenoteUITests 'iPhone SE (3rd generation)'`, whose script runs `fastlane
    /// pick_test_account_and_run_ui_tests scheme:"$1" …`.
    package struct ScriptScheme: Sendable, Equatable {
        /// The scheme.
        package let scheme: String
        /// The CI's command, as written.
        package let command: String
        /// `.buildkite/pipeline.yml:56`.
        package let place: String
        /// Where the team's Swift tool names the scheme (`Tools/Sources/Commands/CI/UnitTests.swift:27`),
        /// when the CI runs one (`swift run tools ci unit-tests`) rather than a script.
        package var tool: String? = nil
    }

    /// CI files whose lines run commands.
    static let ciPlaces = [".github/workflows", ".buildkite", ".circleci/config.yml", "ci_scripts", "bitrise.yml", ".gitlab-ci.yml", ".gitlab", "Makefile"]

    /// Every scheme the team's CI files pass to a script of the repository that takes it as a scheme,
    /// or that a Swift tool of the repository the CI runs (`swift run tools ci unit-tests`) names as
    /// one (each scheme once for the tools, at the first CI line that runs its tool).
    package static func schemesPassedToScripts(root: String) -> [ScriptScheme] {
        var found: [ScriptScheme] = []
        var swiftTools = SwiftTools(root: root)
        for file in TeamCommands.placeFiles(root: root, in: ciPlaces, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") || $0.hasSuffix(".sh") }) {
            for (number, line) in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard let command = commandText(line) else { continue }
                for scheme in schemesPassed(by: command, root: root) {
                    found.append(ScriptScheme(scheme: scheme, command: command, place: "\(file):\(number + 1)"))
                }
                for (scheme, tool) in swiftTools.schemes(runBy: command) where !found.contains(where: { $0.scheme == scheme && $0.tool != nil }) {
                    found.append(ScriptScheme(scheme: scheme, command: command, place: "\(file):\(number + 1)", tool: tool))
                }
            }
        }
        return found
    }

    /// The repository's scripts that a CI line runs (`run: ci/run-apple-tests.sh`, `bash ./tools/test.sh`)
    /// and that sit outside the places init reads anyway, relative to the root, each once: their
    /// lines are the CI's own (Passepartout's workflow runs `ci/run-apple-tests.sh`, whose one line
    /// is `cd app-apple && FOR_TESTING=1 swift test`).
    package static func scriptsRunByCI(root: String) -> [String] {
        var found: [String] = []
        let read = Set(placeFiles(root: root))
        for file in placeFiles(root: root, in: ciPlaces, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") || $0.hasSuffix(".sh") }) {
            for line in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false) {
                guard let command = commandText(line), let script = scriptWords(command).first, repositoryFile(script, root: root) != nil else { continue }
                let relative = script.hasPrefix("./") ? String(script.dropFirst(2)) : script
                if !read.contains(relative), !found.contains(relative) { found.append(relative) }
            }
        }
        return found
    }

    /// The command a CI line runs: without a YAML key (`command:`, `run:`, `script:`), a list's dash,
    /// and the quotes of a one-line YAML scalar; nil for a comment or an empty line.
    static func commandText(_ line: Substring) -> String? {
        var text = line.drop { $0 == " " || $0 == "\t" || $0 == "-" }
        for key in ["command:", "commands:", "run:", "script:"] where text.hasPrefix(key) {
            text = text.dropFirst(key.count).drop { $0 == " " || $0 == "-" }
        }
        if let quote = text.first, quote == "\"" || quote == "'", text.count >= 2, text.last == quote {
            text = text.dropFirst().dropLast()
        }
        guard !text.isEmpty, !text.hasPrefix("#") else { return nil }
        return String(text)
    }

    /// The words of a command's first simple command, without the shell it is handed to
    /// (`bash ci/test.sh App` → `ci/test.sh`, `App`).
    static func scriptWords(_ command: String) -> [String] {
        var words = ShellWords.tokens(command).prefix { !$0.isOperator }.map(\.value)
        if let shell = words.first, ["bash", "sh", "zsh"].contains(shell) { words.removeFirst() }
        return words
    }

    /// The literal arguments of `command` that the repository script it runs passes on as a scheme.
    static func schemesPassed(by command: String, root: String) -> [String] {
        let words = scriptWords(command)
        guard let script = words.first, let path = repositoryFile(script, root: root) else { return [] }
        let text = text(of: path)
        guard !text.isEmpty else { return [] }
        return words.dropFirst().enumerated().compactMap { offset, word in
            guard !word.isEmpty, !word.contains("$"), !word.hasPrefix("-"), passesAsScheme(argument: offset + 1, in: text) else { return nil }
            return word
        }
    }

    /// The absolute path of `word` when it names an existing regular file of the repository by a
    /// relative path (`./scripts/ui.sh`, `.buildkite/commands/x.sh`), never outside the root
    /// (`RepositoryPath.fileInside`: no `..`, no link that leads out).
    static func repositoryFile(_ word: String, root: String) -> String? {
        let relative = word.hasPrefix("./") ? String(word.dropFirst(2)) : word
        guard relative.contains("/") || relative.hasSuffix(".sh"), !relative.hasPrefix("/"), !relative.hasPrefix("~"),
              case .success(let path) = RepositoryPath.fileInside(relative, root: root), FileSystem.stamp(of: path) != nil else { return nil }
        return path
    }

    /// Whether a script hands its argument `number` on as a scheme: `$1` (`"$1"`, `${1}`) within a
    /// few characters after the word "scheme" on its line (`scheme:"$1"`, `-scheme "$1"`, `SCHEME=$1`).
    static func passesAsScheme(argument number: Int, in script: String) -> Bool {
        for line in script.split(separator: "\n") where !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("#") {
            for reference in ["$\(number)", "${\(number)}"] {
                var rest = line[...]
                while let range = rest.firstRange(of: reference) {
                    let after = rest[range.upperBound...].first
                    let before = line[..<range.lowerBound].suffix(12).lowercased()
                    if !(after?.isNumber ?? false), before.contains("scheme") { return true }
                    rest = rest[range.upperBound...]
                }
            }
        }
        return false
    }
}
