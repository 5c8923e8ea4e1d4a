import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// Issue 52's two holes in `ui-test-identifier` on a push, through the hook (in-process, a real
/// repository with a bare remote): removing a setter other than SwiftUI's modifier (UIKit's
/// `accessibilityIdentifier =`, AppKit's `setAccessibilityIdentifier`, a scene's id) is refused like
/// removing the modifier; and storyboards, xibs and the Swift files the push does not change are read
/// as pushed, not from the working tree, which may hold uncommitted edits or another branch.
/// Own process: one push goes through the installed hook on a real `git push`, to show the remote
/// does not move when the pushed storyboard loses the identifier; the others run the hook in-process.
@Suite struct UITestIdentifierSetterPushTests {
    /// AppUITests/LoginUITests.swift: its query of `login_button` is at 7:21.
    static let uiTest = """
    import XCTest

    final class LoginUITests: XCTestCase {
        func testLogsIn() {
            let app = XCUIApplication()
            app.launch()
            app.buttons["login_button"].tap()
        }
    }

    """

    /// A view controller setting `login_button` on line 8 with `setter` (`loginButton.` prefixed).
    static func viewController(importing module: String, button: String, setter: String) -> String {
        """
        import \(module)

        final class LoginViewController: \(module == "UIKit" ? "UIViewController" : "NSViewController") {
            let loginButton = \(button)

            override func viewDidLoad() {
                super.viewDidLoad()
                loginButton.\(setter)
                view.addSubview(loginButton)
            }
        }

        """
    }

    /// A storyboard whose button's Identity inspector sets `login_button` (line 10).
    static let storyboard = """
    <?xml version="1.0" encoding="UTF-8"?>
    <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="AppleSDK" initialViewController="BYZ-38-t0r">
        <scenes>
            <scene sceneID="tne-QT-ifu">
                <objects>
                    <viewController id="BYZ-38-t0r" customClass="LoginViewController" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="8bC-Xf-vdC">
                            <subviews>
                                <button opaque="NO" contentMode="scaleToFill" id="Lgn-Bt-n01">
                                    <accessibility key="accessibilityConfiguration" identifier="login_button"/>
                                </button>
                            </subviews>
                        </view>
                    </viewController>
                </objects>
            </scene>
        </scenes>
    </document>

    """
    static let storyboardIdentifier = "                                <accessibility key=\"accessibilityConfiguration\" identifier=\"login_button\"/>\n"
    static let storyboardPath = "App/Base.lproj/Main.storyboard"

    /// `files` and the UI test committed and on the remote (pushed without checks), with a stage that
    /// always passes. The views are fully tagged, so `missing-identifier` applies to a control that
    /// loses its identifier; these tests are about the UI test's query, and turn it off.
    func repository(_ files: [String: String]) throws -> GitRepository {
        let repo = try GitRepository()
        for (path, text) in files { try repo.write(text, to: path) }
        try repo.write(Self.uiTest, to: "AppUITests/LoginUITests.swift")
        try repo.write("stages:\n  unit:\n    run: \"true\"\naccessibility:\n  rules:\n    missing-identifier: off\n", to: ".prepush.yml")
        try repo.commitAll("login")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        return repo
    }

    /// The refusal's line for `login_button`, set before at `place`.
    static func refusal(setBefore place: String) -> String {
        "AppUITests/LoginUITests.swift:7:21: error: \"login_button\" is queried here, and no view sets it after this push (\(place) set it before); set it again, or change the test with it [ui-test-identifier]"
    }

    /// Removing `setter` from the view controller and pushing is refused, naming the test's query and
    /// the line that set the identifier.
    func expectRemovalRefused(importing module: String, button: String, setter: String) throws {
        let path = "App/Login/LoginViewController.swift"
        let view = Self.viewController(importing: module, button: button, setter: setter)
        let repo = try repository([path: view])
        try repo.write(view.replacingOccurrences(of: "        loginButton.\(setter)\n", with: ""), to: path)
        try repo.commitAll("drop the login button's identifier")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(path):8")), "\(push)")
    }

