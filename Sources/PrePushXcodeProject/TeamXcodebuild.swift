#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

extension TeamCommands {
    /// An `xcodebuild test` command of the team's files, read word by word: the schemes it runs
    /// (a literal `-scheme`, or each value of the workflow matrix it names), the flags a stage can
    /// take over as written, and what cannot be taken over because it names CI variables.
    package struct XcodebuildTest: Sendable, Equatable {
        /// The schemes it runs.
        package let schemes: [String]
        /// The words to add to a stage's `xcodebuild test` (`-testPlan UITests`,
        /// `-skipMacroValidation`), each already quoted for `/bin/sh`.
        package let flags: [String]
        /// Its `-destination` when that is written out.
        package let destination: String?
        /// Flags left out because their values are the CI's variables (`-destination "…$SIMULATOR…"`).
        package let dropped: [String]
        /// Whether its output went through a formatter (`| xcpretty`), which a stage leaves out:
        /// prepush reads xcodebuild's own output and result bundle.
        package let piped: Bool
        /// `.github/workflows/ci.yml:36`.
        package let place: String
        /// How the team runs it when it is a Makefile recipe (`make test-app`): that is the command
        /// the comments name, not the recipe line.
        package var via: String?
        /// Whether it is a fastlane lane's run read from the lane (`TeamCommands.laneTests`): the
        /// lane may pass more flags than init can read (a helper's `xcargs`).
        package var isLane = false
        /// Whether it only runs what another command built (`test-without-building`): the build's
        /// switches (`-skipMacroValidation` on the `build-for-testing` line) are not on it.
        package var withoutBuilding = false
    }

    /// Flags a stage sets itself (`-scheme`, the project, the destination, the result bundle) or
    /// that make no sense in a hook's run.
    static let ownFlags: Set<String> = ["-scheme", "-project", "-workspace", "-destination", "-resultBundlePath", "-json", "-list"]
    /// xcodebuild's actions: words that are not a flag's value.
    static let actions: Set<String> = ["test", "build", "clean", "test-without-building", "build-for-testing", "analyze", "archive"]

    /// The files the team's own `xcodebuild` lines are read from: workflows, CI scripts, the Makefile.
    static let xcodebuildPlaces = [".github/workflows", "ci_scripts", "scripts", ".circleci/config.yml", ".buildkite", ".gitlab-ci.yml", ".gitlab", "Makefile"]

    /// Every `xcodebuild … test` command of the team's workflows, CI scripts and Makefile (a
    /// recipe's, with the target that runs it), then the fastlane lanes CI runs with a scheme (`laneTests`).
    package static func xcodebuildTests(root: String) -> [XcodebuildTest] {
        var found: [XcodebuildTest] = []
        for file in placeFiles(root: root, in: xcodebuildPlaces) + scriptsRunByCI(root: root) {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            // A commented-out command (kiwix's `#   run: xcodebuild test -scheme UITests_iPhone`) runs nothing.
            for (number, line) in lines.enumerated() where line.contains("xcodebuild") && line.drop(while: { $0 == " " || $0 == "\t" }).first != "#" {
                // A command continued over lines (`xcodebuild test \`) is one command.
                guard var test = xcodebuildTest(continued(from: number, in: lines), place: "\(file):\(number + 1)", file: lines) else { continue }
                if file == "Makefile" { test.via = makeTarget(above: number, in: lines).map { "make \($0)" } }
                found.append(test)
            }
        }
        // A lane given its scheme and plan on the CI's line runs that scheme's `xcodebuild test` too.
        return found + laneTests(root: root)
    }

    /// The validation switches any `xcodebuild` command of the team passes (`-skipPackagePluginValidation`,
    /// `-skipMacroValidation`, a build or archive's too), each once with where: without them
    /// xcodebuild refuses a package's build-tool plugins and macros that no one trusted in Xcode on
    /// that Mac, so a test stage takes them over as well.
    package static func validationFlags(root: String) -> [(flag: String, place: String)] {
        var found: [(flag: String, place: String)] = []
        // fastlane's dotenv files hold a lane's `SCAN_XCARGS` (Radix's `XCARGS="-skipPackagePluginValidation"`).
        let dotenv = ((try? FileManager.default.contentsOfDirectory(atPath: FilePath.join(root, "fastlane"))) ?? []).filter { $0.hasPrefix(".env") }.sorted().map { "fastlane/" + $0 }
        for file in placeFiles(root: root, in: xcodebuildPlaces) + laneFilesAnywhere(root: root) + scriptsRunByCI(root: root) + dotenv {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() {
                // `defaults write com.apple.dt.Xcode IDESkipMacroFingerprintValidation -bool YES` trusts
                // every macro for each build on that Mac, as the switch does for one (Radix's CI).
                for (flag, setting) in [("-skipPackagePluginValidation", "IDESkipPackagePluginFingerprintValidatation"), ("-skipMacroValidation", "IDESkipMacroFingerprintValidation")]
                where (line.contains(flag) || line.contains(setting)) && !found.contains(where: { $0.flag == flag }) {
                    found.append((flag, "\(file):\(number + 1)"))
                }
            }
        }
        return found
    }

    /// The files fastlane reads lanes from at the root and in each top-level folder (`ios/fastlane/Fastfile`
    /// and the lane files it imports, Polkadot Vault's `ios/fastlane/lanes/lane_tests.rb`).
    static func laneFilesAnywhere(root: String) -> [String] {
        let folders = topFolders(root: root).filter { FileSystem.isDirectory(FilePath.join(FilePath.join(root, $0), "fastlane")) }
        return fastlaneFiles(root: root) + folders.flatMap { folder in fastlaneFiles(root: FilePath.join(root, folder)).map { FilePath.join(folder, $0) } }
    }

