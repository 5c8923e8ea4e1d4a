import PrePushCore
import PrePushGit

/// A hooks folder the repository tracks (`core.hooksPath .githooks`, committed with git-lfs's call
/// in it): `prepush install` leaves its files alone, since writing this machine's binary path into a
/// committed hook (or an untracked file beside it) would leave every clone's tree changed, and says
/// how to add prepush there so that it runs for everyone who has it on `PATH`.
package enum TrackedHooks {
    /// What to say instead of installing, when `hooksDirectory` is inside the working tree and holds
    /// tracked files (`runsPrepush`: its committed hook already calls prepush, so nothing is missing);
    /// nil when installing there is safe, or the committed hook is prepush's own shim (`hooks/pre-push`).
    package static func advice(repository: Repository, hooksDirectory: String) -> (text: String, runsPrepush: Bool)? {
        guard let root = repository.workingDirectory else { return nil }
        let base = FilePath.normalize(root), folder = FilePath.normalize(hooksDirectory)
        guard folder.hasPrefix(base + "/") else { return nil }
        let relative = String(folder.dropFirst(base.count + 1))
        guard let tracked = repository.indexedFiles()?.files.keys.filter({ $0.hasPrefix(relative + "/") }), !tracked.isEmpty else { return nil }
        let hook = relative + "/pre-push"
        if tracked.contains(hook) {
            let text = (try? FileReading.read(FilePath.join(folder, "pre-push"), limit: 1_000_000).get()).map { String(decoding: $0, as: UTF8.self) } ?? ""
            if text.contains(HookInstaller.shimMarker) { return nil }
            if text.contains("prepush hook pre-push") { return ("prepush: \(hook) is committed and already runs prepush; nothing to install", true) }
            return ("""
            prepush: not installed: \(hook) is committed (core.hooksPath \(relative)); prepush does not write this machine's paths into committed files. \
            Add prepush to it and commit it, so that it runs for everyone who has prepush on PATH. git gives a pre-push hook the refs on \
            standard input once: read them once and give them to each command:
              refs=$(cat)
              printf '%s\\n' "$refs" | <the command already there> "$@" || exit $?
              printf '%s\\n' "$refs" | prepush hook pre-push "$@"
            """, false)
        }
        return ("""
        prepush: not installed: core.hooksPath is \(relative), a folder the repository tracks; a hook written there would be an \
        untracked file with this machine's paths in every clone. Commit \(hook) (executable) instead, so that it runs for everyone \
        who has prepush on PATH:
          #!/bin/sh
          exec prepush hook pre-push "$@"
        """, false)
    }
}
