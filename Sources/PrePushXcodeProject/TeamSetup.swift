#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

extension TeamCommands {
    /// A file the team's CI copies from a committed one before it builds, to a place the repository
    /// does not commit (The Blue Alliance's `cp mock-Secrets.plist the-blue-alliance-ios/Secrets.plist`):
    /// a clone cannot build without it.
    package struct SetupCopy: Sendable, Equatable {
        /// The committed file, relative to the root.
        package let from: String
        /// Where the copy goes, relative to the root.
        package let to: String
        /// The CI line (`.github/workflows/pull_request.yml:53`).
        package let place: String

        /// Creates one.
        package init(from: String, to: String, place: String) {
            self.from = from
            self.to = to
            self.place = place
        }
    }

    /// The `cp FROM TO` lines of the team's CI files whose source is a file of the repository and
    /// whose target is missing and named by a `.gitignore` (`ignored`). Both paths literal and
    /// inside the repository (the CI runs them from the root).
    package static func setupCopies(root: String, ignored: (String) -> Bool) -> [SetupCopy] {
        var found: [SetupCopy] = []
        for file in placeFiles(root: root, in: ciPlaces.filter { $0 != "ci_scripts" }, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }) {
            for (number, line) in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).enumerated() where line.contains("cp ") {
                guard let command = commandText(line) else { continue }
                // Each simple command of the line: `cp a b && bundle install`.
                var commands: [[String]] = [[]]
                for token in ShellWords.tokens(command) {
                    if token.isOperator { commands.append([]) } else { commands[commands.count - 1].append(token.value) }
                }
                for words in commands where words.first == "cp" {
                    let paths = words.dropFirst().filter { !$0.hasPrefix("-") }
                    guard paths.count == 2, let from = paths.first, let to = paths.last, [from, to].allSatisfy(isPlainRelativePath),
                          isFile(from, root: root),
                          FileSystem.stamp(of: FilePath.join(root, to)) == nil, ignored(to),
                          !found.contains(where: { $0.to == to }) else { continue }
                    found.append(SetupCopy(from: from, to: to, place: "\(file):\(number + 1)"))
                }
            }
        }
        return found
    }

    /// Whether `path` (relative to `root`) is a regular file inside the repository, links resolved.
    static func isFile(_ path: String, root: String) -> Bool {
        guard case .success(let absolute) = RepositoryPath.fileInside(path, root: root) else { return false }
        return FileSystem.stamp(of: absolute) != nil
    }

    /// Whether a path is literal, relative and stays inside the folder it is relative to.
    static func isPlainRelativePath(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.hasPrefix("~") && !path.contains("$") && !path.contains("*")
            && !path.split(separator: "/").contains("..") && !path.hasSuffix("/")
    }
}

extension XcodeProjectSurvey {
    /// Whether the repository's `.gitignore` files name `path` (relative to the root) as a file:
    /// the root's by its path (`/secrets.yml`, `kDriveTestShared/Env.swift`) or its name alone
    /// (`Secrets.plist`, which git matches in any folder), the one in its folder by its name.
    package func ignoresFile(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        return ignores([path, name], in: ".gitignore") || (!folder.isEmpty && ignores([name], in: FilePath.join(folder, ".gitignore")))
    }

