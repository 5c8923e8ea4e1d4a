#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
internal import CProcessSupport
import PrePushCore

/// One process of the system, as far as stopping a stage needs to know it.
public struct ProcessEntry: Sendable, Equatable {
    /// Its process id.
    public let pid: Int32
    /// Its parent's process id (prepush's own pid for an orphan prepush adopted as subreaper).
    public let parent: Int32
    /// Its process group.
    public let group: Int32
    /// Its command name (Linux: up to 15 characters, as `ps -o comm` shows it; empty where unknown).
    public let name: String
    /// Exited and waiting to be reaped: runs no code any more.
    public let isZombie: Bool
    /// When it started (Linux: clock ticks after boot; 0 where unknown). A pid and its start time
    /// name one process: after that process is gone, its pid may be another's.
    public var startTime: UInt64 = 0
}

/// The processes a stage started, found by parent links rather than by process group: test runners
/// (`swift test`'s runner, `xcodebuild`'s helpers) and daemons put themselves in groups of their own,
/// so one group kill misses them.
public enum ProcessTree {
    /// Every process now. Linux: `/proc/<pid>/stat`; macOS: `sysctl(KERN_PROC_ALL)`.
    public static func snapshot() -> [ProcessEntry] {
        #if os(Linux)
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var entries: [ProcessEntry] = []
        var buffer = [UInt8](repeating: 0, count: 1024)
        while let item = readdir(directory) {
            let pid: Int32? = withUnsafeBytes(of: item.pointee.d_name) { raw in
                var value: Int32 = 0
                var digits = 0
                for byte in raw {
                    if byte == 0 { break }
                    guard byte >= 48 && byte <= 57 else { return nil }
                    value = value &* 10 &+ Int32(byte - 48)
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            guard let pid, let entry = readStat(pid, buffer: &buffer) else { continue }
            entries.append(entry)
        }
        return entries
        #else
        let capacity = 16_384
        var pids = [pid_t](repeating: 0, count: capacity)
        var parents = [pid_t](repeating: 0, count: capacity)
        var groups = [pid_t](repeating: 0, count: capacity)
        let count = Int(prepush_list_processes(&pids, &parents, &groups, Int32(capacity)))
        guard count > 0 else { return [] }
        return (0..<count).map { ProcessEntry(pid: pids[$0], parent: parents[$0], group: groups[$0], name: "", isZombie: false) }
        #endif
    }

    #if os(Linux)
    /// `pid (comm) state ppid pgrp …`; the name is in parentheses and may hold spaces and parentheses.
    private static func readStat(_ pid: Int32, buffer: inout [UInt8]) -> ProcessEntry? {
        let fd = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let bytes = buffer[0..<count]
        guard let open = bytes.firstIndex(of: UInt8(ascii: "(")), let close = bytes.lastIndex(of: UInt8(ascii: ")")), open < close else { return nil }
        let name = String(decoding: bytes[(open + 1)..<close], as: UTF8.self)
        // state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime cutime
        // cstime priority nice num_threads itrealvalue starttime …: the start time is the 20th after the name.
        let fields = bytes[(close + 1)...].split(separator: 32, maxSplits: 20)
        guard fields.count >= 4, let state = fields[0].first,
              let parent = Int32(String(decoding: fields[1], as: UTF8.self)),
              let group = Int32(String(decoding: fields[2], as: UTF8.self)) else { return nil }
        var entry = ProcessEntry(pid: pid, parent: parent, group: group, name: name,
                                 isZombie: state == UInt8(ascii: "Z") || state == UInt8(ascii: "X"))
        if fields.count > 19 { entry.startTime = UInt64(String(decoding: fields[19], as: UTF8.self)) ?? 0 }
        return entry
    }
    #endif

    /// When `pid` started (see `ProcessEntry.startTime`); nil when there is no such process.
    public static func startTime(of pid: Int32) -> UInt64? {
        #if os(Linux)
        var buffer = [UInt8](repeating: 0, count: 1024)
        return readStat(pid, buffer: &buffer)?.startTime
        #else
        return kill(pid, 0) == 0 || errno == EPERM ? 0 : nil
        #endif
    }

    /// Whether `pid`'s environment holds exactly `entry` (`NAME=value`); nil where it cannot be read
    /// (another user's process, a process in the middle of `exec`, a system without `/proc`).
    public static func environment(of pid: Int32, contains entry: String) -> Bool? {
        #if os(Linux)
        let fd = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        let bytes = FileSystem.readAll(fd)
        // Empty while the process is between fork and exec, or in the middle of one: not known yet.
        guard !bytes.isEmpty else { return nil }
        let wanted = Array(entry.utf8)
        return bytes.split(separator: 0).contains { $0.elementsEqual(wanted) }
        #else
        return nil
        #endif
    }

    /// Whether `pid` holds one of the pipes whose inodes are given (Linux: `/proc/PID/fd` links read
    /// `pipe:[INODE]`): an orphan that cleared its environment still holds the stage's output pipe.
    public static func holdsPipe(_ pid: Int32, inodes: Set<UInt64>) -> Bool {
        #if os(Linux)
        guard !inodes.isEmpty, let folder = opendir("/proc/\(pid)/fd") else { return false }
        defer { closedir(folder) }
        var buffer = [CChar](repeating: 0, count: 128)
        while let entry = readdir(folder) {
            let name = withUnsafePointer(to: entry.pointee.d_name) { $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) } }
            let count = readlink("/proc/\(pid)/fd/\(name)", &buffer, buffer.count - 1)
            guard count > 6 else { continue }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            guard target.hasPrefix("pipe:["), let inode = UInt64(target.dropFirst(6).dropLast()) else { continue }
            if inodes.contains(inode), !isCloseOnExec(pid, fd: name) { return true }
        }
        return false
        #else
        return false
        #endif
    }

