#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushCore

/// The kinds of input `prepush results` reads.
public enum ResultsInputKind: String, Sendable {
    case console
    case junit
    case xcresultJSON = "xcresult-json"
}

/// Reads any supported results input, choosing the reader from the content.
public enum ResultsInput {
    /// The kind of `bytes`: `<` starts JUnit XML, `{` xcresulttool JSON, anything else is console output.
    public static func kind(of bytes: [UInt8]) -> ResultsInputKind {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 { index += 1 }
        guard index < bytes.count else { return .console }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .junit
        case UInt8(ascii: "{"): return .xcresultJSON
        default: return .console
        }
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
        case .console:
            var parser = ConsoleTestParser()
            bytes.withUnsafeBytes { parser.consume($0) }
            let parsed = parser.finish()
            return (parsed.run, kind, parsed.unplacedEventLines)
        }
    }
}
