#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PrePushConfig
import PrePushYAML
import PrePushCore
import PrePushHistory
import PrePushResults
import PrePushTraceability

/// One input through the readers of untrusted text: the YAML loader and configuration decoder,
/// the test-result readers (console, JUnit XML, xcresult JSON, Swift Testing events) with every
/// report writer after them, the pre-push hook's stdin, globs, regular expressions and the
/// scenario catalog's decoder; a run history whose file a stage rewrote (`historySelector`); and
/// the text every printed line goes through (`neutralisingSelector`), checked for a line a CI
/// runner would read as a command; and the escaper of each output language (`escapersSelector`:
/// Markdown, YAML, HTML, links), checked for what each promises. The first byte picks the reader, so one corpus reaches them
/// all. Any trap, overflow or hang here is a bug: each must end in a value or a thrown error.
enum FuzzTarget {
    /// The first byte that sends the input to the run history.
    static let historySelector: UInt8 = 0xF0
    /// The first byte that sends the input through the line neutralising.
    static let neutralisingSelector: UInt8 = 0xF1

    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let selector = bytes.first else { return }
        let input = Array(bytes.dropFirst())
        if selector == historySelector { return history(input) }
        if selector == neutralisingSelector { return neutralising(input) }
        if selector == escapersSelector { return escapers(input) }
        switch selector % 7 {
        case 0:
            _ = try? YAMLLoader.load(String(decoding: input, as: UTF8.self), file: "fuzz.yml")
            _ = try? ConfigurationFile.decode(String(decoding: input, as: UTF8.self), path: "fuzz.yml")
        case 1:
            // Forces the XML reader even when the input does not look like XML.
            if let run = try? ResultsInput.parse(Array("<?xml version=\"1.0\"?>".utf8) + input, file: "fuzz.xml").run { render(run) }
        case 2:
            if let run = try? ResultsInput.parse(input, file: "fuzz.log").run { render(run) }
        case 3:
            _ = try? PushUpdate.parseHookInput(String(decoding: input, as: UTF8.self))
        case 4:
            // A glob (the first line) against paths (the other lines): linear, never a hang.
            let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            let glob = Glob(String(lines.first ?? ""))
            for path in lines.dropFirst() { _ = glob.matches(String(path)) }
        case 5:
            // A regular expression (the first line) against texts: linear, never a hang.
            let lines = String(decoding: input, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
            if let regex = try? LinearRegex(String(lines.first ?? "")) {
                for text in lines.dropFirst() { _ = regex.wholeMatch(String(text)) }
            }
        default:
            _ = try? ScenarioCatalog.decode(String(decoding: input, as: UTF8.self), path: "fuzz.yml", testNamePattern: "test_[a-z]+_[a-zA-Z0-9]+")
        }
    }

    /// Every report writer: no value a reader produces may trap a writer.
    static func render(_ run: TestRun) {
        for format in ReportFormat.allCases { _ = format.reporter.render(run) }
    }

    /// A folder of this process for the history's files: in memory where there is a tmpfs, since
    /// SQLite syncs each commit to disk and the fuzzer writes thousands.
    static let historyFolder: String = {
        let base = FileSystem.isDirectory("/dev/shm") && access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp"
        var template = Array("\(base)/prepush-fuzz-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) } ?? "/tmp"
    }()

    /// A real history of two runs, made once: the bytes of its database and of its WAL.
    static let historyBaseline: (database: [UInt8], wal: [UInt8]) = {
        let path = historyFolder + "/baseline.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        if let history = try? RunHistory(path: path) {
            for started in [1.0, 2.0] {
                try? history.record(RecordedRun(started: started, tree: "t", commit: "c", stage: "unit", status: "failed", duration: 1, origin: "hook",
                                                tests: [RecordedTest(identifier: "A.test", status: started == 1 ? "failed" : "passed", duration: 0.1, attempts: 1),
                                                        RecordedTest(identifier: "B.test", status: "passed", duration: 0.2, attempts: 1)]))
            }
        }
        return (FileManager.default.contents(atPath: path).map(Array.init) ?? [], FileManager.default.contents(atPath: path + "-wal").map(Array.init) ?? [])
    }()