    /// Files the root `.gitignore` names by their path that a clone lacks, beside a committed
    /// example of them (`secrets.yml` and `secrets.yml.example`, `Env.swift` and `Env.sample.swift`,
    /// `Secrets.plist` and `mock-Secrets.plist`): the build may need a filled-in copy first.
    package var exampleFiles: [(file: String, example: String)] {
        guard case .success(let bytes) = FileReading.read(FilePath.join(root, ".gitignore"), limit: 1_000_000) else { return [] }
        var found: [(file: String, example: String)] = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            var path = String(line).trimmingSuffixBlanks()
            if path.hasPrefix("/") { path.removeFirst() }
            // A pattern in its last part (Pocket's `Config/secrets*.xcconfig`): the examples in that
            // folder whose file, missing, it names.
            if let slash = path.lastIndex(of: "/"), path[slash...].contains("*"), !path[..<slash].contains(where: { "*?[]".contains($0) }),
               TeamCommands.isPlainRelativePath(String(path[..<slash]).replacing("*", with: "x")) {
                let folder = String(path[..<slash])
                let pattern = Glob(path)
                // The folder's own files only (not a walk of a build folder the pattern names), and
                // only a folder inside the repository (a link elsewhere is not listed).
                let absolute = FilePath.join(root, folder)
                guard let real = FileSystem.realPath(absolute), let realRoot = FileSystem.realPath(root), real.hasPrefix(realRoot + "/") else { continue }
                for name in ((try? FileManager.default.contentsOfDirectory(atPath: absolute)) ?? []).sorted() {
                    guard let target = Self.exampleTarget(of: name).map({ FilePath.join(folder, $0) }), pattern.matches(target),
                          FileSystem.stamp(of: FilePath.join(root, target)) == nil, !found.contains(where: { $0.file == target }) else { continue }
                    found.append((target, FilePath.join(folder, name)))
                }
                continue
            }
            guard let first = path.first, first != "#", first != "!", !path.contains(where: { "*?[]\\ ".contains($0) }),
                  TeamCommands.isPlainRelativePath(path), FileSystem.stamp(of: FilePath.join(root, path)) == nil else { continue }
            let name = path.split(separator: "/").last.map(String.init) ?? path
            let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
            // The dot may be the folder's only (`.idea/workspace`): no file name with an extension.
            // A dotfile (`.env`) or fastlane's settings are for scripts and lanes, not the build.
            guard let dot = name.lastIndex(of: "."), dot != name.startIndex, !path.hasPrefix("fastlane/") else { continue }
            let (base, suffix) = (name[..<dot], name[dot...])
            let candidates = Self.exampleWords.flatMap { word in ["\(name).\(word)", "\(base).\(word)\(suffix)", "\(word)-\(name)"] } + ["mock-\(name)"]
            if let example = candidates.map({ FilePath.join(folder, $0) }).first(where: { TeamCommands.isFile($0, root: root) }) {
                found.append((path, example))
            }
        }
        return found
    }

    /// The words that mark a committed example of a file.
    static let exampleWords = ["example", "sample", "template", "dist"]

    /// The file an example stands for (`secrets.xcconfig` for `secrets.xcconfig.example`,
    /// `Env.swift` for `Env.sample.swift`, `Secrets.plist` for `mock-Secrets.plist`), or nil.
    static func exampleTarget(of name: String) -> String? {
        for word in exampleWords {
            if name.hasSuffix("." + word), name.count > word.count + 1 { return String(name.dropLast(word.count + 1)) }
            if let range = name.firstRange(of: "." + word + "."), range.lowerBound != name.startIndex {
                return String(name[..<range.lowerBound]) + "." + String(name[range.upperBound...])
            }
            if name.hasPrefix(word + "-"), name.count > word.count + 1 { return String(name.dropFirst(word.count + 1)) }
        }
        return name.hasPrefix("mock-") && name.count > 5 ? String(name.dropFirst(5)) : nil
    }
}

extension TeamCommands {
    /// How a stage bootstraps Carthage's frameworks the repository does not commit, as the team's
    /// files do it (`carthage.sh bootstrap --platform iOS --cache-builds --use-xcframeworks`,
    /// fastlane's `carthage(command: "bootstrap", platform: "iOS", use_xcframeworks: true)`): the
    /// platform and the xcframeworks switch taken from the first such line, with where it is.
    package static func carthageBootstrap(root: String) -> (run: String, place: String?) {
        for file in placeFiles(root: root) {
            for (number, line) in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where line.contains("carthage") && line.contains("bootstrap") && line.drop(while: { $0 == " " || $0 == "\t" }).first != "#" {
                let words = ShellWords.tokens(String(line)).map(\.value)
                var flags: [String] = []
                if let index = words.firstIndex(of: "--platform"), index + 1 < words.count, words[index + 1].allSatisfy({ $0.isLetter || $0 == "," }) {
                    flags.append("--platform " + words[index + 1])
                } else if let platform = quoted(after: "platform:", in: line), platform.allSatisfy({ $0.isLetter || $0 == "," }) {
                    flags.append("--platform " + platform)
                }
                if words.contains("--use-xcframeworks") || line.contains("use_xcframeworks: true") { flags.append("--use-xcframeworks") }
                return ((["carthage bootstrap"] + flags).joined(separator: " "), "\(file):\(number + 1)")
            }
        }
        // Xcode 12 and later link Carthage's frameworks for the simulator only as xcframeworks.
        return ("carthage bootstrap --use-xcframeworks", nil)
    }
}

