#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The kinds of input `prepush results` reads.
public enum ResultsInputKind: String, Sendable {
    case console
    case junit
    case xcresultJSON = "xcresult-json"
    case swiftTestingEvents = "swift-testing-events"
}

/// Reads any supported results input, choosing the reader from the content.
public enum ResultsInput {
    /// The kind of `bytes`: `<` starts JUnit XML, `{` a Swift Testing event stream (JSON Lines of
    /// `kind`/`payload` records) or xcresulttool JSON, anything else is console output.
    public static func kind(of bytes: [UInt8]) -> ResultsInputKind {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 { index += 1 }
        guard index < bytes.count else { return .console }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .junit
        case UInt8(ascii: "{"): return SwiftTestingEventStream.looksLikeEventStream(Array(bytes[index...])) ? .swiftTestingEvents : .xcresultJSON
        default: return .console
        }
    }

    /// Parses a file; console output is streamed through the parser in 64 KiB reads, so memory
    /// does not grow with the log; JUnit and JSON are read whole.
    public static func parse(file path: String) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return try parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path) }
        defer { close(fd) }
        return try parse(descriptor: fd, file: path)
    }

    /// Parses everything readable from `fd` (a file or standard input), choosing the reader from
    /// the first bytes that are not blank.
    public static func parse(descriptor fd: Int32, file: String) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        var parser = ConsoleTestParser()
        var head: [UInt8] = []
        var kind: ResultsInputKind?
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if kind == nil {
                head += buffer[0..<count]
                guard head.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) else { continue }
                kind = self.kind(of: head)
                if kind == .console {
                    head.withUnsafeBytes { parser.consume($0) }
                    head = []
                }
            } else if kind == .console {
                buffer.withUnsafeBytes { parser.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            } else {
                head += buffer[0..<count]
            }
        }
        guard let kind, kind != .console else {
            let parsed = parser.finish()
            return (parsed.run, .console, parsed.unplacedEventLines)
        }
        return try parse(head, file: file)
    }

    /// Parses `bytes` (named `file` in errors) and reports how many event lines were not placed
    /// (console output only).
    public static func parse(_ bytes: [UInt8], file: String) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        let kind = kind(of: bytes)
        switch kind {
        case .junit:
            return (try JUnitReader.parse(bytes, file: file), kind, 0)
        case .xcresultJSON:
            return (try XCResultReader.parse(Data(bytes), file: file), kind, 0)
        case .swiftTestingEvents:
            return (try SwiftTestingEventStream.parse(bytes, file: file), kind, 0)
        case .console:
            var parser = ConsoleTestParser()
            bytes.withUnsafeBytes { parser.consume($0) }
            let parsed = parser.finish()
            return (parsed.run, kind, parsed.unplacedEventLines)
        }
    }
}