    /// Whether descriptor `fd` of `pid` closes on exec (`/proc/PID/fdinfo/FD`'s octal `flags:` has
    /// O_CLOEXEC). prepush holds its runs' pipes close-on-exec, and so does a child another run is
    /// spawning while it sits between fork and exec: that child is not this run's. A stage's
    /// processes hold the pipe as their standard output, which never closes on exec.
    static func isCloseOnExec(_ pid: Int32, fd: String) -> Bool {
        #if os(Linux)
        let descriptor = open("/proc/\(pid)/fdinfo/\(fd)", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let text = String(decoding: FileSystem.readAll(descriptor), as: UTF8.self)
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags:") }),
              let flags = Int(String(line.dropFirst(6).filter { $0 != " " && $0 != "\t" }), radix: 8) else { return false }
        return flags & Int(O_CLOEXEC) != 0
        #else
        return false
        #endif
    }

    /// The processes below `roots` by parent links, plus the members of `groups`, in `table`.
    /// The roots themselves are included when they are in the table.
    public static func descendants(of roots: Set<Int32>, groups: Set<Int32>, in table: [ProcessEntry]) -> [ProcessEntry] {
        var children: [Int32: [ProcessEntry]] = [:]
        for entry in table { children[entry.parent, default: []].append(entry) }
        var found: [Int32: ProcessEntry] = [:]
        var queue = table.filter { roots.contains($0.pid) || groups.contains($0.group) }
        while let entry = queue.popLast() {
            guard found[entry.pid] == nil else { continue }
            found[entry.pid] = entry
            queue += children[entry.pid] ?? []
        }
        return found.values.sorted { $0.pid < $1.pid }
    }

    /// Makes prepush a child subreaper where the system has one (Linux), once; true when it is one.
    /// Orphans of a stage then become prepush's children instead of init's, so they are still found.
    @discardableResult
    public static func adoptOrphans() -> Bool {
        isSubreaper
    }

    /// A static let runs its initialiser once, lazily and thread-safely: the prctl happens on first use only.
    private static let isSubreaper = prepush_become_child_subreaper() == 0
}

/// The children prepush's runner has started and still waits for, so a sweep for orphans never takes
/// another run's own child for one.
enum RunningChildren {
    nonisolated(unsafe) private static var pids: Set<Int32> = []
    nonisolated(unsafe) private static var lock: pthread_mutex_t = {
        var mutex = pthread_mutex_t()
        pthread_mutex_init(&mutex, nil)
        return mutex
    }()

    static func insert(_ pid: Int32) {
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        pids.insert(pid)
    }

    static func remove(_ pid: Int32) {
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        pids.remove(pid)
    }

    static var all: Set<Int32> {
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        return pids
    }

    /// Runs `body` under the same lock.
    static func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        return body()
    }
}
