import PrePushCore

extension TeamCommands {
    /// The schemes a team's own Swift tool runs, read from its sources (never built or run):
    /// Element X's CI runs `swift run -q tools ci unit-tests`, whose `Tools/Sources/Commands/CI/`
    /// files run `xcodebuild test` with `"--scheme", "UnitTests"` and `static let scheme =
    /// "PreviewTests"`. A string literal counts as a scheme where the word "scheme" comes just before
    /// it on its line, as a script's `$1` does (`passesAsScheme`). Each tool is read once.
    package struct SwiftTools {
        let root: String
        /// By package folder and executable name: the schemes its sources name, with where, and the
        /// subcommands that reach them (empty: not known, any run of the tool may).
        private var read: [String: [(scheme: String, place: String, commands: Set<String>)]] = [:]

        package init(root: String) { self.root = root }

        /// The schemes the executable a `swift run` command runs names, each with the file and line
        /// that names it; empty for any other command or an executable the repository does not
        /// declare. A scheme named in a subcommand's file (`commandName: "unit-tests"`, or a command
        /// that one runs: `PreviewTests.parse([]).run()`) comes only with a command that names it.
        package mutating func schemes(runBy command: String) -> [(scheme: String, place: String)] {
            guard let (package, executable, words) = Self.executable(runBy: command) else { return [] }
            let key = package + "\n" + executable
            let schemes = read[key] ?? readTool(package: package, executable: executable)
            read[key] = schemes
            return schemes.filter { $0.commands.isEmpty || !$0.commands.isDisjoint(with: words) }.map { ($0.scheme, $0.place) }
        }

        /// The package folder (`--package-path`, else the root) and the executable of `swift run
        /// [options] NAME …`; options that take a value (`-c release`) skip it.
        static func executable(runBy command: String) -> (package: String, executable: String, arguments: Set<String>)? {
            let words = ShellWords.tokens(command).prefix { !$0.isOperator }.map(\.value)
            guard let start = words.firstIndex(of: "swift"), words.dropFirst(start + 1).first == "run" else { return nil }
            let valued: Set<String> = ["-c", "--configuration", "--package-path", "--scratch-path", "--build-path", "--cache-path",
                                       "-Xswiftc", "-Xcc", "-Xlinker", "-Xcxx", "--triple", "--sdk", "--swift-sdk", "--jobs", "-j"]
            var package = "."
            var index = start + 2
            while index < words.count, words[index].hasPrefix("-") {
                if words[index] == "--package-path", index + 1 < words.count { package = words[index + 1] }
                index += valued.contains(words[index]) ? 2 : 1
            }
            guard index < words.count, !words[index].isEmpty, !words[index].contains("$"), !words[index].contains("/") else { return nil }
            return (package, words[index], Set(words[(index + 1)...]))
        }

        /// Reads the executable's folder, found in the package's manifest, never outside the repository.
        private func readTool(package: String, executable: String) -> [(scheme: String, place: String, commands: Set<String>)] {
            guard !package.contains("$"), case .success(let folder) = RepositoryPath.inside(package, root: root),
                  case let manifest = TeamCommands.text(of: FilePath.join(folder, "Package.swift")), !manifest.isEmpty,
                  let sources = PackageManifest(text: manifest).executableFolders[executable],
                  case .success(let sourceFolder) = RepositoryPath.inside(FilePath.join(package, sources), root: root) else { return [] }
            let prefix = FilePath.normalize(FilePath.join(package, sources))
            // A tool is tens of files; a pull request's thousands are not read.
            let files = SourceTree.files(under: sourceFolder, where: { $0.hasSuffix(".swift") }).prefix(400).map { file in
                (name: file, lines: TeamCommands.text(of: FilePath.join(sourceFolder, file)).split(separator: "\n", omittingEmptySubsequences: false))
            }
            let reaching = Self.subcommands(reaching: files.map(\.lines))
            var found: [(scheme: String, place: String, commands: Set<String>)] = []
            for (offset, file) in files.enumerated() {
                for (number, line) in file.lines.enumerated() where !line.drop(while: { $0 == " " || $0 == "\t" }).hasPrefix("//") {
                    for scheme in Self.schemeLiterals(in: line) where !found.contains(where: { $0.scheme == scheme }) {
                        found.append((scheme, "\(FilePath.join(prefix, file.name)):\(number + 1)", reaching[offset]))
                    }
                }
            }
            return found
        }

        /// For each file, the subcommand names that run what it declares: its own `commandName:`,
        /// and those of the files that run one of its types (`PreviewTests.parse(…)`, `.main(`),
        /// followed until nothing is added. A list of subcommands (`[UnitTests.self, …]`) runs none.
        static func subcommands(reaching files: [[Substring]]) -> [Set<String>] {
            var names = files.map { lines in
                Set(lines.compactMap { line -> String? in
                    guard let range = line.firstRange(of: "commandName:") else { return nil }
                    let rest = line[range.upperBound...].drop { $0 == " " }
                    guard rest.first == "\"" else { return nil }
                    return String(rest.dropFirst().prefix { $0 != "\"" })
                })
            }
            let types = files.map { lines in
                Set(lines.compactMap { line -> String? in
                    let words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") })
                    guard let index = words.firstIndex(where: { $0 == "struct" || $0 == "class" || $0 == "enum" }), index + 1 < words.count else { return nil }
                    return String(words[index + 1])
                })
            }
            // The types each file runs, read once: the name before `.parse(`, `.main(` or `()`.
            let runs = files.map { lines in
                Set(lines.flatMap { line -> [String] in
                    [".parse(", ".main(", "()"].flatMap { marker -> [String] in
                        line.ranges(of: marker).compactMap { range in
                            let name = line[..<range.lowerBound].reversed().prefix { $0.isLetter || $0.isNumber || $0 == "_" }
                            return name.isEmpty ? nil : String(name.reversed())
                        }
                    }
                })
            }
            // Followed until nothing is added; a tool is tens of files, and the rounds are bounded.
            for _ in 0..<16 {
                var grew = false
                for (callee, declared) in types.enumerated() where !declared.isEmpty {
                    for caller in files.indices where caller != callee && !runs[caller].isDisjoint(with: declared) && !names[caller].isSubset(of: names[callee]) {
                        names[callee].formUnion(names[caller])
                        grew = true
                    }
                }
                if !grew { break }
            }
            return names
        }

        /// The one-piece string literals of a Swift line that come a few characters after the word
        /// "scheme" (`"--scheme", "UnitTests"`, `let scheme = "PreviewTests"`); not one built by
        /// interpolation (`"\(name)Tests"`).
        static func schemeLiterals(in line: Substring) -> [String] {
            var found: [String] = []
            var rest = line[...]
            while let open = rest.firstIndex(of: "\"") {
                let body = rest[rest.index(after: open)...]
                guard let close = body.firstIndex(of: "\"") else { break }
                let text = body[..<close]
                let before = line[..<open].suffix(12).lowercased()
                // The literal `"--scheme"` itself holds the word: the value is the next literal.
                if !text.isEmpty, !text.contains("\\"), !text.lowercased().contains("scheme"), before.contains("scheme") {
                    found.append(String(text))
                }
                rest = body[body.index(after: close)...]
            }
            return found
        }
    }
}
