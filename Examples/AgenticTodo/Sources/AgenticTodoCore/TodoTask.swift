import Foundation

/// How urgent a task is.
public enum Priority: String, CaseIterable, Sendable {
    case low, medium, high
}

/// One task (the spec's TodoTask).
public struct TodoTask: Identifiable, Equatable, Sendable {
    public let id: UUID
    public var title: String
    public var description: String
    public var priority: Priority
    public var isDone: Bool
    public var dueDate: Date?

    public init(id: UUID = UUID(), title: String, description: String = "", priority: Priority = .medium,
                isDone: Bool = false, dueDate: Date? = nil) {
        self.id = id
        self.title = title
        self.description = description
        self.priority = priority
        self.isDone = isDone
        self.dueDate = dueDate
    }

    /// The tasks the list starts with, so it is never empty.
    public static let sampleData = [
        TodoTask(title: "Buy groceries", priority: .high),
        TodoTask(title: "Call the bank", description: "About the new card"),
        TodoTask(title: "Plan the weekend", priority: .low),
    ]
}
