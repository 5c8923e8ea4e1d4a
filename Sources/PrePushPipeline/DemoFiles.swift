/// The files of the demo repository: the AgenticTodo app of shared/spec/agentic-todo-demo.md as a
/// Swift package. The model and app state build everywhere; the SwiftUI views (with the spec's
/// accessibility identifiers) compile where SwiftUI exists and are checked for accessibility
/// everywhere; unit tests and flow tests are named after the scenarios of the catalog.
enum DemoFiles {
    static let package: [(String, String)] = [
        (".gitignore", ".build/\n.swiftpm/\n"),
        ("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "AgenticTodo",
            platforms: [.macOS(.v14), .iOS(.v17)],
            targets: [
                // Model and app state: plain Swift, builds on Linux too.
                .target(name: "AgenticTodoCore"),
                // The SwiftUI screens; empty where SwiftUI does not exist.
                .target(name: "AgenticTodoViews", dependencies: ["AgenticTodoCore"]),
                .testTarget(name: "AgenticTodoTests", dependencies: ["AgenticTodoCore"]),
                // Flows through the app state, standing in for XCUITest on a machine without a simulator.
                .testTarget(name: "AgenticTodoFlowTests", dependencies: ["AgenticTodoCore"]),
            ]
        )

        """),
        ("Sources/AgenticTodoCore/TodoTask.swift", """
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

        """),
        ("Sources/AgenticTodoCore/LaunchArguments.swift", """
        /// The launch arguments UI tests pass (the UITestSupport library ships the same constants).
        public enum LaunchArguments {
            public static let uitesting = "--uitesting"
            public static let skipOnboarding = "--skip-onboarding"
            public static let resetState = "--reset-state"
        }

        """),
        ("Sources/AgenticTodoCore/AppState.swift", """
        import Foundation

        /// The app's state and the rules its screens rely on (the spec's AppState).
        public final class AppState {
            public private(set) var isLoggedIn = false
            public private(set) var tasks: [TodoTask]
            public var isDarkMode = false
            public var notificationsEnabled = true
            public let isUITesting: Bool

            public init(launchArguments: [String] = []) {
                isUITesting = launchArguments.contains(LaunchArguments.uitesting)
                tasks = launchArguments.contains(LaunchArguments.resetState) ? [] : TodoTask.sampleData
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

        """),
        ("Sources/AgenticTodoViews/Views/LoginView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct LoginView: View {
            let state: AppState
            @State private var email = ""
            @State private var password = ""

            var body: some View {
                Form {
                    TextField("Email", text: $email)
                        .textContentType(.emailAddress)
                        .accessibilityIdentifier("login_field_email")
                    SecureField("Password", text: $password)
                        .accessibilityIdentifier("login_field_password")
                    Button("Sign in") { state.logIn(email: email, password: password) }
                        .accessibilityIdentifier("login_button_submit")
                    Button("Forgot password?") { }
                        .accessibilityIdentifier("login_button_forgot")
                }
            }
        }
        #endif

        """),
        ("Sources/AgenticTodoViews/Views/MainTabView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct MainTabView: View {
            let state: AppState

            var body: some View {
                TabView {
                    TaskListView(state: state)
                        .tabItem { Label("Home", systemImage: "house") }
                        .accessibilityIdentifier("tab_home")
                    SettingsView(state: state)
                        .tabItem { Label("Settings", systemImage: "gear") }
                        .accessibilityIdentifier("tab_settings")
                }
            }
        }
        #endif

        """),
        ("Sources/AgenticTodoViews/Views/TaskListView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct TaskListView: View {
            let state: AppState
            @State private var addingTask = false

            var body: some View {
                NavigationStack {
                    List(state.tasks) { task in
                        NavigationLink(value: task.id) {
                            Label(task.title, systemImage: task.isDone ? "checkmark.circle.fill" : "circle")
                        }
                        .accessibilityIdentifier("home_cell_task_\\(task.id)")
                    }
                    .accessibilityIdentifier("home_list_tasks")
                    .navigationTitle("Tasks")
                    .toolbar {
                        Button {
                            addingTask = true
                        } label: {
                            Label("Add task", systemImage: "plus")
                        }
                        .accessibilityIdentifier("home_button_add")
                    }
                    .sheet(isPresented: $addingTask) { AddTaskView(state: state) }
                }
            }
        }
        #endif

        """),
        ("Sources/AgenticTodoViews/Views/TaskDetailView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct TaskDetailView: View {
            let state: AppState
            @State var task: TodoTask

            var body: some View {
                Form {
                    TextField("Title", text: $task.title)
                        .accessibilityIdentifier("detail_field_title")
                    TextField("Description", text: $task.description)
                        .accessibilityIdentifier("detail_field_description")
                    Picker("Priority", selection: $task.priority) {
                        ForEach(Priority.allCases, id: \\.self) { Text($0.rawValue.capitalized) }
                    }
                    .accessibilityIdentifier("detail_picker_priority")
                    Button("Save") { state.update(task) }
                        .accessibilityIdentifier("detail_button_save")
                }
            }
        }
        #endif

        """),
        ("Sources/AgenticTodoViews/Views/AddTaskView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct AddTaskView: View {
            let state: AppState
            @Environment(\\.dismiss) private var dismiss
            @State private var title = ""
            @State private var description = ""
            @State private var priority = Priority.medium

            var body: some View {
                Form {
                    TextField("Title", text: $title)
                        .accessibilityIdentifier("modal_field_title")
                    TextField("Description", text: $description)
                        .accessibilityIdentifier("modal_field_description")
                    Picker("Priority", selection: $priority) {
                        ForEach(Priority.allCases, id: \\.self) { Text($0.rawValue.capitalized) }
                    }
                    .accessibilityIdentifier("modal_picker_priority")
                    HStack {
                        Button("Cancel") { dismiss() }
                            .accessibilityIdentifier("modal_button_cancel")
                        Button("Save") {
                            state.addTask(title: title, description: description, priority: priority)
                            dismiss()
                        }
                        .disabled(title.trimmingCharacters(in: .whitespaces).isEmpty)
                        .accessibilityIdentifier("modal_button_save")
                    }
                }
            }
        }
        #endif

        """),
        ("Sources/AgenticTodoViews/Views/SettingsView.swift", """
        #if canImport(SwiftUI)
        import SwiftUI
        import AgenticTodoCore

        struct SettingsView: View {
            let state: AppState
            @State private var darkMode = false
            @State private var notifications = true

            var body: some View {
                Form {
                    Toggle("Dark mode", isOn: $darkMode)
                        .accessibilityIdentifier("settings_toggle_dark_mode")
                    Toggle("Notifications", isOn: $notifications)
                        .accessibilityIdentifier("settings_toggle_notifications")
                    Button("Clear data", role: .destructive) { state.clearData() }
                        .accessibilityIdentifier("settings_button_clear")
                    Text("Version 1.0")
                        .accessibilityIdentifier("settings_label_version")
                }
            }
        }
        #endif

        """),
        ("Tests/AgenticTodoTests/AppStateTests.swift", """
        import XCTest
        @testable import AgenticTodoCore

        final class AppStateTests: XCTestCase {
            func test_tasks_blankTitleIsRefused() {
                let state = AppState()
                XCTAssertNil(state.addTask(title: "   "))
                XCTAssertEqual(state.tasks.count, TodoTask.sampleData.count)
            }

            func test_tasks_sortByPriority() {
                let state = AppState()
                XCTAssertEqual(state.byPriority.first?.priority, .high)
                XCTAssertEqual(state.byPriority.last?.priority, .low)
            }

            func test_login_rejectsShortPassword() {
                XCTAssertFalse(AppState().logIn(email: "ana@example.com", password: "short"))
            }
        }

        """),
        ("Tests/AgenticTodoFlowTests/FlowTestCase.swift", """
        import XCTest
        import AgenticTodoCore

        /// Launches the app state the way a UI test launches the app: with launch arguments.
        class FlowTestCase: XCTestCase {
            var launchArguments: [String] = []

            override func setUp() {
                super.setUp()
                launchArguments = [LaunchArguments.uitesting]
            }

            func launch() -> AppState {
                AppState(launchArguments: launchArguments)
            }
        }

        """),
        ("Tests/AgenticTodoFlowTests/LoginFlowTests.swift", """
        import XCTest
        import AgenticTodoCore

        final class LoginFlowTests: FlowTestCase {
            func test_login_validCredentials() {
                launchArguments.append(LaunchArguments.resetState)
                let app = launch()
                XCTAssertTrue(app.isUITesting)
                XCTAssertTrue(app.logIn(email: "ana@example.com", password: "correct-horse"))
            }

            func test_login_invalidPassword() {
                let app = launch()
                XCTAssertFalse(app.logIn(email: "ana@example.com", password: "nope"))
                XCTAssertFalse(app.isLoggedIn)
            }
        }

        """),
        ("Tests/AgenticTodoFlowTests/TaskFlowTests.swift", """
        import XCTest
        import AgenticTodoCore

        final class TaskFlowTests: FlowTestCase {
            func test_tasks_addTask() {
                launchArguments.append(LaunchArguments.skipOnboarding)
                let app = launch()
                let before = app.tasks.count
                app.addTask(title: "Water the plants", priority: .high)
                XCTAssertEqual(app.tasks.count, before + 1)
            }

            func test_tasks_toggleDone() {
                let app = launch()
                let first = app.tasks[0]
                app.toggle(first.id)
                XCTAssertEqual(app.remaining, app.tasks.count - 1)
            }

            func test_tasks_swipeToDelete() {
                let app = launch()
                app.delete(app.tasks[0].id)
                XCTAssertEqual(app.tasks.count, TodoTask.sampleData.count - 1)
            }

            func test_settings_clearData() {
                let app = launch()
                app.clearData()
                XCTAssertTrue(app.tasks.isEmpty)
            }
        }

        """),
        (".prepush/scenarios.yml", """
        # The demo's scenarios (docs/traceability.md). P1 scenarios block a push when they fail or have no test.
        stories:
          US1: Sign in
          US2: Manage tasks
          US3: Settings
        scenarios:
          - story: US1
            priority: P1
            description: Sign in with a valid email and password
            test: test_login_validCredentials
            launchArguments: [--uitesting, --reset-state]
          - story: US1
            priority: P2
            description: A wrong password keeps the user signed out
            test: test_login_invalidPassword
            launchArguments: [--uitesting]
          - story: US1
            priority: P3
            description: Forgot-password link opens the reset screen
            test: test_login_forgotPassword
          - story: US2
            priority: P1
            description: Add a task from the home screen
            test: test_tasks_addTask
            launchArguments: [--uitesting, --skip-onboarding]
          - story: US2
            priority: P1
            description: Mark a task done
            test: test_tasks_toggleDone
          - story: US2
            priority: P2
            description: Swipe a task away
            test: test_tasks_swipeToDelete
          - story: US2
            priority: P2
            description: A blank title cannot be saved
            test: test_tasks_blankTitleIsRefused
          - story: US2
            priority: P3
            description: A reminder arrives at the due time
            test: test_tasks_dueReminder
            manual: true
          - story: US3
            priority: P2
            description: Clear data empties the list
            test: test_settings_clearData

        """),
        (".prepush.yml", """
        # prepush configuration for the demo (every key: docs/configuration.md)
        stages:
          unit:
            run: swift build --build-tests && swift test --skip-build --filter AgenticTodoTests
            timeout: 600
          ui:
            # On a Mac: xcodebuild test -scheme AgenticTodoUITests -destination 'platform=iOS Simulator,name=iPhone 16'
            run: swift test --skip-build --filter AgenticTodoFlowTests
            timeout: 300
        reports:
          directory: .prepush/reports

        """),
    ]

    /// The second commit: the home screen's add button loses its identifier and a sort button with
    /// only an icon appears next to it. Both are refused before any stage runs.
    static func brokenHomeScreen(_ original: String) -> String? {
        let identifier = "                .accessibilityIdentifier(\"home_button_add\")\n"
        let iconButton = "                Button { } label: { Image(systemName: \"arrow.up.arrow.down\") }\n"
        guard original.contains(identifier) else { return nil }
        return original.replacing(identifier, with: iconButton)
    }

    /// The view the second commit edits.
    static let homeScreen = "Sources/AgenticTodoViews/Views/TaskListView.swift"

    /// The reports the first push must leave.
    static let expectedReports = ["unit.log", "ui.log", "junit.xml", "results.json", "results.md",
                                  "traceability.html", "traceability.md", "traceability.json"]
}
