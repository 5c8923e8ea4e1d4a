import Foundation
import PrePushConfig
import PrePushCore
import PrePushTestSupport
import Testing

/// The accessibility section is validated where the configuration is resolved, so `prepush config`
/// finds what a push would (it used to pass a missing baseline that every push then refused).
@Suite struct AccessibilitySectionTests {
    func resolve(_ file: String, in folder: TemporaryDirectory) throws(ConfigurationError) -> ResolvedConfiguration {
        var request = ConfigurationRequest(flags: ConfigurationFlags(), environment: [:], repositoryRoot: folder.path, currentDirectory: folder.path)
        request.knownAccessibilityRules = ["missing-label", "missing-identifier"]
        return try ConfigurationResolver.resolve(request)
    }

    @Test func aMissingBaselineIsAnErrorWithItsPlace() throws {
        let folder = try TemporaryDirectory()
        try folder.write("accessibility:\n  baseline: .prepush/none.json\n", to: ".prepush.yml")
        #expect(throws: ConfigurationError.self) { try resolve("", in: folder) }
        do {
            _ = try resolve("", in: folder)
        } catch {
            #expect(error.description.hasPrefix(".prepush.yml:2:13: error: accessibility.baseline: \".prepush/none.json\" does not exist; write it with prepush a11y --all --write-baseline .prepush/none.json"), "\(error)")
        }
    }

    @Test func aBaselineOutsideTheRepositoryIsRefused() throws {
        let folder = try TemporaryDirectory()
        try folder.write("accessibility:\n  baseline: ../elsewhere.json\n", to: ".prepush.yml")
        do {
            _ = try resolve("", in: folder)
            Issue.record("a baseline out of the repository was accepted")
        } catch {
            #expect(error.description.contains("leads out of the repository with '..'"), "\(error)")
        }
    }

    @Test func aBaselineThatExistsIsGivenAsAnAbsolutePathWithTheFileLinesKept() throws {
        let folder = try TemporaryDirectory()
        try folder.write("{\"version\": 1, \"findings\": []}\n", to: ".prepush/a11y.json")
        try folder.write("accessibility:\n  baseline: .prepush/a11y.json\n", to: ".prepush.yml")
        let resolved = try resolve("", in: folder)
        #expect(resolved.accessibility.baseline?.path == folder.path + "/.prepush/a11y.json")
        #expect(resolved.accessibility.baseline?.configured == ".prepush/a11y.json")
        #expect(resolved.accessibility.baseline?.sourceLine == "  baseline: .prepush/a11y.json")
        #expect(resolved.configurationLines?.line(2) == "  baseline: .prepush/a11y.json")
    }

    @Test func anUnknownRuleGetsItsPlaceAndASuggestion() throws {
        let folder = try TemporaryDirectory()
        try folder.write("accessibility:\n  rules:\n    missing-lable: off\n", to: ".prepush.yml")
        do {
            _ = try resolve("", in: folder)
            Issue.record("an unknown rule was accepted")
        } catch {
            #expect(error.description.hasPrefix(".prepush.yml:3:5: error: unknown key \"missing-lable\" in accessibility.rules; did you mean \"missing-label\"?"), "\(error)")
        }
    }

    @Test func aPatternThatIsNoRegularExpressionIsSaidAsSuch() throws {
        let folder = try TemporaryDirectory()
        try folder.write("accessibility:\n  identifierPattern: \"([\"\n", to: ".prepush.yml")
        do {
            _ = try resolve("", in: folder)
            Issue.record("a broken pattern was accepted")
        } catch {
            #expect(error.description.hasPrefix(".prepush.yml:2:22: error: accessibility.identifierPattern: \"([\" is not a regular expression"), "\(error)")
        }
    }
}
