import Foundation

/// Facts about processes, for tests that check nothing of a stage was left running.
public enum Processes {
    /// Whether `pid` is a live process. A zombie (exited, not yet reaped by its new parent) counts
    /// as gone: it runs no code and holds no resources but its table entry.
    public static func isAlive(_ pid: Int32) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        // The state follows the command name, which is in parentheses and may hold spaces.
        guard let close = stat.lastIndex(of: ")") else { return false }
        let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
        return state != "Z" && state != "X"
        #else
        return kill(pid, 0) == 0
        #endif
    }

    /// Waits until `condition` holds, checking every 20 ms, for at most `limit` seconds. A bound on
    /// waiting for an event (a pid file to appear, a killed process to vanish), not a timing check.
    @discardableResult
    public static func waitUntil(limit: Double = 30, _ condition: () -> Bool) -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// `waitUntil`, sleeping between looks without holding a thread of the test run.
    @discardableResult
    public static func waitUntil(limit: Double = 30, _ condition: () -> Bool) async -> Bool {
        let end = Date().addingTimeInterval(limit)
        while Date() < end {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    /// Whether process `pid` runs the program `name` (Linux's /proc; elsewhere, whether it is alive).
    public static func isNamed(_ pid: Int32, _ name: String) -> Bool {
        guard FileManager.default.fileExists(atPath: "/proc/self/comm") else { return kill(pid, 0) == 0 }
        let comm = (try? String(contentsOfFile: "/proc/\(pid)/comm", encoding: .utf8)) ?? ""
        return comm.hasPrefix(name)
    }

    /// Reads a file of whitespace-separated pids written by a stage.
    public static func pids(inFile path: String) -> [Int32] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "")
            .split(whereSeparator: \.isWhitespace).compactMap { Int32($0) }
    }
}
