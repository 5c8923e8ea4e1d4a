#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// Where an `xcodebuild` stage leaves its result bundle: the value of `-resultBundlePath` in the
/// stage's command. Reading it needs macOS (`xcrun xcresulttool`); see `ResultBundleReader`.
public enum ResultBundleLocator {
    /// The bundle path named by `-resultBundlePath` in a shell command, resolved against
    /// `workingDirectory`; nil when the command names none.
    public static func bundlePath(inCommand command: String, workingDirectory: String) -> String? {
        let words = ShellWords.split(command)
        guard let flag = words.firstIndex(where: { $0 == "-resultBundlePath" || $0 == "--resultBundlePath" }),
              flag + 1 < words.count else { return nil }
        var path = words[flag + 1]
        if !path.hasSuffix(".xcresult") { path += ".xcresult" }
        return FilePath.absolute(path, base: workingDirectory)
    }
}

/// What one `xcrun xcresulttool …` call gave: its exit status, standard output, standard error.
public struct ToolOutput: Sendable {
    public let status: Int32
    public let standardOutput: [UInt8]
    public let standardError: String

    public init(status: Int32, standardOutput: [UInt8], standardError: String) {
        self.status = status
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// Why a result bundle was not read; the stage then keeps what its console said.
public struct ResultBundleError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// Reads an `.xcresult` bundle with `xcrun xcresulttool`: `get test-results tests` (Xcode 16+),
/// falling back to `get --legacy --format json` (failures only), and exports the attachments of
/// failing tests (their screenshots) into the reports folder for `screenshotPath`. It runs on every
/// platform: only where `xcrun` comes from differs (the caller runs it, given the arguments after
/// `xcrun`), so everything here is tested on Linux against captured xcresulttool output.
public enum ResultBundleReader {
    /// Runs `xcrun` with these arguments; nil when it could not be started at all.
    public typealias Runner = ([String]) -> ToolOutput?

    /// The tests in `bundle`, with failure screenshots exported under `attachmentsFolder`.
    public static func read(bundle: String, attachmentsFolder: String, run: Runner) throws(ResultBundleError) -> TestRun {
        var testRun: TestRun
        let modern = tool(["get", "test-results", "tests", "--path", bundle], run: run)
        switch modern {
        case .success(let json):
            do { testRun = try XCResultReader.parse(Data(json), file: bundle) } catch {
                throw ResultBundleError(description: "xcresulttool's test results are not readable: \(error)")
            }
        case .failure(let modernProblem):
            // Xcode before 16 has no `test-results`: the legacy JSON holds the failures.
            guard case .success(let legacy) = tool(["get", "--legacy", "--format", "json", "--path", bundle], run: run) else {
                throw modernProblem
            }
            do { testRun = try XCResultReader.parse(Data(legacy), file: bundle) } catch {
                throw ResultBundleError(description: "xcresulttool's legacy results are not readable: \(error)")
            }
        }
        if !testRun.results.contains(where: { !$0.passed }) { return testRun }
        let exported = tool(["export", "attachments", "--path", bundle, "--output-path", attachmentsFolder, "--only-failures"], run: run)
        guard case .success = exported,
              case .success(let manifest) = FileReading.read(FilePath.join(attachmentsFolder, "manifest.json"), limit: 50_000_000) else {
            return testRun
        }
        let screenshots = screenshots(fromManifest: manifest, folder: attachmentsFolder)
        testRun.results = testRun.results.map { test in
            guard !test.passed, let path = screenshots[TestIdentifierKey.key(suite: test.suite, name: test.name)] else { return test }
            return test.withScreenshot(path)
        }
        return testRun
    }

    static func tool(_ arguments: [String], run: Runner) -> Result<[UInt8], ResultBundleError> {
        guard let output = run(["xcresulttool"] + arguments) else {
            return .failure(ResultBundleError(description: "xcrun could not be started"))
        }
        guard output.status == 0 else {
            let said = TextFormatting.trimmed(output.standardError)
            return .failure(ResultBundleError(description: "xcresulttool \(arguments.prefix(2).joined(separator: " ")) exited \(output.status)"
                + (said.isEmpty ? "" : ": \(Diagnostic.excerpt(said))")))
        }
        return .success(output.standardOutput)
    }

    /// `manifest.json` of `xcresulttool export attachments`: entries of `testIdentifier`
    /// (`Target/Class/method()`, or shorter) and `attachments` (an array, or a single object) of
    /// `exportedFileName` and `isAssociatedWithFailure`. Per test, the first image tied to the failure
    /// (else the first image, else the first file), by the key of `TestIdentifierKey`.
    public static func screenshots(fromManifest bytes: [UInt8], folder: String) -> [String: String] {
        guard let manifest = try? JSONDecoder().decode(JSONValue.self, from: Data(bytes)) else { return [:] }
        let entries = manifest.array ?? [manifest]
        var screenshots: [String: String] = [:]
        for entry in entries {
            guard let identifier = entry["testIdentifier"]?.string else { continue }
            let attachments = entry["attachments"].map { $0.array ?? [$0] } ?? []
            func isImage(_ name: String) -> Bool {
                let lower = name.lowercased()
                return lower.hasSuffix(".png") || lower.hasSuffix(".jpeg") || lower.hasSuffix(".jpg") || lower.hasSuffix(".heic")
            }
            let files = attachments.compactMap { attachment -> (name: String, failure: Bool)? in
                guard let name = attachment["exportedFileName"]?.string, !name.contains("/"), !name.hasPrefix(".") else { return nil }
                return (name, attachment["isAssociatedWithFailure"]?.bool ?? false)
            }
            let chosen = files.first { $0.failure && isImage($0.name) } ?? files.first { isImage($0.name) } ?? files.first
            if let chosen, screenshots[TestIdentifierKey.key(identifier)] == nil {
                screenshots[TestIdentifierKey.key(identifier)] = FilePath.join(folder, chosen.name)
            }
        }
        return screenshots
    }
}

/// One key for a test however a tool names it, so results and attachments meet: the last component
/// of the suite, a slash, and the test's name without an empty `()`.
///
/// - `AppUITests/LoginUITests/testLogin()` (xcresulttool's attachments manifest: target/class/method)
/// - `LoginUITests/testLogin()` and `LoginUITests/testLogin`
/// - `LoginUITests.testLogin` (XCTest on Linux), `App.LoginUITests.testLogin`
/// - `-[LoginUITests testLogin]` (XCTest on macOS)
/// - `Suite/function(arg:)` (Swift Testing: arguments are part of the name)
/// all give `LoginUITests/testLogin` (or `Suite/function(arg:)`).
public enum TestIdentifierKey {
    /// The key of a test identifier in any of the forms above.
    public static func key(_ identifier: String) -> String {
        var text = Substring(identifier)
        if text.hasPrefix("-["), text.hasSuffix("]"), let space = text.firstIndex(of: " ") {
            return key(suite: String(text[text.index(text.startIndex, offsetBy: 2)..<space]),
                       name: String(text[text.index(after: space)..<text.index(before: text.endIndex)]))
        }
        // The name is after the last `/` outside parentheses; without one, after the last `.` before any `(`.
        let openParen = text.firstIndex(of: "(") ?? text.endIndex
        if let slash = text[..<openParen].lastIndex(of: "/") {
            return key(suite: String(text[..<slash]), name: String(text[text.index(after: slash)...]))
        }
        if let dot = text[..<openParen].lastIndex(of: ".") {
            return key(suite: String(text[..<dot]), name: String(text[text.index(after: dot)...]))
        }
        text = text.hasSuffix("()") ? text.dropLast(2) : text
        return "/" + text
    }

    /// The key of a result's suite and name.
    public static func key(suite: String, name: String) -> String {
        let lastSuite = suite.split(whereSeparator: { $0 == "/" || $0 == "." }).last.map(String.init) ?? ""
        let bare = name.hasSuffix("()") ? String(name.dropLast(2)) : name
        return "\(lastSuite)/\(bare)"
    }
}
