import Foundation
import PrePushCore
import PrePushTestSupport
import PrePushResults
import PrePushTestDiscovery
import PrePushTraceability
import Testing

/// Discovery over Tests/Fixtures/traceability: a UI-test target with its own base class, an
/// extension, `#if`, a nested type and a helper that is not a test case; Swift Testing suites.
@Suite struct DiscoveryTests {
    static let root = Fixtures.own + "/traceability"

    static func inventory() -> TestInventory {
        let files = TestDiscovery.files(under: root, include: [Glob("Tests/**/*.swift"), Glob("**/*Tests/**/*.swift")])
        let constants = TestDiscovery.files(under: root, include: [Glob("**/LaunchArguments*.swift")])
        return TestDiscovery.discover(root: root, testFiles: files, constantFiles: constants)
    }

    /// Sharding counts only the tests compiled where the stage runs; the report keeps every branch.
    @Test func aPlatformLeavesOutTheTestsItsIfBranchesDoNotCompile() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-ifconfig")
        try """
        import XCTest
        final class PlatformTests: XCTestCase {
            func testEverywhere() { XCTAssertEqual([1, 2].count, 2) }
            #if os(macOS)
            func testMacOnly() { XCTAssertEqual([1, 2].count, 2) }
            #elseif os(Linux)
            func testLinuxOnly() { XCTAssertEqual([1, 2].count, 2) }
            #else
            func testElsewhere() { XCTAssertEqual([1, 2].count, 2) }
            #endif
            #if canImport(UIKit) || (os(macOS) && !DEBUG)
            func testUIKit() { XCTAssertEqual([1, 2].count, 2) }
            #endif
            #if !os(Linux) && canImport(XCTest)
            func testNotLinux() { XCTAssertEqual([1, 2].count, 2) }
            #endif
            #if compiler(>=5.9) && canImport(Glibc)
            func testGlibc() { XCTAssertEqual([1, 2].count, 2) }
            #endif
            #if someUnknownCondition(1)
            func testUnreadable() { XCTAssertEqual([1, 2].count, 2) }
            #endif
        }
        """.write(toFile: folder.url("PlatformTests.swift"), atomically: true, encoding: .utf8)
        func names(_ platform: BuildPlatform?) -> [String] {
            TestDiscovery.discover(root: folder.path, testFiles: ["PlatformTests.swift"], platform: platform).tests.map(\.name).sorted()
        }
        #expect(names(nil) == ["testElsewhere", "testEverywhere", "testGlibc", "testLinuxOnly", "testMacOnly", "testNotLinux", "testUIKit", "testUnreadable"])
        let linux = BuildPlatform(operatingSystem: "Linux", architecture: "x86_64")
        #expect(names(linux) == ["testEverywhere", "testGlibc", "testLinuxOnly", "testUnreadable"])
        let iOS = BuildPlatform.of(command: "xcodebuild test -scheme App -destination 'platform=iOS Simulator,name=iPhone 16'")
        #expect(iOS.operatingSystem == "iOS")
        #expect(names(iOS) == ["testElsewhere", "testEverywhere", "testNotLinux", "testUIKit", "testUnreadable"])
        #expect(names(BuildPlatform(operatingSystem: "macOS", architecture: "arm64")) == ["testEverywhere", "testMacOnly", "testNotLinux", "testUnreadable"])
    }

    @Test func theDefaultGlobsFindTheTestFolders() {
        let files = TestDiscovery.files(under: Self.root, include: [Glob("Tests/**/*.swift"), Glob("**/*Tests/**/*.swift")])
        #expect(files == ["AgenticTodoUITests/BaseUITestCase.swift", "AgenticTodoUITests/Flows/TaskFlowUITests.swift",
                          "AgenticTodoUITests/LoginUITests.swift", "Tests/AgenticTodoTests/TaskModelTests.swift"])
    }

    @Test func everyTestIsFoundWithItsPlaceAndNothingElse() {
        let found = Self.inventory().tests.map { "\($0.framework.rawValue) \($0.typeName ?? "-").\($0.name) \($0.location.file):\($0.location.line)" }
        #expect(found == [
            "xctest Flows.TaskFlowUITests.test_tasks_addTask AgenticTodoUITests/Flows/TaskFlowUITests.swift:10",
            "xctest Flows.TaskFlowUITests.test_tasks_swipeToDelete AgenticTodoUITests/Flows/TaskFlowUITests.swift:16",
            "xctest LoginUITests.test_login_validCredentials AgenticTodoUITests/LoginUITests.swift:4",
            "xctest LoginUITests.test_login_invalidPassword AgenticTodoUITests/LoginUITests.swift:11",
            "xctest LoginUITests.test_login_forgotPassword AgenticTodoUITests/LoginUITests.swift:16",
            "xctest LoginUITests.test_login_keyboardDismiss AgenticTodoUITests/LoginUITests.swift:28",
            "swiftTesting TaskModelTests.test_model_toggleDone Tests/AgenticTodoTests/TaskModelTests.swift:6",
            "swiftTesting TaskModelTests.test_model_sortByPriority Tests/AgenticTodoTests/TaskModelTests.swift:11",
            "swiftTesting TaskModelTests.Nested.test_model_nestedCase Tests/AgenticTodoTests/TaskModelTests.swift:16",
            "swiftTesting -.test_appState_logout Tests/AgenticTodoTests/TaskModelTests.swift:20",
        ])
        #expect(Self.inventory().suites == ["TaskModelTests", "TaskModelTests.Nested"])
    }

    @Test func launchArgumentsComeFromTheBodySetUpAndCalledHelpersUpTheClassChain() throws {
        let tests = Dictionary(uniqueKeysWithValues: Self.inventory().tests.map { ($0.name, $0) })
        #expect(tests["test_login_validCredentials"]?.launchArguments == ["--uitesting", "--reset-onboarding"])
        #expect(tests["test_login_keyboardDismiss"]?.launchArguments == ["--uitesting", "--skip-onboarding"], "through launchLoggedIn()")
        #expect(tests["test_tasks_addTask"]?.launchArguments == ["--uitesting", "--initial-language=en-US", "--mock-permissions",
                                                                 "--mock-permissions=granted", "--seed-tasks"])
        let addTask = try #require(tests["test_tasks_addTask"])
        #expect(addTask.passes("--initial-language"), "a requirement without a value accepts any value")
        #expect(addTask.passes("--mock-permissions=granted"))
        #expect(!addTask.passes("--mock-permissions=denied"))
        #expect(!addTask.passes("--skip-onboarding"))
        #expect(tests["test_model_toggleDone"]?.launchArguments == [])
    }
}

