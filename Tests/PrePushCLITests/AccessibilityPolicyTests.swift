import Foundation
import PrePushTestSupport
import Testing

/// The check as a team without identifiers meets it: the identifier rules follow the repository's
/// policy; a baseline never hides a new finding; the small things a new user trips on.
@Suite struct AccessibilityPolicyTests {
    /// A screen written the way an app without UI tests writes it: icon buttons labelled, no identifiers.
    func screen(_ name: String, buttons: Int = 1) -> String {
        let rows = (0..<buttons).map { index in
            "            Button(\"Item \\(index)\") { open(\(index)) }\n"
        }.joined()
        return "import SwiftUI\n\nstruct \(name): View {\n    var body: some View {\n        VStack {\n\(rows)        }\n    }\n}\n"
    }

    func findings(_ result: CommandResult) -> [String] {
        result.combined.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }.map(String.init)
    }

    @Test func aRepositoryWithoutUITestsOrIdentifiersGetsNoIdentifierFindingAndIsToldWhy() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try PrepushBinary.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(screen("ProfileView", buttons: 2), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let push = try repo.push()
        #expect(push.status == 0, "\(push)")
        #expect(findings(push).isEmpty, "\(push)")
        #expect(push.combined.contains("prepush: note: accessibility: 2 identifier findings not reported: the repository has no UI tests"), "\(push)")
        #expect(try repo.remoteHead() != nil)
    }

    @Test func aRepositoryWithUITestsGetsThem() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try PrepushBinary.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(screen("ProfileView", buttons: 2), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let push = try repo.push()
        #expect(push.status == 1, "\(push)")
        #expect(findings(push).count == 2 && findings(push).allSatisfy { $0.hasSuffix("[missing-identifier]") }, "\(push)")
        #expect(!push.combined.contains("not reported"), "\(push)")
    }

    @Test func namingTheRuleDecidesWithoutALook() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.write("accessibility:\n  rules:\n    missing-identifier: warning\n", to: ".prepush.yml")
        let result = try PrepushBinary.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(findings(result) == ["App/TimelineView.swift:6:13: warning: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"], "\(result)")
    }

    /// 300 baselined `Button(…) {` findings with the same line text, and a new one pushed in the
    /// middle: exactly the new one is reported (the baseline's entries go to the old lines first).
    @Test func aBaselineNeverHidesANewFindingWhoseLineReadsLikeAnOldOne() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        let old = "import SwiftUI\n\nstruct ListScreen: View {\n    var body: some View {\n        VStack {\n"
            + String(repeating: "            Button(\"Open\") { open() }\n", count: 300) + "        }\n    }\n}\n"
        try repo.write(old, to: "App/ListScreen.swift")
        _ = try PrepushBinary.run(["a11y", "--all", "--write-baseline", ".prepush/a11y-baseline.json"], in: repo.path, environment: repo.environment).checked()
        try repo.write("accessibility:\n  baseline: .prepush/a11y-baseline.json\n", to: ".prepush.yml")
        try repo.commitAll("300 buttons, baselined")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try PrepushBinary.run(["install"], in: repo.path, environment: repo.environment).checked()

        var lines = old.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("            Button(\"Open\") { open() }", at: 155)
        try repo.write(lines.joined(separator: "\n"), to: "App/ListScreen.swift")
        try repo.commitAll("one more button")
        let push = try repo.push()
        #expect(push.status == 1, "\(push)")
        // Among 301 identical lines, git's diff names the last as the added one: that one is reported.
        #expect(findings(push) == ["App/ListScreen.swift:306:13: error: Button has no .accessibilityIdentifier; add one in the {scope}_{type}_{name} convention [missing-identifier]"], "\(push)")

        // Code above every button changes: no finding moves out of the baseline.
        try repo.git("reset", "--quiet", "--hard", "HEAD~1")
        try repo.write(old.replacingOccurrences(of: "        VStack {\n", with: "        VStack {\n            Text(\"Header\")\n"), to: "App/ListScreen.swift")
        try repo.commitAll("a header")
        let header = try repo.push()
        #expect(header.status == 0 && findings(header).isEmpty, "\(header)")
    }

    @Test func aFileListWithMissingNonSwiftFilesIsNoError() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        // What `git diff --name-only` gives after a README was deleted.
        let result = try PrepushBinary.run(["a11y", "README.md", "docs/old.png", "App/TimelineView.swift"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "the Swift file is checked: \(result)")
        #expect(findings(result).count == 1, "\(result)")
        let missingSwift = try PrepushBinary.run(["a11y", "App/Gone.swift"], in: repo.path, environment: repo.environment)
        #expect(missingSwift.status == 2 && missingSwift.standardError == "error: App/Gone.swift: no such file\n", "\(missingSwift)")
    }

    @Test func verboseCountsOneCommitInTheSingular() throws {
        let repo = try GitRepository()
        try repo.write(screen("TimelineView"), to: "App/TimelineView.swift")
        try repo.commitAll("timeline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        try repo.write(screen("ProfileView"), to: "App/ProfileView.swift")
        try repo.commitAll("profile")
        let run = try PrepushBinary.run(["run", "--verbose"], in: repo.path, environment: repo.environment)
        #expect(run.combined.contains("prepush: accessibility: 1 commit; base: "), "\(run)")
        #expect(!run.combined.contains("1 commits"), "\(run)")
    }
}
