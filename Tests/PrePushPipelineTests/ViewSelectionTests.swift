import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Views live under every name real apps give them; the check finds them by what they are
/// (SwiftUI code), not by a file-name convention.
/// Own process: a view is checked when a real `git push` through the installed hook sends it.
@Suite struct ViewSelectionTests {
    /// An icon-only button without a label: one finding wherever the file lives.
    func view(_ type: String, conformance: String = "View", imports: String = "import SwiftUI") -> String {
        """
        \(imports)

        struct \(type): \(conformance) {
            var body: some View {
                Button { close() } label: { Image(systemName: "xmark") }
                    .accessibilityIdentifier("\(type.lowercased())_button_close")
            }
        }

        """
    }

    func repository() throws -> GitRepository {
        let repo = try GitRepository()
        try repo.write(view("JoinRoomScreen"), to: "App/Screens/JoinRoom/View/JoinRoomScreen.swift")
        try repo.write(view("ConversationsListRow"), to: "Packages/Chat/Sources/Chat/Row.swift")
        try repo.write(view("SettingsTab", imports: "@preconcurrency import SwiftUI"), to: "Features/Settings/SettingsTab.swift")
        // A file of a module that re-exports SwiftUI elsewhere: its View conformance says what it is.
        try repo.write(view("BottomMenu", imports: "import DesignSystem"), to: "Features/Menu/BottomMenu.swift")
        try repo.write("import Foundation\n\nstruct Store { var rooms: [String] = [] }\n", to: "App/Model/Store.swift")
        // A model that imports SwiftUI for a colour holds no view (one app had ~70 such files checked).
        try repo.write("import SwiftUI\n\nstruct Theme: Equatable {\n    let accent = Color.blue\n    func tint(_ image: Image) -> Image { image }\n}\n",
                       to: "App/Model/Theme.swift")
        try repo.write(view("PreviewHarness"), to: "AppTests/PreviewHarnessTests.swift")
        try repo.commitAll("an app")
        return repo
    }

    @Test func everyViewFileIsCheckedWithNoConfiguration() throws {
        let repo = try repository()
        let result = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        let files = Set(result.standardOutput.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(files == ["App/Screens/JoinRoom/View/JoinRoomScreen.swift", "Packages/Chat/Sources/Chat/Row.swift",
                          "Features/Settings/SettingsTab.swift", "Features/Menu/BottomMenu.swift"], "\(result)")
    }

    @Test func aPushOfAViewWithAnyNameIsChecked() throws {
        let repo = try repository()
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()
        try repo.write(view("ComposerToolbar"), to: "App/Screens/Room/ComposerToolbar.swift")
        try repo.commitAll("a toolbar")
        let push = try repo.push()
        #expect(push.status != 0, "\(push)")
        #expect(push.combined.contains("App/Screens/Room/ComposerToolbar.swift:5:9: error:"), "\(push)")
        #expect(push.combined.contains("[icon-button-missing-label]"))
    }

    @Test func theSelectionIsExplained() throws {
        let repo = try repository()
        let result = try InProcess.a11y(["a11y", "--all", "--explain-selection"], in: repo.path, environment: repo.environment)
        // On standard error: the findings on standard output stay what a tool reads.
        #expect(!result.standardOutput.contains("checked:"), "\(result)")
        let notes = result.standardError.split(separator: "\n").filter { $0.hasPrefix("prepush: ") }.map { String($0.dropFirst(9)) }
        #expect(notes == [
            "App/Model/Store.swift: not checked: no view code (no View, ViewModifier or style conformance, no some View)",
            "App/Model/Theme.swift: not checked: no view code (no View, ViewModifier or style conformance, no some View)",
            "App/Screens/JoinRoom/View/JoinRoomScreen.swift: checked: declares a View",
            "AppTests/PreviewHarnessTests.swift: not checked: excluded (accessibility.exclude, or a test, build or vendored folder)",
            "Features/Menu/BottomMenu.swift: checked: declares a View",
            "Features/Settings/SettingsTab.swift: checked: declares a View",
            "Packages/Chat/Sources/Chat/Row.swift: checked: declares a View",
        ], "\(result)")
    }

    @Test func includeGlobsStillChooseWhenConfigured() throws {
        let repo = try repository()
        try repo.write("accessibility:\n  include: \"Features/**\"\n", to: ".prepush.yml")
        let result = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        let files = Set(result.standardOutput.split(separator: "\n").compactMap { $0.split(separator: ":").first.map(String.init) })
        #expect(files == ["Features/Settings/SettingsTab.swift", "Features/Menu/BottomMenu.swift"], "\(result)")
    }

    @Test func standardInputIsCheckedAsTheNamedFileOutsideAnyRepository() throws {
        let folder = try TemporaryDirectory()
        let result = try InProcess.a11y(["a11y", "--stdin-path", "Sources/Draft.swift"], in: folder.path,
                                           environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path], standardInput: view("Draft"))
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput.hasPrefix("Sources/Draft.swift:5:9: error: "), "\(result)")
        // Named files too need no repository.
        try folder.write(view("Named"), to: "Named.swift")
        let named = try InProcess.a11y(["a11y", "Named.swift"], in: folder.path, environment: ["PATH": "/usr/bin:/bin", "HOME": folder.path])
        #expect(named.status == 1, "\(named)")
        #expect(named.standardOutput.contains("Named.swift:5:9: error: "), "\(named)")
    }
}

