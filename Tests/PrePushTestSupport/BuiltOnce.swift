import Foundation

/// A repository a suite's tests share because making it is the slow part (a package built with
/// `swift build`): made by the first test that asks, under a lock, and kept for the test run.
public final class BuiltOnce: @unchecked Sendable {
    private let lock = NSLock()
    private var made: GitRepository?
    private let make: @Sendable () throws -> GitRepository

    /// `make` creates and builds the repository; it runs once, when first asked.
    public init(_ make: @escaping @Sendable () throws -> GitRepository) {
        self.make = make
    }

    /// The repository, made on the first call.
    public func repository() throws -> GitRepository {
        lock.lock(); defer { lock.unlock() }
        if let made { return made }
        let repository = try make()
        // Held by a `static` for the whole run, so never released: removed when the process exits.
        repository.root.removeAtExit()
        made = repository
        return repository
    }
}
