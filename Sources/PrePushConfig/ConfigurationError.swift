import PrePushCore
public import PrePushYAML

/// Where a configuration value came from; every error and `prepush config` line names it.
public enum ValueOrigin: Sendable, Equatable, CustomStringConvertible {
    /// A command-line flag, such as `--timeout`.
    case flag(String)
    /// An environment variable, such as `UI_TEST_TIMEOUT`.
    case environment(String)
    /// A key of the configuration file, at the value's place.
    case file(SourceLocation)
    /// `PrePushHookConfig.default` or prepush's own default.
    case `default`
    /// A default that depends on the repository (`swift test` because `Package.swift` exists).
    case derived(String)

    /// Whether the value came from the configuration file.
    public var isFile: Bool {
        if case .file = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .flag(let name): return "flag \(name)"
        case .environment(let name): return "environment \(name)"
        case .file(let location): return "file \(location)"
        case .default: return "default"
        case .derived(let reason): return "default (\(reason))"
        }
    }
}

/// What is wrong with one value, whichever source it came from.
public enum ValueProblem: Error, Sendable, Equatable {
    /// Not a whole, non-negative number of seconds.
    case notWholeSeconds
    /// Whole seconds, but outside `range`; `setting` names what the number is for.
    case secondsOutOfRange(ClosedRange<Int>, setting: String)
    /// Not one of true/false, yes/no, 1/0 (any case).
    case notBoolean
    /// Not a `SyncMode`.
    case notSyncMode
    /// Not a TCP port number.
    case notPort
    /// Empty where text is required; `expected` says what.
    case empty(expected: String)
    /// A host or user name that could be read as an option or by a shell.
    case unsafeRemoteName(what: String)
    /// Not a valid environment variable name.
    case notVariableName
    /// Not a stage name (it becomes a log file's name).
    case notStageName
    /// Not `Key=Value`.
    case notSSHOption
    /// Absolute, or climbing out with `..`.
    case notRelativePath
    /// Not a scenario priority.
    case notPriority
    /// Not a regular expression Swift's `Regex` reads; the reason it gives.
    case notRegularExpression(String)
    /// Holds a NUL character, which the system would read as the end of the text.
    case containsNUL
    /// Names a file that is missing or unusable; the words say how.
    case fileProblem(String)
    /// Not a size such as 1000000, 500KB or 2MB.
    case notByteCount
    /// A size over a ceiling (bytes) that no configuration lifts.
    case overCeiling(Int)
    /// A quarantine pattern of wildcards alone.
    case matchesEveryTest
    /// A path from the configuration file that leads out of the repository.
    case outsideRepository(RepositoryPath.Problem)
    /// Not one of `choices`; `what` names the setting's kind (`a flaky policy`).
    case notOneOf([String], what: String)
    /// Not a whole number within `range`; `what` names it (`a number of retries`).
    case notCount(ClosedRange<Int>, what: String)
    /// A link a report would make clickable that is not `http`, `https` or relative (`LinkTarget`).
    case unsafeLink