/// What counts as a push touching a control: its call, its label and its modifiers, not what its
/// action does.
/// Own process: which lines of a control changed is the range of a real `git push` through the installed hook.
@Suite struct ControlLinesTests {
    func view(action: String, label: String) -> String {
        """
        import SwiftUI

        struct CheckoutBar: View {
            var body: some View {
                Button {
                    \(action)
                    analytics.log("pay")
                } label: {
                    Text("\(label)")
                }
            }
        }

        """
    }

    @Test func anEditInsideTheActionDoesNotReReportTheButtonButOneInItsLabelDoes() throws {
        let repo = try GitRepository()
        try repo.addUITests()
        try repo.write(view(action: "pay()", label: "Pay"), to: "App/CheckoutBar.swift")
        try repo.commitAll("a button without an identifier, from before prepush")
        try repo.git("push", "--quiet", "--no-verify", "-u", "origin", "main")
        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment).checked()

        try repo.write(view(action: "pay(using: .card)", label: "Pay"), to: "App/CheckoutBar.swift")
        try repo.commitAll("what the button does")
        let actionOnly = try repo.push()
        #expect(actionOnly.status == 0, "\(actionOnly)")
        #expect(!actionOnly.combined.contains("missing-identifier"), "\(actionOnly)")

        try repo.write(view(action: "pay(using: .card)", label: "Pay now"), to: "App/CheckoutBar.swift")
        try repo.commitAll("what the button says")
        let label = try repo.push()
        #expect(label.status != 0, "\(label)")
        #expect(label.combined.contains("App/CheckoutBar.swift:5:9: error: Button has no .accessibilityIdentifier"), "\(label)")
    }
}

/// Identifier constants declared in another file of the repository are resolved.
@Suite struct RepositoryConstantsTests {
    @Test func aDuplicateThroughConstantsOfAnotherFileIsFound() throws {
        let repo = try GitRepository()
        try repo.write("""
        enum A11y {
            enum Form {
                static let save = "form_button_save"
                static let cancel = "form_button_cancel"
            }
        }

        """, to: "App/Support/A11yIdentifiers.swift")
        try repo.write("""
        import SwiftUI

        struct FormView: View {
            var body: some View {
                HStack {
                    Button("Save") { save() }.accessibilityIdentifier(A11y.Form.save)
                    Button("Save draft") { draft() }.accessibilityIdentifier(A11y.Form.save)
                    Button("Cancel") { cancel() }.accessibilityIdentifier(A11y.Form.cancel)
                }
            }
        }

        """, to: "App/Form/FormView.swift")
        let result = try InProcess.a11y(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(result.status == 1, "\(result)")
        #expect(result.standardOutput == "App/Form/FormView.swift:7:70: error: \"form_button_save\" is already used on line 6 [duplicate-identifier]\n", "\(result)")
    }
}
