#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushYAML
import PrePushCore
import PrePushResults
import PrePushTraceability

/// One input through the readers of untrusted text: the YAML loader and configuration decoder,
/// the test-result readers (console, JUnit XML, xcresult JSON, Swift Testing events) with every
/// report writer after them, the pre-push hook's stdin, globs, regular expressions and the
/// scenario catalog's decoder. The first byte picks the reader, so one
/// corpus reaches them all. Any trap, overflow or hang here is a bug: each must end in a value or a
/// thrown error.
enum FuzzTarget {
    static func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let selector = bytes.first else { return }
        let input = Array(bytes.dropFirst())
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
