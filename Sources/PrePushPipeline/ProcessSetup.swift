import PrePushGit

/// What the command line does around every command that opens a repository: libgit2's set-up
/// begun before the arguments are parsed (on the second core), and settled before the process
/// exits (it must not exit while that set-up runs on the other thread). The commands themselves
/// wait for it where they open a repository.
package enum ProcessSetup {
    /// Starts libgit2's set-up on another thread.
    package static func beginGit() { GitLibrary.beginInitializing() }

    /// Waits for a set-up that was begun.
    package static func settle() { GitLibrary.settle() }
}
