import Foundation
import PrePushTestSupport
import Testing

/// `Examples/AgenticTodo`, the app `prepush demo` copies, is a real package: it builds here, its
/// unit and flow tests pass, its views pass the accessibility check, and its catalog lints clean.
@Suite struct ExampleAppTests {
    static let source = Fixtures.repositoryRoot.appendingPathComponent("Examples/AgenticTodo").path

    @Test func theExampleBuildsItsTestsPassAndItsViewsAndCatalogAreClean() throws {
        let repo = try GitRepository(prefix: "prepush-example")
        for item in try FileManager.default.contentsOfDirectory(atPath: Self.source) where item != ".build" && item != ".swiftpm" {
            try FileManager.default.copyItem(atPath: Self.source + "/" + item, toPath: repo.path + "/" + item)
        }
        try repo.commitAll("the example")
        let build = try Command.run("swift", ["build", "--build-tests", "-q"], in: repo.path, environment: repo.environment)
        #expect(build.status == 0, "\(build)")
        let test = try Command.run("swift", ["test", "--skip-build"], in: repo.path, environment: repo.environment)
        #expect(test.status == 0, "\(test)")
        for name in ["test_login_validCredentials", "test_tasks_addTask", "test_settings_clearData"] {
            #expect(test.combined.contains(name), "\(name) did not run: \(test.combined)")
        }
        let a11y = try PrepushBinary.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(a11y.status == 0, "\(a11y)")
        let lint = try PrepushBinary.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 0, "\(lint)")
        #expect(lint.combined.contains("no problems"), "\(lint)")
        // The XCUITest sources are a target of the package, compiled (to nothing off iOS) with the rest.
        #expect(try String(contentsOfFile: repo.path + "/Package.swift", encoding: .utf8).contains("path: \"UITests/AgenticTodoUITests\""))
    }
}
