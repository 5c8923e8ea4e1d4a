import PrePushCore

extension TeamCommands {
    /// CI lines that run a fastlane lane with a scheme and a test plan as its options (ProtonVPN's
    /// GitLab job `fastlane run_testplan ios:true scheme:ProtonVPN-iOS testplan:ProtonVPN-iOS-Unit-All`),
    /// read as the `xcodebuild test -scheme … -testPlan …` the lane runs: an option counts only when
    /// the lane reads it (`options[:testplan]`), or, for the scheme, names that scheme itself (a lane
    /// that sets `scheme = "ProtonVPN-iOS"` for its `ios:` option). The lane must test
    /// (`run_tests`/`scan`); its Fastfile is the repository's, so a lane elsewhere proves nothing.
    package static func laneTests(root: String) -> [XcodebuildTest] {
        let lanes = laneBodies(root: root)
        guard !lanes.isEmpty else { return [] }
        var found: [XcodebuildTest] = []
        for file in placeFiles(root: root, in: ciPlaces, where: { $0.hasSuffix(".yml") || $0.hasSuffix(".yaml") || $0.hasSuffix(".sh") }) {
            for (number, line) in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard line.contains("fastlane "), let command = commandText(line),
                      let test = laneTest(command, lanes: lanes, place: "\(file):\(number + 1)") else { continue }
                found.append(test)
            }
        }
        return found
    }

    /// One CI command's lane run as an `xcodebuild test`, or nil when it names no scheme the lane takes.
    static func laneTest(_ command: String, lanes: [String: String], place: String) -> XcodebuildTest? {
        let words = ShellWords.tokens(command).prefix { !$0.isOperator }.map(\.value)
        guard let fastlane = words.firstIndex(of: "fastlane") else { return nil }
        // `fastlane ios test scheme:App`: a platform word may come before the lane.
        let rest = words[(fastlane + 1)...].drop { ["ios", "mac", "android"].contains($0) }
        guard let lane = rest.first, let body = lanes[lane] else { return nil }
        var options: [String: String] = [:]
        for word in rest.dropFirst() {
            guard let colon = word.firstIndex(of: ":") else { continue }
            let value = String(word[word.index(after: colon)...])
            guard !value.isEmpty, !value.contains("$") else { continue }
            options[String(word[..<colon])] = value
        }
        let reads = { (key: String) in body.contains("options[:\(key)]") || body.contains("options.fetch(:\(key)") }
        guard let scheme = options["scheme"], reads("scheme") || body.contains("\"\(scheme)\"") || body.contains("'\(scheme)'") else { return nil }
        let plan = ["testplan", "test_plan"].lazy.compactMap { key in reads(key) ? options[key] : nil }.first
        let flags = plan.map { ["-testPlan " + ShellQuoting.word($0)] } ?? []
        var test = XcodebuildTest(schemes: [scheme], flags: flags, destination: nil, dropped: [], piped: false, place: place)
        test.via = command
        return test
    }

    /// Each lane of the repository's Fastfile (and the lane files it imports) that runs tests, by
    /// name: its text, from `lane :name` to the next lane.
    static func laneBodies(root: String) -> [String: String] {
        let laneFiles = SourceTree.files(under: FilePath.join(root, "fastlane/lanes")) { $0.hasSuffix(".rb") }.map { "fastlane/lanes/" + $0 }
        var bodies: [String: String] = [:]
        for file in ["fastlane/Fastfile", "Fastfile"] + laneFiles {
            var name: String?
            var body: [Substring] = []
            func finish() {
                if let name, body.contains(where: { line in ["run_tests", "scan"].contains { line.contains($0 + "(") || line.contains($0 + " ") } }) {
                    bodies[name] = body.joined(separator: "\n")
                }
                body = []
            }
            for line in text(of: FilePath.join(root, file)).split(separator: "\n", omittingEmptySubsequences: false) {
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
