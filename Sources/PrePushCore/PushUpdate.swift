/// One line of a pre-push hook's standard input (githooks(5)):
/// `<local ref> SP <local object name> SP <remote ref> SP <remote object name> LF`.
public struct PushUpdate: Sendable, Hashable {
    /// The local ref as git gave it: a full ref name, `(delete)`, or what the user typed (`HEAD~`).
    public let localRef: String
    /// The object the remote ref will point at; all zeros when the ref is deleted.
    public let localObjectID: String
    /// The ref on the remote that changes.
    public let remoteRef: String
    /// The object the remote ref points at now; all zeros when the remote ref does not exist yet.
    public let remoteObjectID: String

    /// Creates an update from its four fields.
    public init(localRef: String, localObjectID: String, remoteRef: String, remoteObjectID: String) {
        self.localRef = localRef
        self.localObjectID = localObjectID
        self.remoteRef = remoteRef
        self.remoteObjectID = remoteObjectID
    }

    /// The push deletes `remoteRef`.
    public var isDeletion: Bool { Self.isZero(localObjectID) }
    /// The push creates `remoteRef` on the remote.
    public var createsRemoteRef: Bool { Self.isZero(remoteObjectID) }

    /// True for the all-zeros object name git uses for "no object" (SHA-1 or SHA-256 length).
    public static func isZero(_ objectID: String) -> Bool {
        !objectID.isEmpty && objectID.utf8.allSatisfy { $0 == UInt8(ascii: "0") }
    }

    /// Parses the whole standard input of a pre-push hook. Blank lines are ignored; a line with a
    /// missing field or an object name that is not 40 or 64 hex digits is an error with its location.
    /// - Parameter inputName: how the input is named in errors, `<stdin>` for the hook.
    public static func parseHookInput(_ text: String, inputName: String = "<stdin>") throws(PushUpdateError) -> [PushUpdate] {
        var updates: [PushUpdate] = []
        var lineNumber = 0
        for line in Diagnostic.lines(of: text) {
            lineNumber += 1
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            updates.append(try parseLine(Substring(line), number: lineNumber, inputName: inputName))
        }
        return updates
    }

    /// Refs cannot hold spaces, but a local ref "as the user gave it" might (`:/fix the bug`),
    /// so the three fixed fields are taken from the right.
    private static func parseLine(_ line: Substring, number: Int, inputName: String) throws(PushUpdateError) -> PushUpdate {
        let text = String(line)
        func failure(_ column: Int, _ expected: String) -> PushUpdateError {
            .malformedLine(SourceLocation(file: inputName, line: number, column: column), line: text, expected: expected)
        }
        var fields: [Substring] = []
        var rest = line
        for _ in 0..<3 {
            guard let space = rest.lastIndex(of: " ") else { break }
            fields.insert(rest[rest.index(after: space)...], at: 0)
            rest = rest[..<space]
        }
        guard fields.count == 3, !rest.isEmpty, fields.allSatisfy({ !$0.isEmpty }) else {
            throw failure(1, "four fields separated by single spaces: <local ref> <local object name> <remote ref> <remote object name>")
        }
        let localRef = rest, localID = fields[0], remoteRef = fields[1], remoteID = fields[2]
        func column(of field: Substring) -> Int { line.unicodeScalars.distance(from: line.startIndex, to: field.startIndex) + 1 }
        for id in [localID, remoteID] where !isObjectName(id) {
            throw failure(column(of: id), "an object name of 40 or 64 hexadecimal digits, found \"\(id)\"")
        }
        if localID.count != remoteID.count && !isZero(String(localID)) && !isZero(String(remoteID)) {
            throw failure(column(of: remoteID), "object names of one length (SHA-1 or SHA-256), found \(localID.count) and \(remoteID.count) digits")
        }
        return PushUpdate(localRef: String(localRef), localObjectID: String(localID),
                          remoteRef: String(remoteRef), remoteObjectID: String(remoteID))
    }

    private static func isObjectName(_ id: Substring) -> Bool {
        (id.utf8.count == 40 || id.utf8.count == 64) && id.utf8.allSatisfy { byte in
            (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        }
    }
}

/// Why the hook's standard input could not be read.
public enum PushUpdateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A line that is not four space-separated fields with valid object names.
    case malformedLine(SourceLocation, line: String, expected: String)

    public var description: String {
        switch self {
        case .malformedLine(let location, let line, let expected):
            return Diagnostic(location: location, message: "malformed pre-push line: expected \(expected)", sourceLine: line).description
        }
    }
}
