import Foundation
import PrePushTestSupport
import Testing

/// Every kind of run says each thing once: no line of prepush's own is printed twice, whatever the
/// run came to (issue 38: "nothing to run" was said twice, a compile error once per reader).
/// Own process: five runs in one checkout, each as a user's; in one test process the first would hold the
/// reports folder to the end, and the others would run (and print) as runs beside a busy one.
@Suite struct OutputLinesTests {
    /// prepush's own lines (its prefix, `error:`) said more than once in `text`.
    func repeated(_ text: String) -> [String] {
        let own = text.split(separator: "\n").map(String.init).filter { $0.hasPrefix("prepush") || $0.hasPrefix("error:") }
        return Dictionary(grouping: own, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
    }

    @Test func eachKindOfRunSaysEachLineOnce() throws {
        let repo = try GitRepository()
        try repo.write("import SwiftUI\nstruct A: View { var body: some View { Text(\"A\") } }\n", to: "App/A.swift")
        try repo.write("scenarios:\n  - story: US1\n    priority: P2\n    description: Show A\n    test: test_show_a\n", to: ".prepush/scenarios.yml")
        try repo.write("traceability:\n  catalog: .prepush/scenarios.yml\n", to: ".prepush.yml")
        try repo.commitAll("a view")
        var runs: [(String, CommandResult)] = []
        // Nothing to run, with a catalog: the matrix and the verdict.
        runs.append(("nothing to run", try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)))
        // A stage that passes, one that fails with a test failure, a configuration error.
        try repo.write("stages:\n  unit:\n    run: echo 'Test Suite All tests passed'\n", to: ".prepush.yml")
        runs.append(("a passing stage", try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)))
        try repo.write("echo 'Tests/ATests/ATests.swift:3: error: -[ATests.ATests testA] : XCTAssertTrue failed'\nexit 1\n", to: "fail.sh")
        try repo.write("stages:\n  unit:\n    run: sh fail.sh\n", to: ".prepush.yml")
        runs.append(("a failing stage", try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)))
        try repo.write("stages:\n  unit:\n    run: true\n    timeout: forever\n", to: ".prepush.yml")
        runs.append(("a configuration error", try PrepushBinary.run(["run", "--base", "HEAD"], in: repo.path, environment: repo.environment)))
        // A view refused before any stage.
        try repo.write("stages:\n  unit:\n    run: true\n", to: ".prepush.yml")
        try repo.write("import SwiftUI\nstruct A: View { var body: some View { Button { } label: { Image(systemName: \"plus\") } } }\n", to: "App/A.swift")
        try repo.commitAll("an icon button")
        runs.append(("a refused view", try PrepushBinary.run(["run", "--base", "HEAD~1"], in: repo.path, environment: repo.environment)))
        #expect(runs.map(\.1.status) == [0, 0, 1, 2, 1], "\(runs)")
        for (kind, run) in runs {
            #expect(repeated(run.standardOutput).isEmpty && repeated(run.standardError).isEmpty && repeated(run.combined).isEmpty,
                    "\(kind): \(repeated(run.combined))\n\(run)")
        }
        #expect(runs[0].1.standardOutput.components(separatedBy: "prepush: nothing to run").count == 2, "\(runs[0].1)")
        #expect(runs[3].1.standardError.hasPrefix(".prepush.yml:4:14: error: "), "\(runs[3].1)")
    }
}
