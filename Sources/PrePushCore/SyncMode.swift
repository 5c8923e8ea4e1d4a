/// How the tree is sent to a remote Mac for a remote UI run (data model: `SyncMode`).
public enum SyncMode: String, Sendable, CaseIterable, Equatable {
    /// Incremental, compressed transfer with deletion of stale files.
    case rsync
    /// A recursive copy of the whole tree.
    case scp
}
