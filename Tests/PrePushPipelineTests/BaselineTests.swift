import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Adopting the check on an existing codebase: today's findings go into a baseline, and only new
/// ones are reported — by `prepush a11y`, the hook and `prepush run` alike.
/// Own process: the hook's half reports on the lines a real `git push` touches, the range git sends the
/// installed hook.
@Suite struct BaselineTests {
    let oldView = """
    import SwiftUI

    struct LegacyView: View {
        var body: some View {
            VStack {
                Button("Save") { save() }
                Button { share() } label: { Image(systemName: "square.and.arrow.up") }
                    .accessibilityIdentifier("legacy_button_share")
            }
        }
    }

    """

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.addTaggedScreen()
        try repo.write(oldView, to: "App/LegacyView.swift")
        try repo.write(oldView.replacingOccurrences(of: "LegacyView", with: "OtherView"), to: "App/OtherView.swift")
        return repo
    }

    func findings(_ result: CommandResult) -> [String] {
        result.standardOutput.split(separator: "\n").filter { $0.contains(": error: ") || $0.contains(": warning: ") }.map(String.init)
    }

    @Test func onlyFindingsNotInTheBaselineAreReportedAndMovedLinesStayKnown() throws {
        let repo = try repository()
        let write = try InProcess.a11y(["a11y", "--all", "--write-baseline", ".prepush/a11y-baseline.json"], in: repo.path, environment: repo.environment)
        #expect(write.status == 0, "\(write)")
        #expect(write.standardOutput == "prepush: wrote 4 findings to .prepush/a11y-baseline.json; set accessibility.baseline: .prepush/a11y-baseline.json so that only new ones are reported\n")
        let baseline = try #require(repo.root.read("work/.prepush/a11y-baseline.json"))
        #expect(baseline.contains(#""text" : "Button(\"Save\") { save() }""#), "\(baseline)")
        #expect(baseline.contains(#""type" : "LegacyView""#))

        try repo.write("accessibility:\n  baseline: .prepush/a11y-baseline.json\n", to: ".prepush.yml")
        let quiet = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(quiet.status == 0 && findings(quiet).isEmpty, "\(quiet)")

        // Lines moved down by new code above them: still known. A new unlabelled button: new.
        let added = "        VStack {\n            Text(\"Header\")\n"
            + "            Button { close() } label: { Image(systemName: \"xmark\") }\n"
            + "                .accessibilityIdentifier(\"legacy_button_close\")\n"
        try repo.write(oldView.replacingOccurrences(of: "        VStack {\n", with: added), to: "App/LegacyView.swift")
        let moved = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(findings(moved) == ["App/LegacyView.swift:7:13: error: Button shows only an image; add .accessibilityLabel(\"…\") saying what it does [icon-button-missing-label]"], "\(moved)")
        #expect(moved.status == 1)
    }

    @Test func theHookReportsOnlyNewFindingsOnTheLinesAPushTouches() throws {
        let repo = try repository()
        _ = try InProcess.a11y(["a11y", "--all", "--write-baseline", ".prepush/a11y-baseline.json"], in: repo.path, environment: repo.environment).checked()
        try repo.write("accessibility:\n  baseline: .prepush/a11y-baseline.json\n", to: ".prepush.yml")
        try repo.commitAll("old views and their baseline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()

        // The push touches the old Save button's modifier chain: known, so it passes.
        try repo.write(oldView.replacingOccurrences(of: "Button(\"Save\") { save() }", with: "Button(\"Save\") { save() }\n                .padding()"), to: "App/LegacyView.swift")
        try repo.commitAll("padding on an old button")
        let known = try repo.push()
        #expect(known.status == 0, "\(known)")

        // The same change without the baseline would have been refused.
        try repo.write("", to: ".prepush.yml")
        let withoutBaseline = try InProcess.a11y(["a11y", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)
        #expect(withoutBaseline.status == 1, "\(withoutBaseline)")
        #expect(withoutBaseline.standardOutput.contains("App/LegacyView.swift:6:13: error: Button has no .accessibilityIdentifier"))
    }

    /// 300 baselined icon buttons whose lines all read `Button {`, with the same neighbours; a push
    /// adds one more in the middle, its first line the same `Button {`. The old ones take the 300
    /// entries (their lines are untouched, or keep their context), so the new one is reported, and
    /// only it. (A block identical to its neighbours in every line could not be told apart by anyone:
    /// git's diff calls the last one new.)
    @Test func aNewButtonAmongThreeHundredIdenticalBaselinedOnesIsReported() throws {
        let repo = try GitRepository()
        let button = "            Button {\n                tap()\n            } label: {\n                Image(systemName: \"star\")\n            }\n"
        func view(_ count: Int, extraAfter: Int? = nil) -> String {
            var text = "import SwiftUI\n\nstruct ManyView: View {\n    var body: some View {\n        VStack {\n"
            for index in 0..<count {
                text += button
                if index == extraAfter { text += button.replacingOccurrences(of: "tap()", with: "share()").replacingOccurrences(of: "star", with: "square.and.arrow.up") }
            }
            return text + "        }\n    }\n}\n"
        }
        try repo.write(view(300), to: "App/ManyView.swift")
        let write = try InProcess.a11y(["a11y", "--all", "--write-baseline", ".prepush/a11y-baseline.json"], in: repo.path, environment: repo.environment)
        #expect(write.standardOutput.hasPrefix("prepush: wrote 300 findings"), "\(write)")
        try repo.write("accessibility:\n  baseline: .prepush/a11y-baseline.json\n", to: ".prepush.yml")
        try repo.commitAll("300 old icon buttons and their baseline")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()

        try repo.write(view(300, extraAfter: 149), to: "App/ManyView.swift")
        try repo.commitAll("one more icon button in the middle")
        let push = try repo.push()
        #expect(push.status != 0, "\(push)")
        // The new button starts after the first 150: line 6 + 5 × 150.
        #expect(findings(push) == ["App/ManyView.swift:756:13: error: Button shows only an image; add .accessibilityLabel(\"…\") saying what it does [icon-button-missing-label]"],
                "\(push)")
    }

    @Test func aMissingOrForeignBaselineIsAConfigurationError() throws {
        let repo = try repository()
        try repo.write("accessibility:\n  baseline: .prepush/none.json\n", to: ".prepush.yml")
        let missing = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(missing.status == 2)
        #expect(missing.standardError.hasPrefix(#".prepush.yml:2:13: error: accessibility.baseline: ".prepush/none.json" does not exist; write it with prepush a11y --all --write-baseline .prepush/none.json"#), "\(missing)")
        try repo.write("[]", to: ".prepush/none.json")
        let foreign = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(foreign.status == 2)
        #expect(foreign.standardError.contains("is not an accessibility baseline"), "\(foreign)")
        try repo.write("accessibility:\n  baseline: /etc/hostname\n", to: ".prepush.yml")
        let outside = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(outside.status == 2)
        #expect(outside.standardError.contains("is an absolute path"), "\(outside)")
    }
}

/// Removing a label is a change to the control, like removing its identifier.
@Suite struct RemovedLabelTests {
    @Test func removingALabelLineReportsTheIconButton() throws {
        let repo = try GitRepository()
        let labelled = """
        import SwiftUI

        struct ShareBar: View {
            var body: some View {
                Button { share() } label: { Image(systemName: "square.and.arrow.up") }
                    .accessibilityIdentifier("bar_button_share")
                    .accessibilityLabel("Share")
            }
        }

        """
        try repo.write(labelled, to: "App/ShareBar.swift")
        try repo.commitAll("a labelled button")
        try repo.write(labelled.replacingOccurrences(of: "            .accessibilityLabel(\"Share\")\n", with: ""), to: "App/ShareBar.swift")
        try repo.commitAll("the label removed")
        let result = try InProcess.a11y(["a11y", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.contains("App/ShareBar.swift:5:9: error: Button shows only an image"), "\(result)")
    }
}
