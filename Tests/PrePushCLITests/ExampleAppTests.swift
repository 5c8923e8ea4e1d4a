import Foundation
import PrePushCommandTestSupport
import PrePushTestSupport
import Testing

/// `Examples/AgenticTodo`, the app `prepush demo` copies, is a real package: it builds here, its
/// unit and flow tests pass, its views pass the accessibility check, and its catalog lints with one
/// warning: the P3 scenario it leaves without a test on purpose.
/// Own process: `prepush demo` finds its example app beside the executable and reads `PREPUSH_XCRUN`
/// and `TMPDIR` from the process's own environment.
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
        let a11y = try InProcessCLI.run(["a11y", "--all"], in: repo.path, environment: repo.environment)
        #expect(a11y.status == 0, "\(a11y)")
        let lint = try InProcessCLI.run(["scenarios", "lint"], in: repo.path, environment: repo.environment)
        #expect(lint.status == 0, "\(lint)")
        // The one scenario the demo leaves without a test (P3, shown as "no test" in its matrix) is the only warning.
        #expect(lint.standardOutput.contains("9 scenarios in 3 stories (1 manual): 1 warning"), "\(lint)")
        #expect(lint.standardError == ".prepush/scenarios.yml:19:5: warning: test_login_forgotPassword has no test in the sources\n", "\(lint)")
    }

    /// The Xcode project is written by hand (no Xcode here): every object it names exists, its UI-test
    /// target compiles exactly the files in UITests/AgenticTodoUITests, the app links products the
    /// package declares, and the shared scheme points at the project's two targets.
    @Test func theXcodeProjectIsWholeAndHoldsEveryXCUITestFile() throws {
        let project = try String(contentsOfFile: Self.source + "/App/AgenticTodoApp.xcodeproj/project.pbxproj", encoding: .utf8)
        let referenced = Set(project.matches(of: /\b[0-9A-F]{24}\b/).map { String($0.output) })
        let defined = Set(project.matches(of: /(?m)^\t\t([0-9A-F]{24})\b[^\n]*= \{/).map { String($0.output.1) })
        #expect(referenced == defined, "named but not defined: \(referenced.subtracting(defined)); defined, never named: \(defined.subtracting(referenced))")
        #expect(project.filter { $0 == "{" }.count == project.filter { $0 == "}" }.count)
        #expect(project.filter { $0 == "(" }.count == project.filter { $0 == ")" }.count)

        let uiTests = try FileManager.default.contentsOfDirectory(atPath: Self.source + "/UITests/AgenticTodoUITests").filter { $0.hasSuffix(".swift") }.sorted()
        #expect(uiTests == ["LoginUITests.swift", "TaskUITests.swift"])
        for file in uiTests { #expect(project.contains("/* \(file) in Sources */ = {isa = PBXBuildFile;"), "\(file) is not compiled by the UI-test target") }
        #expect(project.contains("path = ../UITests/AgenticTodoUITests;"))
        #expect(project.contains("productType = \"com.apple.product-type.bundle.ui-testing\";"))
        #expect(project.contains("TEST_TARGET_NAME = AgenticTodoApp;"))
        #expect(project.contains("isa = XCLocalSwiftPackageReference;\n\t\t\trelativePath = ..;"))
        let manifest = try String(contentsOfFile: Self.source + "/Package.swift", encoding: .utf8)
        for product in project.matches(of: /productName = (AgenticTodo\w+);\n\t\t\};/).map({ String($0.output.1) }) {
            #expect(manifest.contains(".library(name: \"\(product)\""), "the app links \(product), which Package.swift does not declare")
        }
        #expect(FileManager.default.fileExists(atPath: Self.source + "/App/AgenticTodoApp/AgenticTodoApp.swift"))

        let scheme = try String(contentsOfFile: Self.source + "/App/AgenticTodoApp.xcodeproj/xcshareddata/xcschemes/AgenticTodoApp.xcscheme", encoding: .utf8)
        for blueprint in scheme.matches(of: /BlueprintIdentifier = "([0-9A-F]{24})"/).map({ String($0.output.1) }) {
            #expect(defined.contains(blueprint), "the scheme names \(blueprint), which the project does not define")
        }
        #expect(scheme.contains("BuildableName = \"AgenticTodoUITests.xctest\""))
        // xmllint reads the scheme (it is XML; the project file is not).
        let xmllint = try Command.run("xmllint", ["--noout", Self.source + "/App/AgenticTodoApp.xcodeproj/xcshareddata/xcschemes/AgenticTodoApp.xcscheme"],
                                      in: Self.source, environment: ProcessInfo.processInfo.environment)
        #expect(xmllint.status == 0, "\(xmllint)")
    }

    /// Where `xcrun simctl` lists an iPhone (a Mac with Xcode), `prepush demo` makes the UI stage the
    /// project's XCUITest target through xcodebuild, and says so. Here an `xcrun` that only lists
    /// simulators (in the shape of `simctl list devices available --json`) stands in for Xcode's; with
    /// no xcodebuild on this machine, the first push then fails at building the app, as it must.
    @Test func theDemoRunsTheXCUITestTargetWhereXcrunListsAnIPhone() throws {
        let folder = try TemporaryDirectory(prefix: "prepush-demo-xcrun")
        let listing = """
        {
          "devices" : {
            "com.apple.CoreSimulator.SimRuntime.iOS-17-5" : [
              { "udid" : "11111111-1111-1111-1111-111111111111", "isAvailable" : true, "state" : "Shutdown", "name" : "iPhone 15" }
            ],
            "com.apple.CoreSimulator.SimRuntime.iOS-18-2" : [
              { "udid" : "22222222-2222-2222-2222-222222222222", "isAvailable" : true, "state" : "Shutdown", "name" : "iPad Air 11-inch (M2)" },
              { "udid" : "33333333-3333-3333-3333-333333333333", "isAvailable" : true, "state" : "Shutdown", "name" : "iPhone 16" }
            ]
          }
        }
        """
        try folder.write(listing, to: "simctl.json")
        let xcrun = try folder.write("#!/bin/sh\n[ \"$1 $2 $3\" = \"simctl list devices\" ] || exit 1\ncat \(folder.url("simctl.json"))\n", to: "xcrun", executable: true)
        var environment = ProcessInfo.processInfo.environment
        environment["PREPUSH_XCRUN"] = xcrun
        environment["TMPDIR"] = folder.path
        let demo = try PrepushBinary.run(["demo", "--keep"], in: folder.path, environment: environment)
        #expect(demo.standardOutput.contains("demo: the UI stage runs the XCUITest target of App/AgenticTodoApp.xcodeproj with xcodebuild on the iPhone 16 simulator (33333333-3333-3333-3333-333333333333)"), "\(demo)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasPrefix("prepush-demo-") }
        let configuration = try String(contentsOfFile: folder.url("\(kept ?? "")/AgenticTodo/.prepush.yml"), encoding: .utf8)
        #expect(configuration.contains("run: xcodebuild build-for-testing -project App/AgenticTodoApp.xcodeproj -scheme AgenticTodoApp -destination 'platform=iOS Simulator,id=33333333-3333-3333-3333-333333333333'"), "\(configuration)")
        #expect(configuration.contains("-resultBundlePath .build/ui.xcresult"), "\(configuration)")
        // The configuration the demo writes is one prepush accepts.
        let check = try InProcessCLI.run(["config"], in: folder.url("\(kept ?? "")/AgenticTodo"), environment: ProcessInfo.processInfo.environment)
        #expect(check.status == 0, "\(check)")
        // No xcodebuild here: the app cannot be built, so push 1 fails at build-ui and the demo says so.
        #expect(demo.status == 1)
        #expect(demo.combined.contains("build-ui"), "\(demo)")
        #expect(demo.standardOutput.contains("demo: push 1 did NOT pass as expected"), "\(demo)")
    }
}