    /// A real history's bytes (the database and its WAL, one after the other) overwritten where
    /// the input says (3 bytes a change: a 16-bit offset and the new byte), then opened, read every
    /// way prepush reads it and written once more: it must answer or refuse, never trap or spin.
    static func history(_ input: [UInt8]) {
        var database = historyBaseline.database, wal = historyBaseline.wal
        let total = database.count + wal.count
        guard total > 0 else { return }
        var index = 0
        while index + 2 < input.count {
            let offset = (Int(input[index]) << 8 | Int(input[index + 1])) * 7 % total
            if offset < database.count { database[offset] = input[index + 2] } else { wal[offset - database.count] = input[index + 2] }
            index += 3
        }
        let path = historyFolder + "/history.sqlite"
        for suffix in ["", "-wal", "-shm"] { unlink(path + suffix) }
        FileManager.default.createFile(atPath: path, contents: Data(database))
        if !wal.isEmpty { FileManager.default.createFile(atPath: path + "-wal", contents: Data(wal)) }
        guard let again = try? RunHistory(path: path) else { return }
        _ = try? again.runs(limit: 10)
        _ = try? again.results(of: "A.test", limit: 10)
        if let recent = try? again.recentResults(runs: 50) { _ = FlakyAnalysis.flaky(recent) }
        _ = try? again.latestDurations(excludingCommit: nil)
        _ = try? again.record(RecordedRun(started: 3, tree: "t", commit: "c", stage: "unit", status: "passed", duration: 1, origin: "hook", tests: []))
    }

    /// What every printed line goes through: no line of the result, wherever a runner or a terminal
    /// may start one (LF, CR, VT, FF, NEL, U+2028, U+2029), is a workflow command or holds a raw
    /// control character; an annotation's message is one line.
    static func neutralising(_ input: [UInt8]) {
        let text = String(decoding: input, as: UTF8.self)
        let separators: Set<Unicode.Scalar> = ["\n", "\r", "\u{0B}", "\u{0C}", "\u{85}", "\u{2028}", "\u{2029}"]
        for line in WorkflowCommand.neutralised(text).unicodeScalars.split(whereSeparator: { separators.contains($0) }) {
            let start = line.drop { $0.properties.isWhitespace }
            precondition(!(start.first == ":" && start.dropFirst().first == ":"), "a line starts a workflow command: \(String(line).debugDescription)")
            precondition(!String(line).contains("##["), "a line holds ##[: \(String(line).debugDescription)")
            precondition(!line.contains { ($0.value < 0x20 && $0 != "\t") || ($0.value >= 0x7F && $0.value <= 0x9F) }, "a raw control character: \(String(line).debugDescription)")
        }
        let escaped = WorkflowCommand.escapedControls(text)
        precondition(!escaped.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\t" && $0 != "\n") || ($0.value >= 0x7F && $0.value <= 0x9F) || separators.subtracting(["\n"]).contains($0) })
        let message = WorkflowCommand.escapeData(text)
        precondition(!message.unicodeScalars.contains { separators.contains($0) }, "an annotation's message breaks its line")
    }
}

#if PREPUSH_LIBFUZZER
/// libFuzzer's entry point (built with `-sanitize=fuzzer -D PREPUSH_LIBFUZZER`; libFuzzer brings `main`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzTarget.run(UnsafeBufferPointer(start: data, count: size))
    return 0
}

/// libFuzzer's driver, for programs that have a `main` of their own.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM makes `<module>_main` the executable's `main`, so libFuzzer's own `main` never runs:
/// this one hands the command line to libFuzzer's driver.
@_cdecl("PrePushFuzz_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, fuzzOneInput)
}
#else
/// Without libFuzzer: runs each file named on the command line once (a corpus, or a crash to replay).
@main
struct FuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                continue
            }
            [UInt8](data).withUnsafeBufferPointer { FuzzTarget.run($0) }
        }
    }
}
#endif
