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
        let index = contentStart(bytes)
        guard index < bytes.count else { return .console }
        switch bytes[index] {
        case UInt8(ascii: "<"): return .junit
        case UInt8(ascii: "{"): return SwiftTestingEventStream.looksLikeEventStream(Array(bytes[index...])) ? .swiftTestingEvents : .xcresultJSON
        default: return .console
        }
    }

    /// Parses a file; console output is streamed through the parser in 64 KiB reads, so memory
    /// does not grow with the log; JUnit and JSON are read whole.
    /// `location` is where to open it when `path` (the name shown in messages, as the user gave it)
    /// is relative to another folder than the process's.
    public static func parse(file path: String, at location: String? = nil) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        let opened = location ?? path
        let fd = open(opened, O_RDONLY)
        guard fd >= 0 else { return try parse(Array(try Data(contentsOf: URL(fileURLWithPath: opened))), file: path) }
        defer { close(fd) }
        // A JUnit file is read into memory that is given back as the scan passes it, so the file and
        // the results it becomes are not both held whole (100,000 cases: docs/benchmarks.md).
        var head = [UInt8](repeating: 0, count: 4096)
        let got = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, 0) }
        if got > 0, case let prefix = Array(head[0..<got]), wideEncoding(of: prefix) == nil, kind(of: prefix) == .junit,
           surelyXML(prefix), let buffer = ReleasableBuffer(reading: fd) {
            return (try JUnitReader.parse(buffer: buffer.bytes, file: path, passed: buffer.release(before:)), .junit, 0)
        }
        return try parse(descriptor: fd, file: path)
    }

    /// Parses everything readable from `fd` (a file or standard input), choosing the reader from
    /// the first bytes that are not blank.
    /// `live` is called with each test as console output finishes it, while the input streams in
    /// (`xcodebuild test | prepush results -`); JUnit and JSON are read whole first, so it is not called for them.
    public static func parse(descriptor fd: Int32, file: String,
                             live: ((UITestResult) -> Void)? = nil) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        var announced = 0
        func announce(_ parser: ConsoleTestParser) {
            guard let live else { return }
            while announced < parser.recordedCount {
                live(parser.recorded(announced))
                announced += 1
            }
        }
        var parser = ConsoleTestParser()
        var head: [UInt8] = []
        var kind: ResultsInputKind?
        var wide = false
        // A file's size is known: JUnit and JSON are read whole into storage of that size, not into
        // an array that doubles (which holds the old and the new copy at once: 2.5 times the file).
        var info = stat()
        if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size < Int.max / 2 {
            head.reserveCapacity(Int(info.st_size))
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            if kind == nil {
                head += buffer[0..<count]
                // UTF-16 and UTF-32 (a Windows tool's or an editor's save): read whole, then as UTF-8.
                if head.count >= 4, Self.wideEncoding(of: head) != nil { kind = .console; wide = true; continue }
                guard head.contains(where: { $0 != 32 && $0 != 9 && $0 != 10 && $0 != 13 }) else { continue }
                kind = self.kind(of: head)
                if kind == .console {
                    head.withUnsafeBytes { parser.consume($0) }
                    head = []
                    announce(parser)
                }
            } else if kind == .console && !wide {
                buffer.withUnsafeBytes { parser.consume(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                announce(parser)
            } else {
                head += buffer[0..<count]
            }
        }
        if wide || (kind == nil && head.count >= 2 && Self.wideEncoding(of: head) != nil) {
            return try parse(head, file: file)
        }
        guard let kind, kind != .console else {
            let parsed = parser.finish()
            return (parsed.run, .console, parsed.unplacedEventLines)
        }
        return try parse(head, file: file)
    }

    /// The index of the first byte after a UTF-8 byte order mark and blank space.
    static func contentStart(_ bytes: [UInt8]) -> Int {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 || bytes[index] == 10 || bytes[index] == 13 { index += 1 }
        return index
    }

    /// Whether `bytes` begin the way only XML does: a declaration, a comment or doctype, or a JUnit
    /// root element. Anything else that starts with `<` is read as XML only if it parses as XML.
    static func surelyXML(_ bytes: [UInt8]) -> Bool {
        let rest = bytes[contentStart(bytes)...]
        return rest.starts(with: Array("<?xml".utf8)) || rest.starts(with: Array("<!".utf8))
            || rest.starts(with: Array("<testsuite".utf8)) || rest.starts(with: Array("<testrun".utf8))
    }

    /// The byte order mark of UTF-16 or UTF-32 text at the start of `bytes`, if there is one.
    static func wideEncoding(of bytes: [UInt8]) -> (unitSize: Int, bigEndian: Bool)? {
        if bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) { return (4, false) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) { return (4, true) }
        if bytes.starts(with: [0xFF, 0xFE]) { return (2, false) }
        if bytes.starts(with: [0xFE, 0xFF]) { return (2, true) }
        return nil
    }

    /// UTF-16 or UTF-32 text with a byte order mark as UTF-8 (without the mark); invalid units repaired.
    static func utf8(fromWide bytes: [UInt8]) -> [UInt8] {
        guard let (size, bigEndian) = wideEncoding(of: bytes) else { return bytes }
        let body = bytes.dropFirst(size)
        var units: [UInt32] = []
        units.reserveCapacity(body.count / size)
        var index = body.startIndex
        while index + size <= body.endIndex {
            var value: UInt32 = 0
            for offset in 0..<size {
                let byte = UInt32(body[index + (bigEndian ? offset : size - 1 - offset)])
                value = value << 8 | byte
            }
            units.append(value)
            index += size
        }
        let text = size == 2
            ? String(decoding: units.map { UInt16(truncatingIfNeeded: $0) }, as: UTF16.self)
            : String(decoding: units, as: UTF32.self)
        return Array(text.utf8)
    }

    /// Parses `bytes` (named `file` in errors) and reports how many event lines were not placed
    /// (console output only).
    public static func parse(_ bytes: [UInt8], file: String) throws -> (run: TestRun, kind: ResultsInputKind, unplaced: Int) {
        if wideEncoding(of: bytes) != nil { return try parse(utf8(fromWide: bytes), file: file) }
        let kind = kind(of: bytes)
        switch kind {
        case .junit:
            let read = Result { () throws(XMLError) in try JUnitReader.parse(bytes, file: file) }
            if case .failure = read, !surelyXML(bytes) {
                // `<unknown>:0: warning: …` starts a console log too: a `<` that begins no XML document is text.
                var parser = ConsoleTestParser()
                bytes.withUnsafeBytes { parser.consume($0) }
                let parsed = parser.finish()
                return (parsed.run, .console, parsed.unplacedEventLines)
            }
            return (try read.get(), kind, 0)
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

/// A regular file's bytes in memory of their own (an anonymous mapping, not the heap), so that the
/// pages a reader has passed can be handed back to the system while it goes on reading.
final class ReleasableBuffer {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private var released = 0
    /// The file's bytes.
    let bytes: UnsafeBufferPointer<UInt8>

    /// Reads the regular file open at `fd` whole; nil for anything else (a pipe, an empty file), or
    /// when it cannot be mapped or read, so the caller reads it the ordinary way.
    init?(reading fd: Int32) {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size > 0, info.st_size < Int.max / 2 else { return nil }
        let size = Int(info.st_size)
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapped != MAP_FAILED else { return nil }
        var count = 0
        while count < size {
            let got = read(fd, mapped + count, size - count)
            if got < 0 && errno == EINTR { continue }
            if got <= 0 { break }
            count += got
        }
        // A file that grew while it was read is read the ordinary way, whole.
        var extra: UInt8 = 0
        if count == size, read(fd, &extra, 1) > 0 { munmap(mapped, size); return nil }
        base = mapped
        capacity = size
        bytes = UnsafeBufferPointer(start: mapped.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// Gives back the whole pages before `offset`: the reader never reads them again.
    func release(before offset: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let end = min(offset, capacity) / page * page
        guard end > released else { return }
        _ = madvise(base + released, end - released, MADV_DONTNEED)
        released = end
    }

    deinit { munmap(base, capacity) }
}
