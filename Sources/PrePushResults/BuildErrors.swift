import PrePushCore

/// The compiler's and tools' error lines of a stage that failed before its tests ran, as failures
/// with a place: what the reports and the annotations of a red build say.
public enum BuildErrors {
    /// `/path/File.swift:9:17: error: cannot find 'x' in scope` → that place and message; a line
    /// without a place (`error: fatalError`, `** BUILD FAILED **`) → its text, no place.
    public static func failure(fromLine line: String) -> TestFailure {
        guard let marker = line.firstRange(of: ": error: ") else {
            let text = line.hasPrefix("error: ") ? String(line.dropFirst(7)) : line
            return TestFailure(message: text, location: nil)
        }
        let message = String(line[marker.upperBound...])
        // path:line:column, or path:line; a path may hold colons of its own, so the numbers are read from the end.
        let parts = line[..<marker.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts.reversed() {
            guard numbers.count < 2, let number = Int(part), number >= 0 else { break }
            numbers.insert(number, at: 0)
        }
        guard let lineNumber = numbers.first, parts.count > numbers.count else { return TestFailure(message: message, location: nil) }
        let file = parts.dropLast(numbers.count).joined(separator: ":")
        return TestFailure(message: message, location: SourceLocation(file: file, line: lineNumber, column: numbers.count > 1 ? numbers[1] : 0))
    }

    /// Whether `line` is SwiftPM's `error: fatalError`, which ends every failed compile (Swift 6.3):
    /// its summary of the compiler's errors printed above it, not an error of its own. After those
    /// errors it is no second build error; alone (nothing else said why), it is kept as the only sign.
    static func isSwiftPMSummary(_ line: ByteLine) -> Bool {
        guard line.has("error: fatalError") else { return false }
        return line.string(from: 17).allSatisfy(\.isWhitespace)
    }
}