    @Test func removingAUIKitAssignmentIsRefused() throws {
        try expectRemovalRefused(importing: "UIKit", button: "UIButton(type: .system)", setter: "accessibilityIdentifier = \"login_button\"")
    }

    @Test func removingSetAccessibilityIdentifierIsRefused() throws {
        try expectRemovalRefused(importing: "AppKit", button: "NSButton(title: \"Log in\", target: nil, action: nil)",
                                 setter: "setAccessibilityIdentifier(\"login_button\")")
    }

    /// A macOS UI test finds a window by its scene's id; a push that drops the id is refused.
    @Test func removingASceneIDIsRefused() throws {
        let app = "import SwiftUI\n\n@main\nstruct LoginApp: App {\n    var body: some Scene {\n        WindowGroup(id: \"login_window\") { Text(\"Log in\") }\n    }\n}\n"
        let repo = try repository(["App/LoginApp.swift": app])
        try repo.write(Self.uiTest.replacingOccurrences(of: "app.buttons[\"login_button\"].tap()", with: "XCTAssertTrue(app.windows[\"login_window\"].exists)"),
                       to: "AppUITests/LoginUITests.swift")
        try repo.commitAll("the test finds the window")
        try repo.git("push", "--quiet", "--no-verify", "origin", "main")
        try repo.write(app.replacingOccurrences(of: "WindowGroup(id: \"login_window\")", with: "WindowGroup"), to: "App/LoginApp.swift")
        try repo.commitAll("one unnamed window group")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains("AppUITests/LoginUITests.swift:7:35: error: \"login_window\" is queried here, and no view sets it after this push (App/LoginApp.swift:6 set it before)"), "\(push)")
    }

    /// The pushed storyboard no longer sets the identifier; the working tree's still does (an
    /// uncommitted edit). What is pushed decides: refused, naming the storyboard's line, through the
    /// installed hook on a real `git push` too, which leaves the remote where it was.
    @Test func aStoryboardCommittedWithoutTheIdentifierIsRefusedWhateverTheWorkingTreeHolds() throws {
        let repo = try repository([Self.storyboardPath: Self.storyboard])
        try repo.write(Self.storyboard.replacingOccurrences(of: Self.storyboardIdentifier, with: ""), to: Self.storyboardPath)
        try repo.commitAll("the button loses its identifier")
        try repo.write(Self.storyboard, to: Self.storyboardPath)
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(Self.storyboardPath):10")), "\(push)")

        _ = try InProcessCLI.run(["install"], in: repo.path, environment: repo.environment)
        let remote = try repo.remoteHead()
        let real = try repo.push()
        #expect(real.status != 0, "\(real)")
        #expect(real.combined.contains(Self.refusal(setBefore: "\(Self.storyboardPath):10")), "\(real)")
        #expect(try repo.remoteHead() == remote)
    }

    /// The reverse: the view's modifier goes, the pushed storyboard still sets the identifier, and
    /// only the working tree's copy lost it (uncommitted). The test will find the button: passes.
    @Test func aStoryboardThatStillSetsTheIdentifierAsPushedPassesWhateverTheWorkingTreeHolds() throws {
        let view = "import SwiftUI\n\nstruct LoginView: View {\n    var body: some View {\n        Button(\"Log in\") { }\n"
            + "            .accessibilityIdentifier(\"login_button\")\n    }\n}\n"
        let repo = try repository(["App/Login/LoginView.swift": view, Self.storyboardPath: Self.storyboard])
        try repo.write(view.replacingOccurrences(of: "\n            .accessibilityIdentifier(\"login_button\")", with: ""), to: "App/Login/LoginView.swift")
        try repo.commitAll("the storyboard's button is the one the test taps")
        try repo.write(Self.storyboard.replacingOccurrences(of: Self.storyboardIdentifier, with: ""), to: Self.storyboardPath)
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 0, "\(push)")
        #expect(!push.combined.contains("[ui-test-identifier]"), "\(push)")
    }

    /// A Swift file the push does not change is read as pushed too: an untracked file of the working
    /// tree that sets the identifier does not answer the test.
    @Test func aSetterOnlyInTheWorkingTreeDoesNotAnswerTheTest() throws {
        let path = "App/Login/LoginViewController.swift"
        let view = Self.viewController(importing: "UIKit", button: "UIButton(type: .system)", setter: "accessibilityIdentifier = \"login_button\"")
        let repo = try repository([path: view])
        try repo.write(view.replacingOccurrences(of: "        loginButton.accessibilityIdentifier = \"login_button\"\n", with: ""), to: path)
        try repo.commitAll("drop the login button's identifier")
        try repo.write("import UIKit\n\nfinal class Draft: UIView {\n    func setUp() { accessibilityIdentifier = \"login_button\" }\n}\n",
                       to: "App/Login/Draft.swift")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(path):8")), "\(push)")
    }

    /// A storyboard the push deletes took its identifiers with it.
    @Test func deletingTheStoryboardThatSetTheIdentifierIsRefused() throws {
        let repo = try repository([Self.storyboardPath: Self.storyboard])
        try repo.git("rm", "-q", Self.storyboardPath)
        try repo.commitAll("no storyboard")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(Self.storyboardPath):10")), "\(push)")
    }

    /// A Swift file the push deletes took its setters with it; one moved elsewhere did not.
    @Test func deletingTheViewThatSetTheIdentifierIsRefusedAndMovingItIsNot() throws {
        let path = "App/Login/LoginViewController.swift"
        let view = Self.viewController(importing: "UIKit", button: "UIButton(type: .system)", setter: "accessibilityIdentifier = \"login_button\"")
        let moved = try repository([path: view])
        try moved.git("mv", path, "App/LoginViewController.swift")
        try moved.commitAll("one folder less")
        let kept = try InProcessCLI.hook(moved)
        #expect(kept.status == 0 && !kept.combined.contains("[ui-test-identifier]"), "\(kept)")

        let repo = try repository([path: view])
        try repo.git("rm", "-q", path)
        try repo.commitAll("no login screen")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(path):8")), "\(push)")
    }

    /// The push is of a branch that is not checked out: the working tree (main) still sets the
    /// identifier, the pushed branch does not.
    @Test func aBranchNotCheckedOutIsCheckedAsPushed() throws {
        let repo = try repository([Self.storyboardPath: Self.storyboard])
        try repo.git("checkout", "-q", "-b", "feature")
        try repo.write(Self.storyboard.replacingOccurrences(of: Self.storyboardIdentifier, with: ""), to: Self.storyboardPath)
        try repo.commitAll("the button loses its identifier")
        try repo.git("checkout", "-q", "main")
        let push = try InProcessCLI.hook(repo, branch: "feature")
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(Self.storyboardPath):10")), "\(push)")
    }

    /// A storyboard in the pushed tree that is a link to a file outside the repository setting the
    /// identifier is not followed (in CI the pull request writes the tree): the removal is refused.
    @Test func aLinkedStoryboardIsNotFollowed() throws {
        let path = "App/Login/LoginViewController.swift"
        let view = Self.viewController(importing: "UIKit", button: "UIButton(type: .system)", setter: "accessibilityIdentifier = \"login_button\"")
        let repo = try repository([path: view])
        try repo.root.write(Self.storyboard, to: "outside.storyboard")
        try FileManager.default.createSymbolicLink(atPath: repo.root.url("work/App/Main.storyboard"), withDestinationPath: "../../outside.storyboard")
        try repo.write(view.replacingOccurrences(of: "        loginButton.accessibilityIdentifier = \"login_button\"\n", with: ""), to: path)
        try repo.commitAll("the identifier from a linked storyboard")
        #expect(try repo.git("ls-files", "-s", "App/Main.storyboard").hasPrefix("120000"), "committed as a link")
        let push = try InProcessCLI.hook(repo)
        #expect(push.status == 1, "\(push)")
        #expect(push.combined.contains(Self.refusal(setBefore: "\(path):8")), "\(push)")
    }
}
