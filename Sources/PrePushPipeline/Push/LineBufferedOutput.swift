#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import PrePushConfig

/// A stage's output reaches prepush a line at a time, as it would on a terminal.
///
/// Into a pipe, C's standard output is block-buffered: XCTest on Linux prints `Test Case '…'
/// started` into a 4 KiB buffer, so when a test hangs and the stage times out, the lines that
/// would name it are still in the buffer of the process being stopped, and the last test prepush
/// saw start is one that had long passed. On Linux the stage runs as `stdbuf -oL` runs a command:
/// coreutils' `libstdbuf.so` is preloaded with `_STDBUF_O=L`, which makes every C-library
/// program of the stage (XCTest, Swift Testing, `swift build`) flush standard output at each line
/// break. Statically linked programs ignore it, and a stage that sets `_STDBUF_O` itself keeps
/// its own choice; `PREPUSH_LINE_BUFFERED=0` turns it off.
enum LineBufferedOutput {
    /// The switch, read from prepush's environment (checked by the configuration's resolver).
    static let variable = ConfigurationResolver.Variable.lineBuffered

    /// Where Debian, Ubuntu, Fedora, Alpine and Homebrew on Linux install coreutils' library.
    static let libraryPaths = [
        "/usr/libexec/coreutils/libstdbuf.so", "/usr/lib/coreutils/libstdbuf.so", "/usr/lib64/coreutils/libstdbuf.so",
        "/usr/local/libexec/coreutils/libstdbuf.so", "/home/linuxbrew/.linuxbrew/libexec/coreutils/libstdbuf.so",
    ]

    /// The library this machine has, if any.
    static let library: String? = libraryPaths.first { access($0, R_OK) == 0 }

    /// `environment` with line-buffered standard output asked for, where the system allows it.
    static func applied(to environment: [String: String]) -> [String: String] {
        #if os(Linux)
        guard let library, environment["_STDBUF_O"] == nil,
              (try? ValueParsers.boolean(environment[variable] ?? "yes").get()) != false else { return environment }
        var environment = environment
        environment["_STDBUF_O"] = "L"
        // After what the user preloads: a sanitizer's runtime, if preloaded, must stay first.
        let preloaded = environment["LD_PRELOAD"].map { $0.split(whereSeparator: { $0 == " " || $0 == ":" }).map(String.init) } ?? []
        environment["LD_PRELOAD"] = (preloaded.filter { $0 != library } + [library]).joined(separator: " ")
        return environment
        #else
        return environment
        #endif
    }
}
