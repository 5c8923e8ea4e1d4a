import Foundation
import PrePushTestSupport
import Testing

/// A real package of 300 XCTest and 300 Swift Testing tests, run through `prepush run` again and
/// again beside two CPU burners: every run's verdict and counts are the runner's own.
///
/// Swift Testing on Linux sometimes drops a block of its console lines when its output is not a
/// terminal (`swift test > file` loses them too, without prepush: docs/reports.md), so its
/// console alone cannot be complete; its closing line and its event stream are. XCTest writes
/// from one thread, and every one of its lines reaches the log each time.
/// Own process: ten runs in one checkout, each read back from the reports folder, which a run holds until
/// its process ends: in one test process the second run on would write elsewhere and the check read the first.
@Suite(.serialized) struct OutputIntegrityPushTests {
    static let classes = 20, methods = 15

    static let built = BuiltOnce {
        let repo = try GitRepository(prefix: "prepush-integrity")
        try repo.write("""
        // swift-tools-version:6.0
        import PackageDescription

        let package = Package(name: "Big", targets: [.target(name: "Lib"), .testTarget(name: "LibTests", dependencies: ["Lib"])])

        """, to: "Package.swift")
        try repo.write("public func twice(_ x: Int) -> Int { x * 2 }\n", to: "Sources/Lib/Lib.swift")
        var xctest = "import XCTest\n@testable import Lib\n\n"
        var swiftTesting = "import Testing\n@testable import Lib\n\n"
        for type in 0..<classes {
            xctest += "final class XC\(type)Tests: XCTestCase {\n"
            swiftTesting += "@Suite struct ST\(type) {\n"
            for method in 0..<methods {
                xctest += "    func testCase\(method)() { XCTAssertEqual(twice(\(method)), \(2 * method)) }\n"
                swiftTesting += "    @Test func case\(method)() { #expect(twice(\(method)) == \(2 * method)) }\n"
            }
            xctest += "}\n"
            swiftTesting += "}\n"
        }
        try repo.write(xctest, to: "Tests/LibTests/XCTests.swift")
        try repo.write(swiftTesting, to: "Tests/LibTests/SwiftTests.swift")
        try repo.write(".build/\n", to: ".gitignore")
        try repo.commitAll("600 tests")
        _ = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment).checked()
        return repo
    }

    @Test(arguments: ["swift test --skip-build",
                      "swift test --skip-build --event-stream-output-path .build/events.jsonl --event-stream-version 0"])
    func tenRunsUnderLoadGiveTheRunnersVerdictAndEveryTest(command: String) throws {
        let repo = try Self.built.repository()
        try repo.write("cache: false\nstages:\n  unit:\n    run: \(command)\n    timeout: 300\n", to: ".prepush.yml")
        try repo.commitAll("stage: \(command)")
        let total = 2 * Self.classes * Self.methods
        var problems: [String] = []
        try CPULoad.during {
            for attempt in 1...10 {
                let run = try PrepushBinary.run(["run"], in: repo.path, environment: repo.environment)
                if run.status != 0 { problems.append("run \(attempt): exit \(run.status): \(run.standardOutput.suffix(400))") }
                if !run.standardOutput.contains("prepush: tests: \(total) passed, 0 failed\n") {
                    problems.append("run \(attempt): \(run.standardOutput.split(separator: "\n").first { $0.contains("tests:") } ?? "no count")")
                }
                let log = try String(contentsOfFile: repo.path + "/.prepush/reports/unit.log", encoding: .utf8)
                let xctestLines = log.components(separatedBy: "' passed (").count - 1
                if xctestLines != total / 2 { problems.append("run \(attempt): \(xctestLines) of \(total / 2) XCTest lines in unit.log") }
                let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: repo.path + "/.prepush/reports/results.json"))) as? [String: Any]
                let summary = json?["summary"] as? [String: Any]
                // A test whose every console line Swift Testing lost has no name, but the runner's closing line counts it.
                let counted = json?["counted"] as? [String: Any]
                if (counted?["passed"] as? Int ?? summary?["passed"] as? Int) != total || summary?["unfinished"] as? Int != 0 {
                    problems.append("run \(attempt): results.json says \(summary ?? [:]), counted \(counted ?? [:])")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(4))")
    }
}
