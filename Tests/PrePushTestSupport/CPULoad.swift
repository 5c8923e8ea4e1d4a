import Foundation

/// Two CPU burners that every test checking output "under load" shares: the first test that asks
/// starts them, the last one to finish stops them. Two burners keep both cores of the CI machine
/// busy; tests that each started their own ran four or six at once for minutes, which added no
/// load to what they check (the cores were already full) and slowed every other test in the run.
public enum CPULoad {
    /// One process each (SIGKILL stops it), ending by itself when the test process is gone
    /// (`kill -0 $PPID`), so a crashed test run never leaves it spinning.
    static let burner = "i=0; while [ $i -lt 400000000 ] && kill -0 $PPID 2>/dev/null; do i=$((i+1)); done"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var users = 0
    nonisolated(unsafe) private static var burners: [RunningCommand] = []

    /// Runs `body` while the burners run.
    public static func during<T>(_ body: () throws -> T) throws -> T {
        try start()
        defer { stop() }
        return try body()
    }

    private static func start() throws {
        lock.lock(); defer { lock.unlock() }
        if users == 0 {
            burners = try (0..<2).map { _ in try Command.start("sh", ["-c", burner], environment: ["PATH": "/usr/bin:/bin"]) }
        }
        users += 1
    }

    private static func stop() {
        lock.lock(); defer { lock.unlock() }
        users -= 1
        guard users == 0 else { return }
        burners.forEach { $0.send(SIGKILL); _ = $0.wait() }
        burners = []
    }
}
