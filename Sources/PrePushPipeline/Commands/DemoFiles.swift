#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
import PrePushResults

/// The demo repository's app: the AgenticTodo package of shared/spec/agentic-todo-demo.md, kept as
/// real files in `Examples/AgenticTodo` (it builds and opens in Xcode on its own), copied by
/// `prepush demo`; and the edit the demo's second commit makes.
enum DemoFiles {
    /// Where the example is read from: `PREPUSH_DEMO_SOURCE`; beside an installed binary
    /// (`<prefix>/share/prepush/AgenticTodo`); or the source checkout this binary was built from.
    static func sourceFolder(environment: [String: String], executablePath: String) -> String? {
        var candidates: [String] = []
        if let named = environment["PREPUSH_DEMO_SOURCE"], !named.isEmpty { candidates.append(named) }
        candidates.append(FilePath.join(FilePath.parent(FilePath.parent(executablePath)), "share/prepush/AgenticTodo"))
        // #filePath is under Sources/ in the checkout the binary came from: the folder holding Sources/.
        var folder = FilePath.parent(#filePath)
        while folder != "/" && folder != "." && !folder.hasSuffix("/Sources") { folder = FilePath.parent(folder) }
        candidates.append(FilePath.join(FilePath.parent(folder), "Examples/AgenticTodo"))
        return candidates.first { FileManager.default.fileExists(atPath: FilePath.join($0, "Package.swift")) }
    }

    /// The example's files (relative paths), without build output.
    static func files(in folder: String) throws -> [String] {
        let skipped: Set<String> = [".build", ".swiftpm", ".git", ".prepush/reports"]
        var found: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let full = relative.isEmpty ? folder : FilePath.join(folder, relative)
            for entry in try FileManager.default.contentsOfDirectory(atPath: full).sorted() {
                let path = relative.isEmpty ? entry : FilePath.join(relative, entry)
                if skipped.contains(path) { continue }
                if FileSystem.isDirectory(FilePath.join(folder, path)) { pending.append(path) } else { found.append(path) }
            }
        }
        return found.sorted()
    }

    /// The second commit: the home screen's add button loses its identifier and a sort button with
    /// only an icon appears next to it. Both are refused before any stage runs.
    static func brokenHomeScreen(_ original: String) -> String? {
        let identifier = "                .accessibilityIdentifier(\"home_button_add\")\n"
        let iconButton = "                Button { } label: { Image(systemName: \"arrow.up.arrow.down\") }\n"
        guard original.contains(identifier) else { return nil }
        return original.replacing(identifier, with: iconButton)
    }

    /// The view the second commit edits.
    static let homeScreen = "Sources/AgenticTodoViews/Views/TaskListView.swift"

    /// The reports the first push must leave.
    static let expectedReports = ["unit.log", "ui.log", "junit.xml", "results.json", "results.md",
                                  "traceability.html", "traceability.md", "traceability.json"]
}

/// Which UI stage the demo runs: on a Mac with Xcode and an iPhone simulator, the XCUITest target of
/// the example's Xcode project through `xcodebuild`, its result bundle read back; anywhere else the
/// flow tests through `swift test`. Only the choice differs by machine: it asks `xcrun simctl`
/// (`xcrun` from PATH, or `PREPUSH_XCRUN`), which only a Mac with Xcode answers.
enum DemoUIStage {
    /// The simulator to test on: an available iPhone, newest runtime first, a booted one preferred.
    struct Simulator: Equatable {
        let name: String
        let udid: String
        let runtime: String
    }

    /// The iPhone simulators `xcrun simctl list devices available --json` lists, best first.
    static func simulators(inSimctlJSON bytes: [UInt8]) -> [Simulator] {
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)),
              case .object(let runtimes)? = root["devices"] else { return [] }
        var found: [(simulator: Simulator, booted: Bool)] = []
        for (runtime, devices) in runtimes where runtime.contains(".SimRuntime.iOS-") {
            for device in devices.array ?? [] {
                guard device["isAvailable"]?.bool != false, let name = device["name"]?.string, name.hasPrefix("iPhone"),
                      let udid = device["udid"]?.string else { continue }
                found.append((Simulator(name: name, udid: udid, runtime: runtime), device["state"]?.string == "Booted"))
            }
        }
        // `iOS-18-2` after `iOS-17-5`: compare the version numbers, not the text.
        func version(_ runtime: String) -> [Int] {
            runtime.split(separator: ".").last.map { $0.split(separator: "-").dropFirst().compactMap { Int($0) } } ?? []
        }
        return found.sorted { lhs, rhs in
            if lhs.booted != rhs.booted { return lhs.booted }
            let (left, right) = (version(lhs.simulator.runtime), version(rhs.simulator.runtime))
            if left != right { return left.lexicographicallyPrecedes(right) == false }
            return (lhs.simulator.name, lhs.simulator.udid) < (rhs.simulator.name, rhs.simulator.udid)
        }.map(\.simulator)
    }

    /// The simulator to use here, or nil (no `xcrun`, no Xcode, no available iPhone).
    static func findSimulator(environment: [String: String]) -> Simulator? {
        guard let listed = StageExecution.xcrun(["simctl", "list", "devices", "available", "--json"], environment: environment),
              listed.status == 0 else { return nil }
        return simulators(inSimctlJSON: listed.standardOutput).first
    }

    /// The example's `.prepush.yml` with its UI stage replaced by the Xcode project's XCUITest target
    /// on `simulator`: a `build-ui` stage builds the app and the tests first (its own, longer timeout:
    /// a first build takes minutes), then `ui` runs them with a result bundle that prepush reads.
    /// nil when the file does not hold the flow-test stage this replaces.
    static func configuration(_ original: String, testingOn simulator: Simulator) -> String? {
        let flowStage = """
          ui:
            # On a Mac with an iPhone simulator, prepush demo runs the XCUITest target of App/AgenticTodoApp.xcodeproj instead
            run: swift test --skip-build --filter AgenticTodoFlowTests
            timeout: 300

        """
        guard original.contains(flowStage) else { return nil }
        let destination = "-project App/AgenticTodoApp.xcodeproj -scheme AgenticTodoApp -destination 'platform=iOS Simulator,id=\(simulator.udid)' -derivedDataPath .build/DerivedData"
        let xcodeStages = """
          build-ui:
            # The app and its XCUITest target, built for \(simulator.name) (\(simulator.runtime.split(separator: ".").last ?? "")).
            run: xcodebuild build-for-testing \(destination) -quiet
            timeout: 1800
          ui:
            run: rm -rf .build/ui.xcresult && xcodebuild test-without-building \(destination) -resultBundlePath .build/ui.xcresult
            timeout: 600

        """
        return original.replacing(flowStage, with: xcodeStages)
    }
}
