#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// What a team's own CI files say about running its tests: the simulator destination its
/// `xcodebuild` commands name (GitHub workflows, a Makefile, fastlane's Fastfile, Xcode Cloud's
/// `ci_scripts`). A value built from variables (`name=$SIMULATOR`) is not one to copy.
package enum TeamCommands {
    /// Files teams keep their test commands in, relative to the root (folders: every file in them).
    static let places = [".github/workflows", "Makefile", "fastlane/Fastfile", "ci_scripts", "scripts", ".circleci/config.yml", "Fastfile", ".buildkite",
                         ".gitlab-ci.yml", ".gitlab",
                         // A Fastfile that imports its lanes (`import "lanes/testing.rb"`, home-assistant's) keeps them here.
                         "fastlane/lanes"]

    /// The first literal `-destination` value an `xcodebuild` command of the team's files names, and
    /// where (`.github/workflows/ci.yml:36`).
    package static func destination(root: String) -> (value: String, place: String)? {
        for file in placeFiles(root: root) + scriptsRunByCI(root: root) {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            // fastlane's `destination:` is a test's only inside `run_tests(`/`scan(`: a build
            // lane's (`xcodebuild(build: true, destination: …)`) names a simulator only to build for.
            let fastlane = file.hasSuffix("Fastfile") || file.hasPrefix("fastlane/lanes/")
            var depth = 0
            for (number, line) in lines.enumerated() {
                let code = line.drop { $0 == " " || $0 == "\t" }
                let starts = fastlane && ["run_tests", "scan"].contains { code.hasPrefix($0 + "(") || code.hasPrefix($0 + " ") }
                let inTest = !fastlane || starts || depth > 0
                if starts || depth > 0 { depth = max(0, depth + code.count(where: { $0 == "(" }) - code.count(where: { $0 == ")" })) }
                // fastlane's `devices: ["iPhone 17 Pro"]` / `device: "iPhone 15"` name a simulator of a test run.
                let device = fastlane && inTest ? (quoted(after: "devices:", in: line) ?? quoted(after: "device:", in: line)).map { "platform=iOS Simulator,name=\($0)" } : nil
                guard let value = value(after: "-destination", in: line) ?? (inTest ? value(after: "destination:", in: line) : nil) ?? device,
                      !value.contains("$"), !value.contains("#{"), value.contains("platform=") || value.hasPrefix("id="),
                      // `generic/platform=iOS Simulator` builds for any simulator and runs none: no test's destination.
                      !value.hasPrefix("generic/") else { continue }
                return (value, "\(file):\(number + 1)")
            }
        }
        return nil
    }

    /// The files of `places` (default: `TeamCommands.places`) under `root`, relative to it: a place
    /// that is a folder gives every file in it that `keep` accepts, a file itself.
    static func placeFiles(root: String, in places: [String] = places, where keep: (String) -> Bool = { _ in true }) -> [String] {
        places.flatMap { place in
            let absolute = FilePath.join(root, place)
            return FileSystem.isDirectory(absolute) ? SourceTree.files(under: absolute, where: keep).map { FilePath.join(place, $0) } : [place]
        }
    }

    /// The root's top-level folders, sorted, without hidden ones and links (a link may lead out of
    /// the repository).
    static func topFolders(root: String) -> [String] {
        let top = (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []
        return top.sorted().filter { !$0.hasPrefix(".") && !RepositoryPath.isSymbolicLink(FilePath.join(root, $0)) && FileSystem.isDirectory(FilePath.join(root, $0)) }
    }

    /// The files fastlane reads lanes from in `root`: `fastlane/Fastfile`, else `Fastfile`, and the
    /// lane files a Fastfile imports from `fastlane/lanes` (home-assistant's `import "lanes/testing.rb"`).
    static func fastlaneFiles(root: String) -> [String] {
        ["fastlane/Fastfile", "Fastfile"] + SourceTree.files(under: FilePath.join(root, "fastlane/lanes")) { $0.hasSuffix(".rb") }.map { "fastlane/lanes/" + $0 }
    }

    /// The command that starts at line `number` of `lines` (0-based), with the lines it continues
    /// on (`xcodebuild test \`, then `-scheme App \`, …) joined into it, each `\` and the blanks
    /// around the joins dropped. `first` is the line's command when the caller took a YAML key off it.
    static func continued(_ first: String? = nil, from number: Int, in lines: [some StringProtocol]) -> String {
        var command = (first ?? String(lines[number])).trimmingSuffixBlanks()
        var next = number + 1
        while command.hasSuffix("\\"), next < lines.count {
            command = String(command.dropLast()).trimmingSuffixBlanks() + " " + String(lines[next].drop { $0 == " " || $0 == "\t" }).trimmingSuffixBlanks()
            next += 1
        }
        return command
    }

    /// Which of `folders` (nested packages, relative to the root) a line of the team's CI files runs
    /// `swift test` in: the line names the folder (`swift test --package-path X`, `cd X && swift
    /// test`, a container's `-w /workspace/X`), or the workflow step it ends has `working-directory:
    /// X`. A nested package none of them tests is one the team's CI leaves out. The files are read once.
    package static func swiftTestFolders(_ folders: [String], root: String) -> Set<String> {
        var places: [Substring] = []
        for file in placeFiles(root: root) + scriptsRunByCI(root: root) {
            let text = text(of: FilePath.join(root, file))
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            // A workflow's `--package-path ${{ matrix.path }}` names each folder of its matrix.
            let expressions = file.hasPrefix(".github/workflows/") && text.contains("${{") ? WorkflowExpressions(text: text, file: file) : nil
            // fastlane's `spm(command: "test", package_path: "Packages/Kit")` is `swift test` there.
            for (number, first) in lines.enumerated() where first.contains("swift test") || (first.contains("spm(") && first.contains("command: \"test\"")) {
                // A command continued over lines (`swift test --parallel \` then `--package-path …`) is one.
                let line = Substring(continued(from: number, in: lines))
                places.append(line)
                if let expressions, line.contains("${{") { places += expressions.expand(String(line), line: number + 1).texts.map { Substring($0) } }
                // The step's keys sit above its `run:` (a few lines at most); a script's lone `cd X` too.
                if let folder = stepFolder(String(first), above: lines[max(0, number - 6)..<number]), !folder.isEmpty { places.append(Substring(folder)) }
            }
        }
        return Set(folders.filter { folder in places.contains { names(folder, in: $0) } })
    }

    /// Whether `line` names `folder` as a whole path (not `Sources/PushServerKit` for `Sources/PushServer`;
    /// a `/` on either side is a boundary: `/workspace/Sources/PushServer/`).
    static func names(_ folder: String, in line: Substring) -> Bool {
        var rest = line[...]
        while let range = rest.firstRange(of: folder) {
            let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
            let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
            let boundary: (Character?) -> Bool = { $0 == nil || !($0!.isLetter || $0!.isNumber || $0 == "-" || $0 == "_" || $0 == ".") }
            if boundary(after), boundary(before) { return true }
            rest = line[range.upperBound...]
        }
        return false
    }

    /// A command the team's files run for tests, and where it was found.
    package struct Command: Sendable, Equatable {
        /// What to run (`make test`, `bundle exec fastlane tests`, the workflow's line).
        package let text: String
        /// `Makefile:35`.
        package let place: String
        /// The workflow expressions it holds that have no literal value where it runs (`secrets.TOKEN`,
        /// `github.sha`): a command with any is not runnable as written.
        package var needs: [String] = []

        /// Creates one.
        package init(text: String, place: String, needs: [String] = []) {
            self.text = text
            self.place = place
            self.needs = needs
        }
    }

    /// The test commands of the team's files: Makefile targets and fastlane lanes named for tests,
    /// and workflow lines that run `xcodebuild test`, `swift test`, `make …test…` or fastlane.
    package static func testCommands(root: String) -> [Command] {
        var found: [Command] = []
        func lines(_ file: String) -> [Substring] {
            text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
        }
        for (number, line) in lines("Makefile").enumerated() {
            // `test: bootstrap`, `unit-tests:`; not a variable (`TEST := …`) or a pattern rule.
            guard let colon = line.firstIndex(of: ":"), line.first?.isLetter == true else { continue }
            let target = line[..<colon]
            guard isTestName(target), target.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }),
                  line[line.index(after: colon)...].first != "=" else { continue }
            found.append(Command(text: "make \(target)", place: "Makefile:\(number + 1)"))
        }
        let bundler = FileSystem.stamp(of: FilePath.join(root, "Gemfile")) != nil ? "bundle exec " : ""
        for file in fastlaneFiles(root: root) {
            for (number, line) in lines(file).enumerated() {
                let words = line.split(separator: " ")
                guard words.count >= 2, words[0] == "lane", words[1].hasPrefix(":"), isTestName(words[1].dropFirst()) else { continue }
                found.append(Command(text: "\(bundler)fastlane \(words[1].dropFirst())", place: "\(file):\(number + 1)"))
            }
        }
        let workflows = ".github/workflows"
        for file in SourceTree.files(under: FilePath.join(root, workflows), where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") }) {
            let all = lines(FilePath.join(workflows, file))
            let expressions = WorkflowExpressions(text: all.joined(separator: "\n"), file: FilePath.join(workflows, file))
            for (number, line) in all.enumerated() {
                let text = line.drop { $0 == " " || $0 == "-" }
                // A step's `name: fastlane test` titles the step; its `run:` is the command.
                guard !text.hasPrefix("name:") else { continue }
                let command = String(text.hasPrefix("run:") ? text.dropFirst(4).drop { $0 == " " } : text)
                guard !command.isEmpty, command != "|", !command.hasPrefix("#"),
                      command.contains("xcodebuild test") || command.contains("swift test") || command.contains("fastlane ")
                        || (command.contains("make ") && command.contains("test")) else { continue }
                // `${{ matrix.scheme }}` is the workflow's, not the shell's: expanded, or said to need a value.
                // A command continued over lines (`xcodebuild test \`) is one command.
                let (texts, needs) = expressions.expand(continued(command, from: number, in: all), line: number + 1)
                // A fastlane line is a test command when its lane, expanded, is named for tests (not `build`, `release_testflight`).
                let tests = texts.filter { text in !text.contains("fastlane ") || text.contains("xcodebuild test") || text.contains("swift test") || runsTestLane(text) }
                // Offered as it runs there: in the folder a lone `cd X` above it in its step, or the
                // step's `working-directory:`, moves to (`cd SharedLib` then `swift test`).
                let folder = ShellWords.tokens(command).first?.value == "cd" ? "" : stepFolder(command, above: all[max(0, number - 8)..<number])
                found += tests.map { text in Command(text: folder.map { inFolder($0, text) } ?? text, place: "\(workflows)/\(file):\(number + 1)", needs: needs) }
            }
        }
        // A script a CI line runs holds the CI's own commands, at its lines.
        for file in scriptsRunByCI(root: root) {
            let all = lines(file)
            for (number, line) in all.enumerated() {
                let command = String(line.drop { $0 == " " || $0 == "\t" })
                guard !command.hasPrefix("#"), command.contains("xcodebuild test") || command.contains("swift test") || runsTestLane(command) else { continue }
                // A lone `cd partout` above it in the script moves it there.
                let folder = ShellWords.tokens(command).first?.value == "cd" ? "" : stepFolder(command, above: all[..<number])
                guard let folder else { continue }
                let text = continued(command, from: number, in: all)
                found.append(Command(text: inFolder(folder, text), place: "\(file):\(number + 1)"))
            }
        }
        // A lane or target the team declares and a workflow runs is one command, named once: where the
        // CI runs it.
        let run = Set(found.filter { $0.place.hasPrefix(workflows) }.map(\.text))
        var seen = Set<String>()
        return found.filter { (run.contains($0.text) ? $0.place.hasPrefix(workflows) : true) && seen.insert($0.text).inserted }
    }

    /// `text` as run from `folder` (relative to the root, `""` for the root): `cd folder && text`.
    static func inFolder(_ folder: String, _ text: String) -> String {
        folder.isEmpty ? text : "cd \(ShellQuoting.word(folder)) && " + text
    }

    /// Whether a Makefile target or fastlane lane is named for tests: a word of it (split at `_`,
    /// `-`, `:` and lower-to-upper case) starts with "test" (`test`, `tests`, `testing`), or is a kind
    /// of test (`uitest`, `unit_tests`, `runTests`); not `testflight` (a release) nor `latest`.
    package static func isTestName(_ name: Substring) -> Bool {
        var words: [String] = []
        var current = ""
        for character in name {
            if character == "_" || character == "-" || character == ":" || character == "." {
                words.append(current)
                current = ""
                continue
            }
            if character.isUppercase, let last = current.last, last.isLowercase { words.append(current); current = "" }
            current.append(character)
        }
        words.append(current)
        let kinds = ["ui", "unit", "e2e", "integration", "snapshot", "smoke", "run", "spec", "all", "acceptance"]
        return words.map { $0.lowercased() }.contains { word in
            if word.hasPrefix("test") { return !word.hasPrefix("testflight") }
            return ["test", "tests"].contains { suffix in word.hasSuffix(suffix) && kinds.contains(String(word.dropLast(suffix.count))) }
        }
    }

    /// Whether a CI line runs a fastlane lane named for tests (`bundle exec fastlane ios test`), not
    /// a build or release lane (`fastlane build`, `fastlane release_testflight`).
    package static func runsTestLane(_ command: String) -> Bool {
        let words = ShellWords.tokens(command).map(\.value)
        guard let fastlane = words.firstIndex(of: "fastlane") else { return false }
        let lane = words[(fastlane + 1)...].first { !["ios", "mac", "android", "run"].contains($0) && !$0.hasPrefix("-") }
        return lane.map { isTestName(Substring($0)) } ?? false
    }

    /// The schemes fastlane's snapshot takes screenshots with (`scheme("AppScreenshots")`,
    /// `schemes(["A", "B"])` in `fastlane/Snapfile` or `Snapfile`), each with where it is named.
    /// With the Snapfile's `testplan("Screenshots")` (Eurofurence's), each scheme is named with that
    /// plan: only the plan takes screenshots, and the scheme's own tests are the app's.
    package static func snapshotSchemes(root: String) -> [(scheme: String, place: String, plan: String?)] {
        var found: [(scheme: String, place: String, plan: String?)] = []
        for file in ["fastlane/Snapfile", "Snapfile"] {
            var plan: String?
            for (number, line) in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let text = line.drop { $0 == " " || $0 == "\t" }
                guard text.hasPrefix("scheme") || text.hasPrefix("testplan"), !text.hasPrefix("#") else { continue }
                // The quoted names on the line: `scheme("A")`, `scheme "A"`, `schemes(["A", "B"])`.
                // Ruby quotes either way: `scheme('Screenshot Automation')` (Pocket Casts' Snapfile).
                let quote: Character = text.contains("\"") ? "\"" : "'"
                let names = text.split(separator: quote, omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }.filter { !$0.isEmpty }
                if text.hasPrefix("testplan") { plan = names.first; continue }
                found += names.map { ($0, "\(file):\(number + 1)", nil) }
            }
            // The plan applies to the file's schemes, wherever it is set.
            if let plan { found = found.map { $0.place.hasPrefix(file + ":") ? ($0.scheme, $0.place, plan) : $0 } }
        }
        return found
    }

    /// The schemes fastlane tests (`run_tests(scheme: 'Tests-Unit', …)`, `scan(scheme: "App")` in
    /// a Fastfile or the lane files it imports, `scheme("App")` in a Scanfile), each with where:
    /// schemes the team's lanes run for tests, which CI runs through them (`bundle exec fastlane test`).
    package static func fastlaneTestSchemes(root: String) -> [(scheme: String, place: String)] {
        var found: [(scheme: String, place: String)] = []
        for file in fastlaneFiles(root: root) + ["fastlane/Scanfile", "Scanfile"] {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            let scanfile = file.hasSuffix("Scanfile")
            // Each `run_tests(`/`scan(` call, its lines gathered until its parentheses close (a Scanfile is all settings).
            var calls: [[(number: Int, code: Substring)]] = scanfile ? [[]] : []
            var depth = 0
            for (number, line) in lines.enumerated() {
                let code = line.drop { $0 == " " || $0 == "\t" }
                guard !code.hasPrefix("#") else { continue }
                let starts = ["run_tests", "scan"].contains { code.hasPrefix($0 + "(") || code.hasPrefix($0 + " ") }
                if !scanfile, depth == 0, starts { calls.append([]) }
                guard scanfile || starts || depth > 0 else { continue }
                calls[calls.count - 1].append((number, code))
                if !scanfile { depth = max(0, depth + code.count(where: { $0 == "(" }) - code.count(where: { $0 == ")" })) }
            }
            for call in calls {
                // `build_for_testing: true` builds for a later run (Pocket Casts' screenshot lane
                // before `snapshot`): it tests nothing.
                guard !call.contains(where: { $0.code.contains("build_for_testing: true") }) else { continue }
                for (number, code) in call {
                    if let value = scheme(in: code, scanfile: scanfile, constants: lines), !value.contains("#{") {
                        found.append((value, "\(file):\(number + 1)"))
                    }
                }
            }
        }
        return found
    }

    /// The scheme of `scheme: 'A'` (a call's argument) or `scheme("A")` (a Scanfile's): quoted, or
    /// a constant the file sets to a quoted value (`scheme: SCHEME` with `SCHEME = 'pocketcasts'`).
    static func scheme(in line: Substring, scanfile: Bool, constants file: [Substring]) -> String? {
        let key = scanfile ? "scheme" : "scheme:"
        guard let range = line.firstRange(of: key), range.lowerBound == line.startIndex || !(line[line.index(before: range.lowerBound)].isLetter) else { return nil }
        let rest = line[range.upperBound...].drop { $0 == " " || $0 == "(" }
        guard let quote = rest.first else { return nil }
        if quote == "'" || quote == "\"" {
            let value = rest.dropFirst().prefix { $0 != quote }
            return value.isEmpty ? nil : String(value)
        }
        // A Ruby constant: capitals, digits and underscores, set once at the start of a line.
        let name = rest.prefix { $0.isUppercase || $0.isNumber || $0 == "_" }
        guard !name.isEmpty, name.first?.isUppercase == true, rest.dropFirst(name.count).first.map({ $0 == "," || $0 == " " || $0 == ")" }) ?? true else { return nil }
        for other in file {
            let code = other.drop { $0 == " " || $0 == "\t" }
            guard code.hasPrefix(name + " =") || code.hasPrefix(name + "=") else { continue }
            let value = code.dropFirst(name.count).drop { $0 == " " || $0 == "=" }
            guard let open = value.first, open == "'" || open == "\"" else { return nil }
            let text = value.dropFirst().prefix { $0 != open }
            return text.isEmpty ? nil : String(text)
        }
        return nil
    }

    /// The quoted string after `key` on a line (`devices: ["iPhone 17 Pro"]`, `device: 'iPhone 15'`);
    /// nil for any other value (`device: options[:device]`, a Ruby expression).
    package static func quoted(after key: String, in line: Substring) -> String? {
        guard let range = line.firstRange(of: key) else { return nil }
        let rest = line[range.upperBound...].drop { $0 == " " || $0 == "[" }
        guard let quote = rest.first, quote == "'" || quote == "\"" else { return nil }
        let text = rest.dropFirst().prefix { $0 != quote }
        return text.isEmpty || text.contains("#{") ? nil : String(text)
    }

    /// The quoted or bare word after `flag` on a line (`-destination 'platform=…'`, fastlane's
    /// `destination: "platform=…"`).
    package static func value(after flag: String, in line: Substring) -> String? {
        guard let range = line.firstRange(of: flag) else { return nil }
        var rest = line[range.upperBound...].drop { $0 == " " || $0 == "=" }
        // A quoted value ends at its quote (Ruby's `destination: "…",` goes on after it).
        if let quote = rest.first, quote == "'" || quote == "\"" {
            rest = rest.dropFirst()
            guard let end = rest.firstIndex(of: quote) else { return nil }
            return String(rest[..<end])
        }
        // One shell word: quoted, or with its spaces escaped (`platform=iOS\ Simulator,name=iPhone\ 8`,
        // OpenFoodFacts' script); a line's trailing `\` continues the command and is no part of it.
        guard let first = ShellWords.tokens(String(rest)).first, !first.isOperator, !first.value.isEmpty else { return nil }
        return first.value
    }
}

extension String {
    /// Without trailing blanks.
    func trimmingSuffixBlanks() -> String {
        var text = self
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
