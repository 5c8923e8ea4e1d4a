import PrePushCore

/// Parsers for values that can come from flags, environment variables or the file. One parser per
/// kind keeps the three sources in agreement about what is valid.
package enum ValueParsers {
    /// Whole seconds within `range`: digits only, surrounding blanks ignored.
    package static func wholeSeconds(_ raw: String, range: ClosedRange<Int>, setting: String) -> Result<Int, ValueProblem> {
        let text = trimmed(raw)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return .failure(.notWholeSeconds)
        }
        guard let value = Int(text), range.contains(value) else {
            return .failure(.secondsOutOfRange(range, setting: setting))
        }
        return .success(value)
    }

    /// A size: whole bytes, or a whole number with `KB` or `MB` (decimal, as file sizes are shown), at least 1 KB.
    package static func byteCount(_ raw: String) -> Result<Int, ValueProblem> {
        var text = trimmed(raw).uppercased()
        var scale = 1
        if text.hasSuffix("MB") { scale = 1_000_000; text.removeLast(2) } else if text.hasSuffix("KB") { scale = 1_000; text.removeLast(2) }
        text = trimmed(text)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let number = Int(text), number <= Int.max / scale, number * scale >= 1_000 else {
            return .failure(.notByteCount)
        }
        return .success(number * scale)
    }

    /// A size of source file: `byteCount`, no more than `FileReading.sourceCeiling`.
    package static func sourceFileSize(_ raw: String) -> Result<Int, ValueProblem> {
        byteCount(raw).flatMap { $0 <= FileReading.sourceCeiling ? .success($0) : .failure(.overCeiling(FileReading.sourceCeiling)) }
    }

    /// A boolean in `BooleanWord`'s grammar, the same for every source.
    package static func boolean(_ raw: String) -> Result<Bool, ValueProblem> {
        BooleanWord.parse(raw).map(Result.success) ?? .failure(.notBoolean)
    }

    /// A whole number within `range`: digits only, surrounding blanks ignored.
    package static func count(_ raw: String, range: ClosedRange<Int>, what: String) -> Result<Int, ValueProblem> {
        let text = trimmed(raw)
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let value = Int(text), range.contains(value) else { return .failure(.notCount(range, what: what)) }
        return .success(value)
    }

    /// `warn`, `refuse` or `allow`, in any case.
    package static func flakyPolicy(_ raw: String) -> Result<FlakyPolicy, ValueProblem> {
        FlakyPolicy(rawValue: trimmed(raw).lowercased()).map(Result.success)
            ?? .failure(.notOneOf(FlakyPolicy.allCases.map(\.rawValue), what: "a flaky policy"))
    }

    /// `selective:`: a boolean (`true` is test targets), or `tests`, in any case.
    package static func selectivity(_ raw: String) -> Result<Selectivity, ValueProblem> {
        if trimmed(raw).lowercased() == Selectivity.tests.rawValue { return .success(.tests) }
        if case .success(let on) = boolean(raw) { return .success(on ? .targets : .off) }
        return .failure(.notOneOf(["true", "false", "tests"], what: "a selection"))
    }

    /// What a retry answers: `failed` tests, or `infrastructure` errors before any test began.
    package static func retryReason(_ raw: String) -> Result<String, ValueProblem> {
        let text = trimmed(raw).lowercased()
        return ["failed", "infrastructure"].contains(text) ? .success(text) : .failure(.notOneOf(["failed", "infrastructure"], what: "a retry reason"))
    }

    /// `rsync` or `scp`, in any case.
    package static func syncMode(_ raw: String) -> Result<SyncMode, ValueProblem> {
        SyncMode(rawValue: trimmed(raw).lowercased()).map(Result.success) ?? .failure(.notSyncMode)
    }

    /// A TCP port, 1 to 65535.
    package static func port(_ raw: String) -> Result<Int, ValueProblem> {
        guard let value = Int(trimmed(raw)), (1...65535).contains(value) else { return .failure(.notPort) }
        return .success(value)
    }

    /// A host or user name that ssh, scp and rsync cannot mistake for an option and no shell splits:
    /// letters, digits and `.-_` (and `:[]` in hosts, for IPv6), not starting with `-`.
    package static func remoteName(_ raw: String, what: String) -> Result<String, ValueProblem> {
        let extra: Set<UInt8> = what == "host" ? [UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")] : []
        guard !raw.isEmpty else { return .failure(.empty(expected: "a \(what) name")) }
        let safe = raw.utf8.allSatisfy { byte in
            isAlphanumeric(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || extra.contains(byte)
        }
        guard safe, raw.first != "-" else { return .failure(.unsafeRemoteName(what: what)) }
        return .success(raw)
    }

    /// An ssh option as `Key=Value` (passed as `-o Key=Value`): a letters-only key, never an option of its own.
    package static func sshOption(_ raw: String) -> Result<String, ValueProblem> {
        guard let equals = raw.firstIndex(of: "="), equals != raw.startIndex,
              raw[..<equals].utf8.allSatisfy({ isAlphanumeric($0) }) else { return .failure(.notSSHOption) }
        return .success(raw)
    }

    /// A relative path that stays inside its folder (no leading `/`, no `..` component).
    package static func relativePath(_ raw: String) -> Result<String, ValueProblem> {
        guard !raw.isEmpty, !raw.hasPrefix("/"), !raw.split(separator: "/").contains("..") else { return .failure(.notRelativePath) }
        return .success(raw)
    }

    /// A POSIX environment variable name.
    package static func variableName(_ raw: String) -> Result<String, ValueProblem> {
        guard let first = raw.utf8.first, !(first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")),
              raw.utf8.allSatisfy({ isAlphanumeric($0) || $0 == UInt8(ascii: "_") }) else {
            return .failure(.notVariableName)
        }
        return .success(raw)
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    static func trimmed(_ text: String) -> String {
        var scalars = Substring(text)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
