import Foundation
import PrePushTestSupport
import Testing

/// `prepush init` writes a configuration from what the repository holds, and what it writes is valid.
@Suite struct InitTests {
    @Test func aPackageAndAnXcodeProjectGetTheirStagesAndTheFilePassesConfig() throws {
        let repo = try GitRepository()
        try repo.write("// swift-tools-version:5.9\n", to: "Package.swift")
        try repo.write("<Scheme/>", to: "Shop.xcodeproj/xcshareddata/xcschemes/Shop.xcscheme")
        try repo.write("<Scheme/>", to: "Shop.xcodeproj/xcshareddata/xcschemes/Shop UITests.xcscheme")
        try repo.write("scenarios:\n  - story: US1\n    priority: P1\n    description: Buy\n    test: test_cart_buy\n", to: ".prepush/scenarios.yml")
        let result = try PrepushBinary.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.hasPrefix("prepush: wrote .prepush.yml (swift test for the unit stage, xcodebuild test of scheme Shop UITests for the UI stage, the scenario catalog .prepush/scenarios.yml)\n"), "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    run: swift test --event-stream-output-path .build/prepush-events.jsonl\n"))
        #expect(file.contains("xcodebuild test -project Shop.xcodeproj -scheme 'Shop UITests' "))
        #expect(file.contains("  # shared schemes found: Shop UITests, Shop\n"))
        #expect(file.contains("traceability:\n  catalog: .prepush/scenarios.yml\n"))
        let config = try PrepushBinary.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0, "\(config)")
        let uiRun = config.standardOutput.split(separator: "\n").first { $0.hasPrefix("ui.run ") }
        #expect(uiRun?.contains(" rm -rf .build/prepush-ui.xcresult && xcodebuild test") == true, "\(config)")
        #expect(config.standardOutput.contains("traceability.catalog "), "\(config)")
    }

    /// `init` turns no identifier rule on (they follow the practice by themselves) and says what it
    /// measured: the controls with an identifier, the UI tests' queries, the scheme of the identifiers.
    @Test func theIdentifierLinesSayWhatThePracticeIs() throws {
        let none = try GitRepository()
        try none.write("import SwiftUI\nstruct A: View { var body: some View { Button(\"Go\") { } } }\n", to: "App/A.swift")
        _ = try PrepushBinary.run(["init"], in: none.path, environment: none.environment).checked()
        let off = try #require(none.root.read("work/.prepush.yml"))
        #expect(off.contains("    # .accessibilityIdentifier and it has no UI tests, so they report nothing. To require identifiers anyway:\n    # missing-identifier: error\n"), "\(off)")
        #expect(!off.contains("\n    missing-identifier: error"), "\(off)")
        let quiet = try PrepushBinary.run(["a11y", "--all"], in: none.path, environment: none.environment)
        #expect(quiet.status == 0 && quiet.standardOutput.contains("1 missing-identifier finding not reported: the repository's views set no .accessibilityIdentifier"), "\(quiet)")

        let pascal = try GitRepository()
        try pascal.write("""
        import XCTest
        final class RoomUITests: XCTestCase {
            func testSend() { let app = XCUIApplication(); app.launch(); app.buttons["SendButton"].tap() }
        }

        """, to: "UITests/RoomUITests.swift")
        try pascal.write("""
        import SwiftUI
        struct Room: View {
            var body: some View {
                Button("Send") { }.accessibilityIdentifier("SendButton")
                Button("Attach") { }.accessibilityIdentifier("AttachButton")
                TextField("Message", text: $text).accessibilityIdentifier("ComposerField")
                Toggle("Mute", isOn: $muted).accessibilityIdentifier("MuteToggle")
            }
        }

        """, to: "App/Room.swift")
        _ = try PrepushBinary.run(["init"], in: pascal.path, environment: pascal.environment).checked()
        let on = try #require(pascal.root.read("work/.prepush.yml"))
        #expect(on.contains("    # missing-identifier and identifier-convention follow the team's practice: here 4 of 4 controls\n    # have an identifier and its UI tests query 1 identifier (UITests/RoomUITests.swift);"), "\(on)")
        #expect(on.contains("  # Identifiers here are PascalCase words run together (4 of 4); identifier-convention holds new ones to that.\n"), "\(on)")
        #expect(!on.contains("\n    missing-identifier: error") && !on.contains("identifierPattern:"), "\(on)")
        let check = try PrepushBinary.run(["a11y", "--all"], in: pascal.path, environment: pascal.environment)
        #expect(check.status == 0 && !check.standardOutput.contains("identifier-convention"), "\(check)")
        _ = try PrepushBinary.run(["config"], in: pascal.path, environment: pascal.environment).checked()
    }

    @Test func anExistingFileIsKeptUnlessForced() throws {
        let repo = try GitRepository()
        try repo.write("verbose: true\n", to: ".prepush.yml")
        let refused = try PrepushBinary.run(["init"], in: repo.path, environment: repo.environment)
        #expect(refused.status == 2)
        #expect(refused.standardError == "error: .prepush.yml already exists; prepush init writes over it only with --force\n")
        #expect(repo.root.read("work/.prepush.yml") == "verbose: true\n")
        let forced = try PrepushBinary.run(["init", "--force"], in: repo.path, environment: repo.environment)
        #expect(forced.status == 0, "\(forced)")
        #expect(forced.standardOutput.hasPrefix("prepush: wrote .prepush.yml (no package or Xcode project found: stages to fill in)\n"))
        let config = try PrepushBinary.run(["config"], in: repo.path, environment: repo.environment)
        #expect(config.status == 0, "\(config)")
    }

    @Test func aWorkspaceWithoutSharedSchemesSaysWhatToFinish() throws {
        let repo = try GitRepository()
        try repo.write("<Workspace/>", to: "App.xcworkspace/contents.xcworkspacedata")
        let result = try PrepushBinary.run(["init"], in: repo.path, environment: repo.environment)
        #expect(result.status == 0, "\(result)")
        let file = try #require(repo.root.read("work/.prepush.yml"))
        #expect(file.contains("    # no shared scheme found: share the UI-test scheme in Xcode"))
        #expect(file.contains("xcodebuild test -workspace App.xcworkspace -scheme YourAppUITests"))
        #expect(try PrepushBinary.run(["config"], in: repo.path, environment: repo.environment).status == 0)
    }
}