    /// The words that follow the quoted value: `"abc" is not a whole number of seconds`.
    var phrase: String {
        switch self {
        case .notWholeSeconds:
            return "is not a whole number of seconds"
        case .secondsOutOfRange(let range, let setting):
            return "is out of range: the \(setting) must be \(range.lowerBound) to \(range.upperBound) seconds"
        case .notBoolean:
            return "is not a boolean (expected \(BooleanWord.expected))"
        case .notSyncMode:
            return "is not a sync mode (expected \(SyncMode.allCases.map(\.rawValue).joined(separator: " or ")))"
        case .notPort:
            return "is not a port number (expected 1 to 65535)"
        case .empty(let expected):
            return "is empty; expected \(expected)"
        case .unsafeRemoteName(let what):
            return "is not a safe \(what): it must not start with '-' or hold spaces or shell characters"
        case .notVariableName:
            return "is not a valid environment variable name (letters, digits and '_', not starting with a digit)"
        case .notStageName:
            return "is not a stage name: letters, digits, '-' and '_', starting with a letter, at most 64 characters"
        case .notSSHOption:
            return "is not an ssh option: expected Key=Value (as in ssh_config), passed as -o Key=Value"
        case .notRelativePath:
            return "is not a relative path inside remote.path (no leading '/', no '..')"
        case .notPriority:
            return "is not a priority (expected P1, P2 or P3)"
        case .notRegularExpression(let reason):
            return "is not a regular expression (\(reason))"
        case .fileProblem(let words):
            return words
        case .containsNUL:
            return "holds a NUL character (\\0), which would cut the value where the system reads it"
        case .matchesEveryTest:
            return "matches every test: a quarantine names the tests it excuses (a suite, CheckoutTests.*, or a test)"
        case .overCeiling(let bytes):
            return "is over the \(FileReading.Problem.size(bytes)) that prepush reads of any source file, a ceiling no configuration lifts (real views are far smaller)"
        case .notByteCount:
            return "is not a size: expected whole bytes, or a number with KB or MB (1000000, 500KB, 2MB), at least 1KB"
        case .notOneOf(let choices, let what):
            let listed = choices.count > 1 ? choices.dropLast().joined(separator: ", ") + " or " + choices.last! : choices.joined()
            return "is not \(what) (expected \(listed))"
        case .unsafeLink:
            return "is not an http or https URL or a relative path: the reports make it a link, and another scheme (javascript:, data:, file:) would run or open what the repository chose"
        case .notCount(let range, let what):
            return "is not \(what) (expected a whole number, \(range.lowerBound) to \(range.upperBound))"
        case .outsideRepository(let problem):
            switch problem {
            case .absolute: return "is an absolute path; a folder named in the configuration file must be inside the repository (give another on the command line)"
            case .climbsOut: return "leads out of the repository with '..'; a folder named in the configuration file must be inside it"
            case .symlinkLeadsOut: return "is or passes through a symbolic link that leads out of the repository"
            case .notRegularFile: return "is not a regular file"
            case .danglingSymlink: return "is a symbolic link to something that does not exist"
            case .insideGitFolder: return "is inside .git, git's own folder, where a report can pass for git's metadata (a ref, a hook); give a folder in the working tree"
            }
        }
    }
}

