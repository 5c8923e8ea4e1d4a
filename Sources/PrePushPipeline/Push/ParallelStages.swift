#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import PrePushConfig
import PrePushCore

/// Runs stages marked `parallel: true` at the same time, each on a thread of its own (a stage's
/// run blocks in `poll` for as long as the stage runs, so a pool sized to the cores would
/// serialise them). Each keeps its own log, timeout and process tree; what each would print goes
/// to a file of its own and is shown whole, in file order, once all have ended, so the terminal
/// never interleaves two stages' lines.
enum ParallelStages {
    static func run(_ stages: [StageSettings], diagnostics: Diagnostics, folder: String,
                    _ body: @escaping (StageSettings, Diagnostics) -> StageResult) -> [StageResult] {
        let console = diagnostics.console
        console.line("prepush ▸ \(TextFormatting.list(stages.map(\.kind.rawValue))) side by side", tone: .quiet)
        let slots = UnsafeMutableBufferPointer<StageResult?>.allocate(capacity: stages.count)
        slots.initialize(repeating: nil)
        defer { slots.deinitialize(); slots.deallocate() }
        var outputs: [(path: String, fd: Int32)] = []
        for stage in stages {
            let path = FilePath.join(folder, ".\(stage.kind.rawValue).console")
            outputs.append((path, open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)))
        }
        let threads = stages.indices.map { index -> Thread in
            // Each stage tells its story, diagnostics included, into its own file.
            let buffered = outputs[index].fd >= 0
                ? Diagnostics(console: Console(output: outputs[index].fd, errors: outputs[index].fd, isTerminal: false, usesColour: console.usesColour))
                : diagnostics
            return Thread { slots[index] = body(stages[index], buffered) }
        }
        threads.forEach { $0.join() }
        for (path, fd) in outputs {
            guard fd >= 0 else { continue }
            _ = lseek(fd, 0, SEEK_SET)
            let bytes = FileSystem.readAll(fd)
            close(fd)
            unlink(path)
            bytes.withUnsafeBytes { console.passThrough($0, fromStandardError: false) }
        }
        return slots.map { $0! }
    }

    /// A joinable POSIX thread running one closure.
    final class Thread {
        private final class Work {
            let body: () -> Void
            init(_ body: @escaping () -> Void) { self.body = body }
        }

        #if canImport(Darwin)
        private var handle: pthread_t?
        #else
        private var handle = pthread_t()
        #endif

        init(_ body: @escaping () -> Void) {
            let work = Unmanaged.passRetained(Work(body)).toOpaque()
            let created = pthread_create(&handle, nil, { raw in
                #if canImport(Darwin)
                let work = Unmanaged<Work>.fromOpaque(raw).takeRetainedValue()
                #else
                let work = Unmanaged<Work>.fromOpaque(raw!).takeRetainedValue()
                #endif
                work.body()
                return nil
            }, work)
            if created != 0 {
                // No thread to be had: run it here rather than not at all.
                let work = Unmanaged<Work>.fromOpaque(work).takeRetainedValue()
                work.body()
                joined = true
            }
        }

        private var joined = false

        func join() {
            guard !joined else { return }
            #if canImport(Darwin)
            if let handle { pthread_join(handle, nil) }
            #else
            pthread_join(handle, nil)
            #endif
            joined = true
        }
    }
}
