import Foundation
import PrePushCore
import PrePushResults
import PrePushTestSupport
import Testing

/// The result-bundle reader, run on Linux against captured xcresulttool output: only `xcrun` itself
/// is missing here, and it is given to the reader as the function that runs it.
@Suite struct ResultBundleTests {
    static let testsJSON = Fixtures.shared + "/xcresult-json/fastlane__trainer_fixtures__Xcode16-Mixed-XCTest-SwiftTesting.json"
    static let legacyJSON = Fixtures.shared + "/xcresult-json/codemagic-cli-tools__xctests_mocks__actions_invocation_record.json"

    @Test(arguments: [
        ("AppUITests/LoginUITests/testLogin()", "LoginUITests/testLogin"),
        ("LoginUITests/testLogin()", "LoginUITests/testLogin"),
        ("LoginUITests/testLogin", "LoginUITests/testLogin"),
        ("LoginUITests.testLogin", "LoginUITests/testLogin"),
        ("App.LoginUITests.testLogin", "LoginUITests/testLogin"),
        ("-[LoginUITests testLogin]", "LoginUITests/testLogin"),
        ("AppTests/PriceTests/total(items:)", "PriceTests/total(items:)"),
        ("PriceTests/total(for: \"a/b\")", "PriceTests/total(for: \"a/b\")"),
    ])
    func everyIdentifierFormGivesOneKey(_ identifier: String, _ key: String) {
        #expect(TestIdentifierKey.key(identifier) == key)
    }

    @Test func resultsAndManifestEntriesMeet() {
        #expect(TestIdentifierKey.key(suite: "App.LoginUITests", name: "testLogin()") == TestIdentifierKey.key("AppUITests/LoginUITests/testLogin()"))
    }

    @Test func manifestAttachmentsMayBeAnArrayOrOneObject() {
        let manifest = #"""
        [
          {"testIdentifier": "AppUITests/LoginUITests/testLogin()", "attachments": [
            {"exportedFileName": "log.txt", "isAssociatedWithFailure": true},
            {"exportedFileName": "Launch_0_A1.png", "isAssociatedWithFailure": false},
            {"exportedFileName": "Failure_0_B2.png", "suggestedHumanReadableName": "Failure", "isAssociatedWithFailure": true,
             "timestamp": 1740529200.0, "deviceName": "iPhone 16", "configurationName": "Test Scheme Action"}]},
          {"testIdentifier": "AppUITests/CartUITests/testCheckout()", "attachments":
            {"exportedFileName": "Checkout_0_C3.jpeg", "isAssociatedWithFailure": true}},
          {"testIdentifier": "AppUITests/CartUITests/testEscape()", "attachments": [{"exportedFileName": "../../etc/passwd"}]}
        ]
        """#
        let screenshots = ResultBundleReader.screenshots(fromManifest: Array(manifest.utf8), folder: "/r/attachments")
        #expect(screenshots == [
            "LoginUITests/testLogin": "/r/attachments/Failure_0_B2.png",
            "CartUITests/testCheckout": "/r/attachments/Checkout_0_C3.jpeg",
        ])
    }

    /// xcresulttool as the reader calls it, replaying captured output; `export attachments` writes a
    /// manifest for the fixture's failing UI tests.
    static func replaying(tests: String? = testsJSON, legacy: String? = legacyJSON, calls: CallLog) -> ResultBundleReader.Runner {
        { arguments in
            calls.append(arguments.joined(separator: " "))
            switch Array(arguments.prefix(3)) {
            case ["xcresulttool", "get", "test-results"]:
                guard let tests, let data = FileManager.default.contents(atPath: tests) else {
                    return ToolOutput(status: 64, standardOutput: [], standardError: "error: unrecognized subcommand 'test-results'")
                }
                return ToolOutput(status: 0, standardOutput: [UInt8](data), standardError: "")
            case ["xcresulttool", "get", "--legacy"]:
                guard let legacy, let data = FileManager.default.contents(atPath: legacy) else { return ToolOutput(status: 1, standardOutput: [], standardError: "") }
                return ToolOutput(status: 0, standardOutput: [UInt8](data), standardError: "")
            case ["xcresulttool", "export", "attachments"]:
                let folder = arguments[arguments.firstIndex(of: "--output-path")! + 1]
                try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                FileManager.default.createFile(atPath: folder + "/Nav_0_1.png", contents: Data([0x89, 0x50, 0x4E, 0x47]))
                let manifest = #"[{"testIdentifier": "FastlaneTrainerExampleUITests/FastlaneTrainerExampleUITests/testBasicNavigation()", "attachments": [{"exportedFileName": "Nav_0_1.png", "isAssociatedWithFailure": true}]}]"#
                FileManager.default.createFile(atPath: folder + "/manifest.json", contents: Data(manifest.utf8))
                return ToolOutput(status: 0, standardOutput: [], standardError: "")
            default:
                return ToolOutput(status: 1, standardOutput: [], standardError: "unexpected")
            }
        }
    }

    final class CallLog: @unchecked Sendable {
        private(set) var calls: [String] = []
        func append(_ call: String) { calls.append(call) }
    }

    @Test func aBundleGivesEveryTestAndTheFailingOnesTheirScreenshot() throws {
        let folder = try TemporaryDirectory()
        let calls = CallLog()
        let run = try ResultBundleReader.read(bundle: "/b/R.xcresult", attachmentsFolder: folder.url("attachments"), run: Self.replaying(calls: calls))
        #expect(run.results.count > 30)
        let navigation = try #require(run.results.first { $0.name == "testBasicNavigation()" })
        #expect(navigation.status == .failed)
        #expect(navigation.screenshotPath == folder.url("attachments") + "/Nav_0_1.png")
        #expect(run.results.filter { $0.screenshotPath != nil }.count == 1)
        #expect(calls.calls.first == "xcresulttool get test-results tests --path /b/R.xcresult")
        #expect(calls.calls.last?.hasPrefix("xcresulttool export attachments --path /b/R.xcresult --output-path ") == true)
    }

    @Test func withoutTestResultsTheLegacyFormIsRead() throws {
        let folder = try TemporaryDirectory()
        let calls = CallLog()
        let run = try ResultBundleReader.read(bundle: "/b/R.xcresult", attachmentsFolder: folder.url("a"), run: Self.replaying(tests: nil, calls: calls))
        #expect(!run.results.isEmpty)
        #expect(run.results.allSatisfy { $0.status == .failed })
        #expect(calls.calls.prefix(2) == ["xcresulttool get test-results tests --path /b/R.xcresult", "xcresulttool get --legacy --format json --path /b/R.xcresult"])
    }

    @Test func anUnreadableBundleIsAnErrorThatSaysWhy() throws {
        let folder = try TemporaryDirectory()
        #expect {
            try ResultBundleReader.read(bundle: "/b/R.xcresult", attachmentsFolder: folder.url("a"),
                                        run: Self.replaying(tests: nil, legacy: nil, calls: CallLog()))
        } throws: { error in
            "\(error)" == "xcresulttool get test-results exited 64: error: unrecognized subcommand 'test-results'"
        }
        let garbage = try folder.write("{not json", to: "garbage.json")
        #expect(throws: ResultBundleError.self) {
            try ResultBundleReader.read(bundle: "/b/R.xcresult", attachmentsFolder: folder.url("a"),
                                        run: Self.replaying(tests: garbage, calls: CallLog()))
        }
    }
}