@Suite struct MatrixTests {

    static func matrix() throws -> TraceabilityMatrix {
        let catalog = try ScenarioCatalog.load(path: DiscoveryTests.root + "/scenarios.yml", displayPath: "scenarios.yml")
        let junit = try Array(Data(contentsOf: URL(fileURLWithPath: DiscoveryTests.root + "/junit.xml")))
        let results = try JUnitReader.parse(junit, file: "junit.xml").results
        return TraceabilityMatrix(catalog: catalog, inventory: DiscoveryTests.inventory(), results: results)
    }

    @Test func eachScenarioHasItsStatus() throws {
        let rows = try Self.matrix().rows.map { "\($0.scenario.testMethodName) \($0.status.rawValue)" }
        #expect(rows == [
            "test_login_validCredentials failed", "test_login_invalidPassword passed", "test_login_forgotPassword not run",
            "test_tasks_addTask not run", "test_model_toggleDone passed", "test_tasks_reorder no test", "test_tasks_dueNotification manual",
        ])
    }

    @Test func missingLaunchArgumentsAreNamed() throws {
        let rows = try Self.matrix().rows
        #expect(rows[1].missingLaunchArguments == ["--skip-onboarding"], "test_login_invalidPassword launches without it")
        #expect(rows[0].missingLaunchArguments.isEmpty)
        #expect(rows[3].missingLaunchArguments.isEmpty, "--initial-language is passed with a value")
    }

    @Test func countsByStoryAndPriorityLeaveManualOut() throws {
        let matrix = try Self.matrix()
        #expect(matrix.total == CoverageCount(total: 7, implemented: 5, passed: 2, failed: 1, notRun: 2, manual: 1))
        #expect(matrix.byStory.map(\.story) == ["US1", "US2"])
        #expect(matrix.byStory[1].count == CoverageCount(total: 4, implemented: 2, passed: 1, failed: 0, notRun: 1, manual: 1))
        #expect(matrix.byPriority.map(\.priority) == [.p1, .p2, .p3])
        #expect(matrix.byPriority[0].count == CoverageCount(total: 3, implemented: 3, passed: 1, failed: 1, notRun: 1, manual: 0))
        #expect(matrix.unmappedTests.map(\.name) == ["test_tasks_swipeToDelete", "test_login_keyboardDismiss", "test_model_sortByPriority",
                                                     "test_model_nestedCase", "test_appState_logout"])
    }

    @Test func theDefaultGateRefusesFailingNotRunAndTestlessP1Scenarios() throws {
        let matrix = try Self.matrix()
        #expect(TraceabilityGate().violations(in: matrix) == [
            "P1 scenario test_login_validCredentials (US1: Sign in with a valid email and password) failed: XCTAssertTrue failed - login_button_submit not found (LoginUITests.swift:7)",
            "P1 scenario test_tasks_addTask (US2: Add a task with notifications granted) did not run: no result names Flows.TaskFlowUITests/test_tasks_addTask",
        ])
        // The hook's rule: no test of TaskFlowUITests has a result, so its stage did not run; said, not refused.
        var hook = TraceabilityGate()
        hook.notRun = .refuseWhenItsSuiteRan
        #expect(hook.violations(in: matrix).count == 1)
        let strict = TraceabilityGate(blocking: [.p1, .p2]).violations(in: matrix)
        #expect(strict.count == 4)
        #expect(strict.contains("P2 scenario test_tasks_reorder (US2: Reorder tasks by dragging) has no test; catalog: scenarios.yml:29:5"))
        #expect(strict.contains("P2 scenario test_login_invalidPassword (US1: A wrong password shows an error): AgenticTodoUITests/LoginUITests.swift:11:10 does not pass --skip-onboarding"))
        #expect(TraceabilityGate(blocking: []).violations(in: matrix).isEmpty)
    }

    /// A red build ran no test: the gate says so once, not once for each scenario without a result.
    @Test func aRedBuildIsOneLineNotOnePerScenario() throws {
        let catalog = try ScenarioCatalog.load(path: DiscoveryTests.root + "/scenarios.yml", displayPath: "scenarios.yml")
        var matrix = TraceabilityMatrix(catalog: catalog, inventory: DiscoveryTests.inventory(), results: [])
        let gate = TraceabilityGate(blocking: [.p1, .p2, .p3])
        let perScenario = gate.violations(in: matrix)
        let notRun = perScenario.filter { $0.contains(" did not run") }
        #expect(notRun.count >= 3, "\(perScenario)")
        matrix.buildFailed = true
        let once = gate.violations(in: matrix)
        #expect(once == perScenario.filter { !$0.contains(" did not run") } + ["the build failed: \(notRun.count) scenarios have no result"])
    }

    /// A P1 scenario whose only test is quarantined is not covered: the test never refuses a push,
    /// so a pass of it says nothing the gate may rely on.
    @Test func aP1ScenarioWithOnlyAQuarantinedTestCountsAsUncovered() throws {
        let matrix = try Self.matrix()
        let passing = try #require(matrix.rows.first { $0.scenario.priority == .p1 && $0.status == .passed })
        let identifier = try #require(passing.result?.testIdentifier)
        var gate = TraceabilityGate()
        gate.quarantine = Quarantine([QuarantineEntry(pattern: identifier, reason: "flaky on CI, JIRA-7")])
        let violations = gate.violations(in: matrix)
        #expect(violations.count == 3)
        #expect(violations.contains { $0.hasSuffix("has only a quarantined test, \(identifier) (flaky on CI, JIRA-7): it counts as uncovered") }, "\(violations)")
        // Quarantining a P3 test changes nothing.
        gate.quarantine = Quarantine([QuarantineEntry(pattern: "*.test_tasks_addTask", reason: "slow")])
        #expect(gate.violations(in: matrix).count == 2)
    }
}
