import PrePushCore
import PrePushGit

/// `prepush install` and `prepush uninstall`: the hook in the repository's hooks folder
/// (`core.hooksPath` honoured), an existing hook kept and run first, a tracked hooks folder left
/// to the team (what to commit there is said instead).
package enum InstallRun {
    /// Installs the hook: 0 installed or already there, 1 it cannot be written, 2 not in a
    /// repository or a tracked hooks folder that does not call prepush yet.
    package static func install(console: Console) -> ExitStatus {
        withInstaller(installing: true, console: console) { installer, diagnostics in
            switch try installer.install() {
            case .installed(let hook, let kept):
                diagnostics.say("installed \(hook)")
                if let kept { diagnostics.say("kept the existing hook as \(kept); it still runs before prepush") }
            case .unchanged(let hook):
                diagnostics.say("already installed at \(hook); nothing changed")
            }
            return .success
        }
    }

    /// Removes prepush's hook and puts back the one it kept: 0 removed or nothing to remove, 1 the
    /// hook is not prepush's or cannot be removed, 2 not in a repository.
    package static func uninstall(console: Console) -> ExitStatus {
        withInstaller(installing: false, console: console) { installer, diagnostics in
            switch try installer.uninstall() {
            case .removed(let hook, let restored):
                diagnostics.say("removed \(hook)" + (restored ? "; put back the hook it had kept" : ""))
            case .notInstalled(let hook):
                diagnostics.say("no pre-push hook at \(hook); nothing to remove")
            case .foreignHook(let hook):
                diagnostics.aside("prepush: \(hook) is not prepush's hook; left it alone")
                return .failure
            }
            return .success
        }
    }

    /// `body` with the installer and the command's sink; an installer that cannot be had, or a
    /// hook that cannot be written, ends the command as `locate` and the error say.
    static func withInstaller(installing: Bool, console: Console,
                              _ body: (HookInstaller, Diagnostics) throws -> ExitStatus) -> ExitStatus {
        let diagnostics = Diagnostics(console: console)
        switch locate(installing: installing, diagnostics: diagnostics) {
        case .failure(let stop):
            return stop.status
        case .success(let installer):
            do {
                return try body(installer, diagnostics)
            } catch {
                diagnostics.error(describing: error)
                return .failure
            }
        }
    }

    /// Why `locate` stopped: with the status the command ends with (said already).
    struct Stop: Error {
        let status: ExitStatus
    }

    /// The installer for the repository's hooks folder and this binary; for `install`, not in a
    /// hooks folder the repository tracks (the advice is said instead).
    static func locate(installing: Bool, diagnostics: Diagnostics) -> Result<HookInstaller, Stop> {
        GitLibrary.initialize()
        do {
            let repository = try CommandContext.now.openRepository()
            let folder = try repository.hooksDirectory()
            if installing, let advice = TrackedHooks.advice(repository: repository, hooksDirectory: folder) {
                // A committed hook that already calls prepush: nothing is missing.
                if advice.runsPrepush {
                    diagnostics.console.line(advice.text)
                    return .failure(Stop(status: .success))
                }
                diagnostics.aside(advice.text)
                return .failure(Stop(status: .usage))
            }
            return .success(HookInstaller(hooksDirectory: folder, executablePath: ExecutablePath.current()))
        } catch {
            diagnostics.error(describing: error)
            return .failure(Stop(status: .usage))
        }
    }
}
