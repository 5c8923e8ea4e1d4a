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

/// Splits a command line into words the way /bin/sh would for simple commands: blanks separate,
/// single and double quotes group, a backslash escapes. Enough to find an argument's value.
enum ShellWords {
    static func split(_ command: String) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in command {
            if escaped { current.append(character); escaped = false; inWord = true; continue }
            if character == "\\" && quote != "'" { escaped = true; continue }
            if let open = quote {
                if character == open { quote = nil } else { current.append(character) }
                continue
            }
            switch character {
            case "'", "\"": quote = character; inWord = true
            case " ", "\t", "\n", ";", "&", "|":
                if inWord { words.append(current); current = ""; inWord = false }
            default: current.append(character); inWord = true
            }
        }
        if inWord { words.append(current) }
        return words
    }
}

#if os(macOS)
/// Reads an `.xcresult` bundle with `xcrun xcresulttool`: `get test-results tests` (Xcode 16+),
/// falling back to `get --legacy --format json` (failures only), and exports the attachments of
/// failing tests (their screenshots) into the reports folder for `screenshotPath`.
public enum ResultBundleReader {
    /// The tests in `bundle`, with failure screenshots exported under `attachmentsFolder`.
    public static func read(bundle: String, attachmentsFolder: String) throws -> TestRun {
        var run: TestRun
        if let json = try? xcresulttool(["get", "test-results", "tests", "--path", bundle]) {
            run = try XCResultReader.parse(json, file: bundle)
        } else {
            run = try XCResultReader.parse(try xcresulttool(["get", "--legacy", "--format", "json", "--path", bundle]), file: bundle)
        }
        if let screenshots = try? exportFailureAttachments(bundle: bundle, to: attachmentsFolder) {
            run.results = run.results.map { test in
                let key = "\(test.suite.split(separator: ".").last ?? "")/\(test.name)"
                guard !test.passed, let path = screenshots[key] else { return test }
                return test.withScreenshot(path)
            }
        }
        return run
    }

    /// `xcresulttool export attachments --only-failures` writes the files and a manifest.json of
    /// `[{testIdentifier, attachments: [{exportedFileName, isAssociatedWithFailure}]}]`.
    static func exportFailureAttachments(bundle: String, to folder: String) throws -> [String: String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        _ = try xcresulttool(["export", "attachments", "--path", bundle, "--output-path", folder, "--only-failures"])
        let manifest = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: URL(fileURLWithPath: FilePath.join(folder, "manifest.json"))))
        var screenshots: [String: String] = [:]
        for entry in manifest.array ?? [] {
            guard let identifier = entry["testIdentifier"]?.string else { continue }
            let files = (entry["attachments"]?.array ?? []).compactMap { $0["exportedFileName"]?.string }
            if let image = files.first(where: { $0.hasSuffix(".png") || $0.hasSuffix(".jpeg") || $0.hasSuffix(".jpg") }) ?? files.first {
                screenshots[identifier] = FilePath.join(folder, image)
            }
        }
        return screenshots
    }

    /// Runs `xcrun xcresulttool` with an argv array and returns its standard output.
    static func xcresulttool(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/xcrun")
        process.arguments = ["xcresulttool"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw XCResultError.notJSON(file: arguments.last ?? "", reason: "xcresulttool exited \(process.terminationStatus)") }
        return data
    }
}
#endif