extension TeamCommands {
    /// Servers the team's CI starts in a file that also runs tests: a command left running in the
    /// background on a local port (Nextcloud Talk's `php -S localhost:8080 -t server/ &`), a
    /// `docker run`/`docker compose up`, or a job's `services:`. The tests that need one fail on a
    /// Mac where it does not run, which a stage's comment says.
    package static func serverStarts(root: String) -> [(command: String, place: String)] {
        var found: [(command: String, place: String)] = []
        for file in placeFiles(root: root, in: ciPlaces.filter { !["ci_scripts", "Makefile"].contains($0) }, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }) {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            guard lines.contains(where: { line in ["xcodebuild test", "test-without-building", "fastlane", "tuist test", "swift test"].contains { line.contains($0) } }) else { continue }
            for (number, line) in lines.enumerated() {
                // The command without its YAML key (`run:`, `script:`), or a job's `services:` key.
                guard let command = commandText(line) else { continue }
                let code = command.trimmingSuffixBlanks()
                let local = ["localhost:", "127.0.0.1:", "0.0.0.0:"].contains { code.contains($0) }
                let background = code.hasSuffix("&") && !code.hasSuffix("&&") && local
                // A `docker run` without `-d` runs a tool to its end (home-assistant's lint image), no server.
                let detached = code.contains(" -d ") || code.hasSuffix(" -d") || code.contains("--detach")
                let container = (code.contains("docker run") && detached) || code.contains("docker compose up") || code.contains("docker-compose up")
                // Firebase's local emulators (`firebase emulators:exec …`, a reusable workflow's
                // `setupfirebaseemulator: true`, StanfordSpezi's): the app's tests talk to them.
                let emulator = code.contains("emulators:start") || code.contains("emulators:exec")
                    || (code.lowercased().contains("emulator") && code.hasSuffix(": true"))
                guard background || container || emulator || code == "services:" else { continue }
                found.append((code, "\(file):\(number + 1)"))
                if found.count == 3 { return found }
            }
        }
        return found
    }
}

extension TeamCommands {
    /// The git submodules (`.gitmodules`' `path = …`) that are not checked out in `root` (an empty or
    /// missing folder, as a clone without `--recursive` leaves them) and that a package manifest at
    /// the root or one folder down builds from (Passepartout's `.package(path: "../partout")`), with
    /// the manifest that names it. A stage fails in such a clone until they are initialized.
    package static func missingSubmodules(root: String) -> [(path: String, usedBy: String)] {
        let paths = text(of: FilePath.join(root, ".gitmodules")).split(separator: "\n").compactMap { line -> String? in
            let code = line.drop { $0 == " " || $0 == "\t" }
            guard code.hasPrefix("path"), let equals = code.firstIndex(of: "=") else { return nil }
            let path = code[code.index(after: equals)...].trimmingCharacters(in: " \t\"")
            return path.isEmpty || path.hasPrefix("/") || path.split(separator: "/").contains("..") ? nil : String(path)
        }
        guard !paths.isEmpty else { return [] }
        let manifests = ["Package.swift"] + topFolders(root: root).map { $0 + "/Package.swift" }.filter { FileSystem.stamp(of: FilePath.join(root, $0)) != nil }
        var found: [(path: String, usedBy: String)] = []
        for path in paths {
            let folder = FilePath.join(root, path)
            let empty = !FileSystem.isDirectory(folder) || ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).isEmpty
            guard empty else { continue }
            // Named as a local package's path from the manifest's folder (`../partout`, `partout/cross`).
            if let manifest = manifests.first(where: { manifest in
                let base = FilePath.parent(manifest) == "." ? "" : FilePath.parent(manifest)
                return text(of: FilePath.join(root, manifest)).components(separatedBy: ".package(path:").dropFirst().contains { call in
                    let quoted = call.drop { $0 == " " || $0 == "\"" }.prefix { $0 != "\"" }
                    let named = FilePath.normalize(FilePath.join(base, String(quoted)))
                    return named == path || named.hasPrefix(path + "/")
                }
            }) {
                found.append((path, manifest))
            }
        }
        return found
    }
}

