import PrePushConfig
import PrePushCore
import PrePushTraceability

/// Every way a run (a push, `prepush run`, `prepush a11y`) ends before its stages with exit status 2 (`ExitStatus.usage`): the input is
/// wrong or a folder cannot be used. Descriptions say what is wrong without an `error:` of their
/// own; `lines` gives what the terminal shows.
enum PipelineError: Error, CustomStringConvertible {
    /// The repository cannot be opened (not a git repository, a broken `GIT_DIR`).
    case repository(String)
    /// The configuration (flags, environment, file), its messages located as they are.
    case configuration(ConfigurationError)
    /// The scenario catalog has problems, each located.
    case catalog(CatalogError)
    /// `SKIP=` or `--stage` names a stage that does not exist.
    case unknownStage(origin: String, names: [String], known: [String])
    /// The reports folder cannot be used.
    case reportsFolder(String)
    /// The pushed commit cannot be exported for an isolated or remote run.
    case export(commit: String, reason: String)
    /// `prepush run --base`'s range cannot be read.
    case range(base: String, head: String, reason: String)
    /// `--shard`/the CI's variables cannot be followed.
    case shard(String)
    /// An input named on the command line cannot be used (a missing file, text that is not UTF-8).
    case input(String)

    var description: String {
        switch self {
        case .repository(let reason):
            return reason
        case .configuration(let error):
            return ErrorText.describe(error)
        case .catalog(let error):
            return error.description
        case .unknownStage(let origin, let names, let known):
            return "\(origin): no stage named \(names.map { "\"\($0)\"" }.joined(separator: ", ")); the stages are \(TextFormatting.list(known))"
        case .reportsFolder(let reason):
            return "reports folder: \(reason)"
        case .export(let commit, let reason):
            return "cannot export \(commit) for an isolated or remote run: \(reason)"
        case .range(let base, let head, let reason):
            return "cannot compute the range \(base)..\(head): \(reason)"
        case .shard(let reason), .input(let reason):
            return reason
        }
    }

    /// The lines on the terminal: located diagnostics as they are (`file:line:col: error: …` with the
    /// line and a caret), anything else after `error: `.
    var lines: [String] {
        switch self {
        case .configuration(let error):
            return [error.rendered]
        case .catalog(let error):
            return ["\(error)", "prepush: the scenario catalog has problems (check it alone with: prepush scenarios lint)"]
        default:
            return ["error: \(description)"]
        }
    }

    /// Always 2: nothing ran, and the input must change.
    var exitStatus: ExitStatus { .usage }
}