/// Every way configuration can be wrong. All messages are written in `description`.
public enum ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A configuration file named by `--config` or `PREPUSH_CONFIG` does not exist.
    case fileNotFound(path: String, namedBy: ValueOrigin)
    /// The file exists but could not be read; `reason` follows the path ("is a folder, not a file").
    case unreadableFile(path: String, reason: String)
    /// A file the repository names that leads out of it (absolute, `..`, a symlink); `what` says which file.
    case refusedPath(RepositoryPath.Problem, what: String)
    /// The file is not UTF-8 text.
    case notUTF8(path: String)
    /// The file is not YAML the loader reads (syntax, a second document, nesting, aliases, a duplicate key).
    case yaml(YAMLError)
    /// A key prepush does not know, with the nearest known key when one is close.
    case unknownKey(SourceLocation, key: String, parent: String, suggestion: String?, sourceLine: String?)
    /// A required key is absent from the mapping that starts at the location.
    case missingKey(SourceLocation, key: String, parent: String, sourceLine: String?)
    /// A node of the wrong kind (a list where a mapping belongs, say).
    case wrongType(SourceLocation, setting: String, expected: String, found: String, sourceLine: String?)
    /// A value that could not be understood, from any source.
    case invalidValue(ValueOrigin, setting: String, value: String, problem: ValueProblem, sourceLine: String?)
    /// Two flags that contradict each other.
    case conflictingFlags(String, String)
    /// A stage's working directory does not exist.
    case workingDirectoryNotFound(path: String, origin: ValueOrigin, sourceLine: String?)
    /// Several of the above, in the order they were found.
    case multiple([ConfigurationError])
    /// Errors past `limit` in one file, counted and not shown.
    case moreErrors(Int, file: String)

    /// Most errors shown for one file (the limit every YAML document's reader keeps).
    public static let limit = DocumentProblems.limit

    public var description: String {
        switch self {
        case .fileNotFound(let path, let origin):
            return "configuration file \(path) (from \(origin)) does not exist"
        case .unreadableFile(let path, let reason):
            return "configuration file \(path) \(reason)"
        case .refusedPath(let problem, let what):
            return "\(what): \(problem)"
        case .notUTF8(let path):
            return "\(path):1:1: error: the configuration file is not UTF-8 text"
        case .yaml(let error):
            return error.description
        case .unknownKey(let location, let key, let parent, let suggestion, let line):
            let place = parent.isEmpty ? "at the top level" : "in \(parent)"
            let hint = suggestion.map { "; did you mean \"\($0)\"?" } ?? ""
            return Diagnostic(location: location, message: "unknown key \"\(Diagnostic.excerpt(key))\" \(place)\(hint)", sourceLine: line).description
        case .missingKey(let location, let key, let parent, let line):
            return Diagnostic(location: location, message: "\(parent): missing key \"\(key)\"", sourceLine: line).description
        case .wrongType(let location, let setting, let expected, let found, let line):
            return Diagnostic(location: location, message: "\(setting): expected \(expected), found \(found)", sourceLine: line).description
        case .invalidValue(let origin, let setting, let value, let problem, let line):
            switch origin {
            case .file(let location):
                return Diagnostic(location: location, message: "\(setting): \"\(Diagnostic.excerpt(value))\" \(problem.phrase)", sourceLine: line).description
            case .environment(let name):
                return "\(name)=\"\(Diagnostic.excerpt(value))\" \(problem.phrase)"
            case .flag(let name):
                return "\(name) \"\(Diagnostic.excerpt(value))\" \(problem.phrase)"
            case .default, .derived:
                return "\(setting) \"\(Diagnostic.excerpt(value))\" \(problem.phrase)"
            }
        case .conflictingFlags(let first, let second):
            return "\(first) and \(second) cannot be used together"
        case .workingDirectoryNotFound(let path, let origin, let line):
            if case .file(let location) = origin {
                return Diagnostic(location: location, message: "working directory \(path) does not exist", sourceLine: line).description
            }
            return "working directory \(path) (from \(origin)) does not exist"
        case .multiple(let errors):
            return errors.map(\.description).joined(separator: "\n")
        case .moreErrors(let count, let file):
            return "\(file): error: and \(count) more error\(count == 1 ? "" : "s") (the first \(Self.limit) are shown)"
        }
    }

    /// What the terminal shows: a located error as the compiler shows one (`file:line:col: error: …`,
    /// the line, a caret), anything else after `error: `; several, one after another.
    public var rendered: String {
        switch self {
        case .multiple(let errors): return errors.map(\.rendered).joined(separator: "\n")
        case .notUTF8, .yaml, .unknownKey, .missingKey, .wrongType, .moreErrors: return description
        case .invalidValue(.file, _, _, _, _): return description
        case .workingDirectoryNotFound(_, .file, _): return description
        default: return "error: \(description)"
        }
    }

    /// The place in the configuration file the error points at, if it points at one.
    public var location: SourceLocation? {
        switch self {
        case .yaml(let error):
            return error.location
        case .unknownKey(let location, _, _, _, _),
             .missingKey(let location, _, _, _), .wrongType(let location, _, _, _, _):
            return location
        case .invalidValue(.file(let location), _, _, _, _), .workingDirectoryNotFound(_, .file(let location), _):
            return location
        case .fileNotFound, .unreadableFile, .refusedPath, .notUTF8, .invalidValue, .conflictingFlags, .workingDirectoryNotFound, .multiple, .moreErrors:
            return nil
        }
    }

    /// The errors inside, flattened: one for a single error.
    public var all: [ConfigurationError] {
        if case .multiple(let errors) = self { return errors.flatMap(\.all) }
        return [self]
    }
}
