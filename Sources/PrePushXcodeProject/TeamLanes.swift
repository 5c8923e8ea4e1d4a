import PrePushCore

extension TeamCommands {
    /// CI lines that run a fastlane lane whose tests init can read, as the `xcodebuild test` the
    /// lane runs: ProtonVPN's GitLab job `fastlane run_testplan ios:true scheme:ProtonVPN-iOS
    /// testplan:ProtonVPN-iOS-Unit-All`, the Corona-Warn-App's `cd src/xcode` then `bundle exec
    /// fastlane test_without_building testplan:UnitTests`. The Fastfile is the one fastlane finds
    /// where the line runs (`cd X`, the step's `working-directory:`), and the lane must test
    /// (`run_tests`/`scan`). An option of the line counts only when the lane reads it
    /// (`options[:testplan]`), or, for the scheme, when the lane names that scheme itself; else the
    /// lane's own literal `scheme:`, `testplan:`, test configurations, `devices:` and `xcargs:`.
    package static func laneTests(root: String) -> [XcodebuildTest] {
        var lanesByFolder: [String: [String: String]] = [:]
        var found: [XcodebuildTest] = []
        for file in placeFiles(root: root, in: ciPlaces, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") || $0.hasSuffix(".sh") }) {
            let lines = text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false)
            for (number, line) in lines.enumerated() where line.contains("fastlane ") {
                guard let command = commandText(line), let folder = stepFolder(command, above: lines[max(0, number - 8)..<number]) else { continue }
                if lanesByFolder[folder] == nil { lanesByFolder[folder] = laneBodies(root: root, folder: folder) }
                guard let lanes = lanesByFolder[folder], !lanes.isEmpty,
                      let test = laneTest(command, lanes: lanes, place: "\(file):\(number + 1)") else { continue }
                found.append(test)
            }
        }
        return found
    }

    /// The folder (relative to the root, `""` for it) a CI step's command runs in: for fastlane, a
    /// `cd X &&` before it on its line; else a lone `cd X` on a line of its step above it, else the
    /// step's `working-directory: X`. Nil for a folder outside the repository or built from variables.
    static func stepFolder(_ command: String, above: ArraySlice<Substring>) -> String? {
        var folder: String?
        let tokens = ShellWords.tokens(command)
        if let fastlane = tokens.firstIndex(where: { $0.value == "fastlane" }),
           let cd = tokens[..<fastlane].lastIndex(where: { $0.value == "cd" && !$0.isOperator }), cd + 1 < fastlane {
            folder = tokens[cd + 1].value
        } else {
            for line in above.reversed() {
                let code = line.drop { $0 == " " || $0 == "\t" || $0 == "-" }
                if code.hasPrefix("working-directory:") {
                    folder = String(code.dropFirst("working-directory:".count).trimmingCharacters(in: " \"'"))
                    break
                }
                let words = ShellWords.tokens(String(code)).prefix { !$0.isOperator }.map(\.value)
                if words.count == 2, words[0] == "cd" { folder = words[1]; break }
                // The step's start: what is above it is another step's.
                if code.hasPrefix("run:") || code.hasPrefix("script:") || code.hasPrefix("name:") { break }
            }
        }
        guard let folder else { return "" }
        guard !folder.contains("$"), !folder.hasPrefix("/"), !folder.hasPrefix("~"), !folder.split(separator: "/").contains("..") else { return nil }
        let normalized = FilePath.normalize(folder)
        return normalized == "." ? "" : normalized
    }

    /// One CI command's lane run as an `xcodebuild test`, or nil when neither the line nor the lane
    /// names one scheme.
    package static func laneTest(_ command: String, lanes: [String: String], place: String) -> XcodebuildTest? {
        let words = ShellWords.tokens(command).map { $0.isOperator ? "" : $0.value }
        guard let fastlane = words.firstIndex(of: "fastlane") else { return nil }
        // `fastlane ios test scheme:App`: a platform word may come before the lane.
        let rest = words[(fastlane + 1)...].prefix { !$0.isEmpty }.drop { ["ios", "mac", "android"].contains($0) }
        guard let lane = rest.first, let body = lanes[lane] else { return nil }
        var options: [String: String] = [:]
        for word in rest.dropFirst() {
            guard let colon = word.firstIndex(of: ":") else { continue }
            let value = String(word[word.index(after: colon)...])
            guard !value.isEmpty, !value.contains("$") else { continue }
            options[String(word[..<colon])] = value
        }
        let reads = { (key: String) in body.contains("options[:\(key)]") || body.contains("options.fetch(:\(key)") }
        let literal = { (key: String) -> String? in
            // One value the lane sets for `key:` (a lane testing two schemes names neither).
            let values = Set(body.split(separator: "\n").compactMap { quoted(after: key + ":", in: $0) })
            return values.count == 1 ? values.first : nil
        }
        let given = options["scheme"].flatMap { scheme in
            reads("scheme") || body.contains("\"\(scheme)\"") || body.contains("'\(scheme)'") ? scheme : nil
        }
        guard let scheme = given ?? literal("scheme") else { return nil }
        var flags: [String] = []
        if let plan = ["testplan", "test_plan"].lazy.compactMap({ key in reads(key) ? options[key] : nil }).first ?? literal("testplan") {
            flags.append("-testPlan " + ShellQuoting.word(plan))
        }
        for (key, flag) in [("only_test_configurations", "-only-test-configuration"), ("skip_test_configurations", "-skip-test-configuration")] {
            if let value = literal(key) { flags.append(flag + " " + ShellQuoting.word(value)) }
        }
        // `xcargs: "-skipPackagePluginValidation -skipMacroValidation"`: words xcodebuild takes as written.
        if let xcargs = literal("xcargs") {
            flags += ShellWords.tokens(xcargs).filter { !$0.isOperator && $0.value.hasPrefix("-") && !ownFlags.contains($0.value) }.map { ShellQuoting.word($0.value) }
        }
        let device = literal("devices") ?? literal("device")
        return XcodebuildTest(schemes: [scheme], flags: flags, destination: device.map { "platform=iOS Simulator,name=\($0)" },
                              dropped: [], piped: false, place: place, via: command, isLane: true)
    }

    /// Each lane that runs tests in the Fastfile fastlane finds in `folder` (`fastlane/Fastfile`,
    /// else `Fastfile`, and the lane files it keeps beside it), by name: its text, from `lane :name`
    /// to the next lane.
    static func laneBodies(root: String, folder: String) -> [String: String] {
        let base = FilePath.join(root, folder)
        var bodies: [String: String] = [:]
        for file in fastlaneFiles(root: base) {
            var name: String?
            var body: [Substring] = []
            func finish() {
                // `build_for_testing: true` builds for a later run (the Corona-Warn-App's `build_for_testing` lane): it tests nothing.
                if let name, body.contains(where: { line in ["run_tests", "scan"].contains { line.hasPrefix($0 + "(") || line.hasPrefix($0 + " ") } }),
                   !body.contains(where: { $0.contains("build_for_testing: true") }) {
                    bodies[name] = body.joined(separator: "\n")
                }
                body = []
            }
            for line in text(of: FilePath.join(base, file)).split(separator: "\n", omittingEmptySubsequences: false) {
                let code = line.drop { $0 == " " || $0 == "\t" }
                if code.hasPrefix("lane :") || code.hasPrefix("private_lane :") {
                    finish()
                    name = String(code.drop { $0 != ":" }.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" })
                } else if name != nil, !code.hasPrefix("#") {
                    body.append(code)
                }
            }
            finish()
        }
        return bodies
    }
}