    /// One command's `xcodebuild test`, or nil when the line runs none.
    package static func xcodebuildTest(_ line: String, place: String, file: [String]) -> XcodebuildTest? {
        // `${{ matrix.scheme }}` is one word to the shell that runs the workflow's step.
        let command = line.replacing("${{ ", with: "${{").replacing(" }}", with: "}}")
        let tokens = ShellWords.tokens(command)
        // A Makefile recipe's `@xcodebuild` (not echoed) and `-xcodebuild` (errors ignored) run xcodebuild too.
        guard let start = tokens.firstIndex(where: { token in
            let value = token.value.drop { $0 == "@" || $0 == "-" }
            return !token.isOperator && (value == "xcodebuild" || value.hasSuffix("/xcodebuild"))
        }) else { return nil }
        let end = tokens[start...].firstIndex(where: \.isOperator) ?? tokens.endIndex
        let words = tokens[(start + 1)..<end].map(\.value)
        // As written, quotes included: a `$` inside single quotes is no shell variable.
        let raw = tokens[(start + 1)..<end].map { String(command[$0.range]) }
        // `test-without-building` (after a `build-for-testing`) tests the scheme too (nos' CI).
        guard words.contains("test") || words.contains("test-without-building") else { return nil }
        var schemes: [String] = []
        var flags: [String] = []
        var dropped: [String] = []
        var destination: String?
        var index = 0
        while index < words.count {
            let word = words[index]
            let wordIndex = index
            index += 1
            guard !actions.contains(word) else { continue }
            // A flag's value is the next word unless that is a flag, an action or a build setting.
            var value: String?
            if word.hasPrefix("-"), !word.contains(":"), index < words.count, !words[index].hasPrefix("-"),
               !actions.contains(words[index]), !words[index].contains("=") || ["-destination", "-xcconfig"].contains(word) {
                value = words[index]
                index += 1
            }
            let written = ([word] + (value.map { [$0] } ?? [])).joined(separator: " ")
            switch word {
            case "-scheme":
                guard let value else { continue }
                schemes = value.contains("$") ? matrixValues(value, in: file) : [value]
            case "-destination":
                // `generic/platform=…` builds for any device of a platform and runs no test.
                if let value, !value.contains("$"), !value.hasPrefix("generic/") { destination = value } else { dropped.append(written) }
            case _ where ownFlags.contains(word):
                continue
            default:
                // An Xcode build setting's own reference, single-quoted (`OTHER_SWIFT_FLAGS='$(inherited) -DDEBUG'`),
                // is Xcode's to expand, not the CI's: kept (quoted again in the stage). In a Makefile `$(…)` is make's.
                let literal = !place.hasPrefix("Makefile") && raw[wordIndex..<index].allSatisfy(Self.dollarsSingleQuoted)
                if written.contains("$") && !literal {
                    dropped.append(written)
                } else {
                    flags.append(([word] + (value.map { [$0] } ?? [])).map(ShellQuoting.word).joined(separator: " "))
                }
            }
        }
        guard !schemes.isEmpty else { return nil }
        // Piped after its redirections (`test 2>&1 | tee log | xcbeautify`), before the next command.
        let piped = tokens[end...].prefix { ![";", "&&", "||", "\n", "&"].contains($0.value) }.contains { $0.isOperator && $0.value == "|" }
        var test = XcodebuildTest(schemes: schemes, flags: flags, destination: destination, dropped: dropped, piped: piped, place: place)
        test.withoutBuilding = !words.contains("test")
        return test
    }

    /// Whether every `$` of a word as written sits inside single quotes, where the shell leaves it.
    static func dollarsSingleQuoted(_ word: String) -> Bool {
        var single = false, double = false
        for character in word {
            if character == "'" && !double { single.toggle() }
            else if character == "\"" && !single { double.toggle() }
            else if character == "$" && !single { return false }
        }
        return true
    }

    /// The Makefile target whose recipe holds line `index` (0-based): the nearest rule line above it.
    static func makeTarget(above index: Int, in lines: [String]) -> String? {
        for line in lines[..<index].reversed() {
            guard let first = line.first, first.isLetter || first == "_", let colon = line.firstIndex(of: ":") else { continue }
            let target = line[..<colon]
            guard target.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." }),
                  line[line.index(after: colon)...].first != "=" else { return nil }
            return String(target)
        }
        return nil
    }

    /// The values of the workflow matrix a `${{matrix.scheme}}` names (`scheme: ["App", "Kit"]`).
    static func matrixValues(_ value: String, in file: [String]) -> [String] {
        guard value.hasPrefix("${{matrix."), value.hasSuffix("}}") else { return [] }
        let key = value.dropFirst("${{matrix.".count).dropLast(2)
        for line in file {
            let text = line.drop { $0 == " " || $0 == "\t" }
            guard text.hasPrefix(key + ":") else { continue }
            let list = text.dropFirst(key.count + 1).drop { $0 == " " }
            guard list.first == "[", let close = list.lastIndex(of: "]") else { continue }
            return list[list.index(after: list.startIndex)..<close].split(separator: ",").map {
                String($0.trimmingCharacters(in: " \"'"))
            }.filter { !$0.isEmpty }
        }
        return []
    }
}

extension Substring {
    /// Without the leading and trailing characters of `set`.
    func trimmingCharacters(in set: String) -> Substring {
        var text = self
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return text
    }
}
