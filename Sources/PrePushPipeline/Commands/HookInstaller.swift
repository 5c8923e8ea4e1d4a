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
import PrePushCore

/// Every way installing or removing the hook can fail.
package enum InstallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A file could not be read, written, moved or removed.
    case fileSystem(path: String, reason: String)
    /// Both a foreign pre-push hook and a kept one exist: keeping a second would lose the first.
    case keptHookInTheWay(hook: String, kept: String)

    package var description: String {
        switch self {
        case .fileSystem(let path, let reason):
            return "\(path): \(reason)"
        case .keptHookInTheWay(let hook, let kept):
            return "\(hook) is not prepush's and \(kept) already holds a kept hook; merge them by hand, then run prepush install again"
        }
    }
}

/// What `install` did.
package enum InstallOutcome: Sendable, Equatable {
    /// The hook was written; `keptHook` is where an existing hook was moved, if there was one.
    case installed(hook: String, keptHook: String?)
    /// prepush's hook was already there, the same; nothing changed.
    case unchanged(hook: String)
}

/// What `uninstall` did.
package enum UninstallOutcome: Sendable, Equatable {
    /// prepush's hook was removed; `restored` is the kept hook put back, if there was one.
    case removed(hook: String, restored: Bool)
    /// There was no pre-push hook of prepush's.
    case notInstalled(hook: String)
    /// The pre-push hook there is not prepush's and was left alone.
    case foreignHook(hook: String)
}

/// Writes and removes the pre-push hook in a hooks folder, never losing a hook that was there.
package struct HookInstaller: Sendable {
    /// The line that marks a hook written by `prepush install`.
    package static let marker = "# prepush-managed-hook v1"
    /// The line that marks the shim in prepush's `hooks/` folder (for `core.hooksPath`).
    package static let shimMarker = "# prepush-hook-shim"
    /// The name an existing hook is kept under; prepush's hook runs it first.
    package static let keptHookName = "pre-push.prepush-kept"

    /// The folder git runs hooks from.
    package let hooksDirectory: String
    /// The prepush binary the hook runs (absolute), found again on `PATH` if it moves.
    package let executablePath: String

    /// Creates an installer for one hooks folder.
    package init(hooksDirectory: String, executablePath: String) {
        self.hooksDirectory = hooksDirectory
        self.executablePath = executablePath
    }

    /// The hook's path.
    package var hookPath: String { FilePath.join(hooksDirectory, "pre-push") }
    /// Where an existing hook is kept.
    package var keptHookPath: String { FilePath.join(hooksDirectory, Self.keptHookName) }

    /// Installs the hook. Idempotent: a second run with the same binary changes nothing.
    package func install() throws(InstallError) -> InstallOutcome {
        let manager = FileManager.default
        let script = Self.script(executablePath: executablePath)
        try fileSystem(hooksDirectory) { try manager.createDirectory(atPath: hooksDirectory, withIntermediateDirectories: true) }
        var kept: String?
        if let existing = try readIfPresent(hookPath) {
            if existing == script || existing.contains(Self.shimMarker) { return .unchanged(hook: hookPath) }
            if !existing.contains(Self.marker) {
                if manager.fileExists(atPath: keptHookPath) { throw .keptHookInTheWay(hook: hookPath, kept: keptHookPath) }
                try fileSystem(hookPath) { try manager.moveItem(atPath: hookPath, toPath: keptHookPath) }
                kept = keptHookPath
            }
        } else if isDanglingLink(hookPath) {
            // A broken symlink is still the user's; keep it rather than write through or over it.
            if manager.fileExists(atPath: keptHookPath) || isDanglingLink(keptHookPath) {
                throw .keptHookInTheWay(hook: hookPath, kept: keptHookPath)
            }
            try fileSystem(hookPath) { try manager.moveItem(atPath: hookPath, toPath: keptHookPath) }
            kept = keptHookPath
        }
        try writeAtomically(script, to: hookPath)
        return .installed(hook: hookPath, keptHook: kept)
    }

    /// Removes prepush's hook and puts a kept hook back.
    package func uninstall() throws(InstallError) -> UninstallOutcome {
        let manager = FileManager.default
        guard let existing = try readIfPresent(hookPath) else { return .notInstalled(hook: hookPath) }
        guard existing.contains(Self.marker) else { return .foreignHook(hook: hookPath) }
        try fileSystem(hookPath) { try manager.removeItem(atPath: hookPath) }
        if manager.fileExists(atPath: keptHookPath) || isDanglingLink(keptHookPath) {
            try fileSystem(keptHookPath) { try manager.moveItem(atPath: keptHookPath, toPath: hookPath) }
            return .removed(hook: hookPath, restored: true)
        }
        return .removed(hook: hookPath, restored: false)
    }

    /// The hook script: runs a kept hook first with the same arguments and ref lines, then prepush.
    package static func script(executablePath: String) -> String {
        let quoted = ShellQuoting.quoted(executablePath)
        return """
        #!/bin/sh
        \(marker)
        # Written by `prepush install`; `prepush uninstall` removes it and puts back the hook it kept
        # (\(keptHookName)), if any. Skip all checks once with: git push --no-verify
        prepush_bin=\(quoted)
        if [ ! -x "$prepush_bin" ]; then
            prepush_bin=$(command -v prepush 2>/dev/null || true)
        fi
        if [ -z "$prepush_bin" ]; then
            echo "prepush: the pre-push hook cannot find prepush: it is no longer at "\(quoted)" and not on PATH." >&2
            echo "prepush: reinstall it and run 'prepush install', or remove this hook ($0)." >&2
            echo "prepush: to push once without checks: git push --no-verify" >&2
            exit 1
        fi
        # ${0%/*} rather than $(dirname "$0"): no extra process on every push.
        case $0 in */*) hooks_dir=${0%/*} ;; *) hooks_dir=. ;; esac
        kept="$hooks_dir/\(keptHookName)"
        if [ -x "$kept" ]; then
            if [ -t 0 ]; then
                "$kept" "$@" || exit $?
                exec "$prepush_bin" hook pre-push "$@"
            fi
            refs=$(cat)
            printf '%s\\n' "$refs" | "$kept" "$@" || exit $?
            printf '%s\\n' "$refs" | "$prepush_bin" hook pre-push "$@"
            exit $?
        fi
        exec "$prepush_bin" hook pre-push "$@"

        """
    }


    private func readIfPresent(_ path: String) throws(InstallError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw .fileSystem(path: path, reason: ErrorText.describe(error))
        }
    }

    private func isDanglingLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil && !FileManager.default.fileExists(atPath: path)
    }

    /// Writes next to the target and renames, so a hook is never half-written.
    private func writeAtomically(_ text: String, to path: String) throws(InstallError) {
        do {
            try AtomicFile.write(text, to: path, permissions: 0o755)
        } catch {
            throw .fileSystem(path: path, reason: error.reason)
        }
    }

    private func fileSystem(_ path: String, _ body: () throws -> Void) throws(InstallError) {
        do {
            try body()
        } catch {
            throw .fileSystem(path: path, reason: ErrorText.describe(error))
        }
    }
}
