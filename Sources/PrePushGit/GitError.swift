internal import CGit2
import PrePushCore

/// Every way a git operation can fail. Messages are written in `description`.
package enum GitError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `GitLibrary.initialize()` was not called before the first repository was opened.
    case notInitialized
    /// No repository was found at or above the path.
    case notARepository(path: String)
    /// The repository is bare where a working tree is needed.
    case bareRepository(path: String)
    /// A libgit2 call failed: the function, its return code and libgit2's message.
    case libgit2(function: String, code: Int32, message: String)

    package var description: String {
        switch self {
        case .notInitialized:
            return "internal error: GitLibrary.initialize() must be called before using libgit2"
        case .notARepository(let path):
            return "not a git repository (or any parent folder): \(path)"
        case .bareRepository(let path):
            return "\(path) is a bare repository; prepush needs a working tree"
        case .libgit2(let function, let code, let message):
            // A name that resolves to nothing is the user's to fix: say it in words, not libgit2's.
            if code == -3, function.hasPrefix("git_revparse_single("), function.hasSuffix(")") {
                let name = String(function.dropFirst("git_revparse_single(".count).dropLast())
                return "'\(name)' names no commit in this repository" + (name == "HEAD" ? " (it has no commits yet)" : "")
            }
            return "\(function) failed (\(code)): \(message)"
        }
    }
}

/// Turns a libgit2 return code into a thrown error naming the call, with `git_error_last()`'s text.
/// Negative codes are failures; zero and positive codes are returned.
@discardableResult
func check(_ code: Int32, _ function: String) throws(GitError) -> Int32 {
    guard code < 0 else { return code }
    let message = git_error_last().flatMap { $0.pointee.message.map { String(cString: $0) } } ?? "no message"
    throw .libgit2(function: function, code: code, message: message)
}
