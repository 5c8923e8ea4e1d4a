import Foundation
import PrePushCore
import PrePushTestDiscovery
import PrePushTestSupport
import PrePushTraceability
import Testing

/// Results the console named without their suite get their identity from the sources: here the
/// TrustPackage's six suites that each declare `emitModule()` in one file, a hanging XCTest and a
/// hanging Swift Testing test (Tests/Fixtures/TrustPackage, which TrustTests also runs for real).
@Suite struct IdentityTests {
    static let identities: TestIdentities = {
        let root = Fixtures.own + "/TrustPackage"
        let files = TestDiscovery.files(under: root, include: [Glob("Tests/**/*.swift")])
        return TestIdentities(inventory: TestDiscovery.discover(root: root, testFiles: files))
    }()

    /// As Swift Testing's console gives them: the function, no suite.
    static func emitModule(_ status: TestStatus, failingAt line: Int? = nil) -> UITestResult {
        UITestResult(suite: "", name: "emitModule()", status: status, duration: 0.001,
                     failures: line.map { [TestFailure(message: "Expectation failed", location: SourceLocation(file: "SameNameTests.swift", line: $0, column: 31))] } ?? [])
    }

    @Test func theFailureIsPlacedByItsLineAndTheFivePassesTakeOneSuiteEach() {
        let results = [Self.emitModule(.passed), Self.emitModule(.failed, failingAt: 22)] + (0..<4).map { _ in Self.emitModule(.passed) }
        let resolved = Self.identities.resolve(results)
        #expect(resolved[1].testIdentifier == "TrustTests.Module4Tests.emitModule()")
        #expect(resolved[1].failures == results[1].failures && resolved[1].status == .failed)
        #expect(Set(resolved.map(\.suite)) == Set((1...6).map { "TrustTests.Module\($0)Tests" }))
    }

    /// Six same-named results that did not all end alike, and a failure that places none of them:
    /// which is which cannot be told, so none is guessed.
    @Test func resultsThatCannotBeToldApartKeepTheConsolesName() {
        let results = (0..<5).map { _ in Self.emitModule(.passed) } + [Self.emitModule(.unfinished)]
        #expect(Self.identities.resolve(results) == results)
        // A name no test of the sources has is left alone too.
        let unknown = [UITestResult(suite: "", name: "elsewhere()", status: .passed, duration: 0)]
        #expect(Self.identities.resolve(unknown) == unknown)
    }

    /// A retry runs only the tests it was given: its one bare result is that test.
    @Test func aRetrysResultIsTheTestItWasAskedToRun() {
        let resolved = Self.identities.resolve([Self.emitModule(.passed)], among: ["TrustTests.Module4Tests.emitModule()"])
        #expect(resolved.map(\.testIdentifier) == ["TrustTests.Module4Tests.emitModule()"])
    }

    /// XCTest on Linux names `Class.method` without the module; the event stream's module-first
    /// suites are already whole and stay as they are.
    @Test func xctestOnLinuxGetsItsModuleAndWholeNamesStay() {
        let linux = UITestResult(suite: "HangTests", name: "testHang", status: .unfinished, duration: 0)
        let whole = UITestResult(suite: "TrustTests.Module2Tests", name: "emitModule()", status: .passed, duration: 0)
        let resolved = Self.identities.resolve([linux, whole])
        #expect(resolved.map(\.testIdentifier) == ["TrustTests.HangTests.testHang", "TrustTests.Module2Tests.emitModule()"])
        #expect(Self.identities.identityOfShortName["HangTests.testHang"] == "TrustTests.HangTests.testHang")
        // A result bundle names the class without its module and the method with `()`; a Swift
        // Testing suite without its module.
        let bundle = [UITestResult(suite: "HangTests", name: "testHang()", status: .passed, duration: 0),
                      UITestResult(suite: "HangingSuite", name: "hangs()", status: .passed, duration: 0)]
        #expect(Self.identities.resolve(bundle).map(\.testIdentifier) == ["TrustTests.HangTests.testHang", "TrustTests.HangingSuite.hangs()"])
        #expect(Self.identities.identityOfShortName["emitModule()"] == nil, "six tests share it")
    }
}

/// Build folders of any scratch path hold the dependencies' checkouts, tests included: never read.
@Suite struct ScratchFolderTests {
    @Test func aScratchPathsCheckoutsAreNotTheProjectsTests() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-scratch")
        let test = "import XCTest\nfinal class ATests: XCTestCase { func testA() { XCTAssertEqual(1 + 1, 2) } }\n"
        _ = try folder.write(test, to: "Tests/AppTests/ATests.swift")
        for scratch in [".build", ".build-static", ".build_linux"] {
            _ = try folder.write(test, to: "\(scratch)/checkouts/swift-syntax/Tests/SwiftParserTests/ATests.swift")
        }
        let files = TestDiscovery.files(under: folder.path, include: [Glob("Tests/**/*.swift"), Glob("**/*Tests/**/*.swift")])
        #expect(files == ["Tests/AppTests/ATests.swift"])
    }
}
