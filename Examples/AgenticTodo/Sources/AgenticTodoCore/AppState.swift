import Foundation
import Observation

/// The app's state and the rules its screens rely on (the spec's AppState). Observable, so the
/// SwiftUI screens that read it redraw when it changes.
@Observable
public final class AppState {
    public private(set) var isLoggedIn = false
    public private(set) var tasks: [TodoTask]
    public var isDarkMode = false
    public var notificationsEnabled = true
    public let isUITesting: Bool

    public init(launchArguments: [String] = []) {
        isUITesting = launchArguments.contains(LaunchArguments.uitesting)
        tasks = launchArguments.contains(LaunchArguments.resetState) ? [] : TodoTask.sampleData
        // Onboarding is the sign-in screen: skipping it starts signed in, on the tabs.
        isLoggedIn = launchArguments.contains(LaunchArguments.skipOnboarding)
    }

    /// Signs in; the demo accepts any well-formed email with a password of 8 or more characters.
    @discardableResult
    public func logIn(email: String, password: String) -> Bool {
        isLoggedIn = email.contains("@") && email.contains(".") && password.count >= 8
        return isLoggedIn
    }

    public func logOut() { isLoggedIn = false }

    /// Adds a task; a blank title is refused (the save button is disabled for it).
    @discardableResult
    public func addTask(title: String, description: String = "", priority: Priority = .medium) -> TodoTask? {
        let trimmed = title.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        let task = TodoTask(title: trimmed, description: description, priority: priority)
        tasks.append(task)
        return task
    }

    public func toggle(_ id: UUID) {
        guard let index = tasks.firstIndex(where: { $0.id == id }) else { return }
        tasks[index].isDone.toggle()
    }

    public func delete(_ id: UUID) { tasks.removeAll { $0.id == id } }

    public func update(_ task: TodoTask) {
        guard let index = tasks.firstIndex(where: { $0.id == task.id }) else { return }
        tasks[index] = task
    }

    /// Settings' "Clear data".
    public func clearData() { tasks = [] }

    /// Tasks still to do, for the home screen's counter.
    public var remaining: Int { tasks.filter { !$0.isDone }.count }

    /// Tasks by priority, high first.
    public var byPriority: [TodoTask] {
        let order: [Priority] = [.high, .medium, .low]
        return tasks.sorted { order.firstIndex(of: $0.priority)! < order.firstIndex(of: $1.priority)! }
    }
}
