/// The files of the demo repository: a slice of the AgenticTodo app's model (from
/// shared/spec/agentic-todo-demo.md) that builds on Linux, its unit tests, and the stage scripts.
enum DemoFiles {
    static let package: [(String, String)] = [
        ("Package.swift", """
        // swift-tools-version:5.9
        import PackageDescription

        let package = Package(
            name: "AgenticTodo",
            targets: [
                .target(name: "TodoModel"),
                .testTarget(name: "TodoModelTests", dependencies: ["TodoModel"]),
            ]
        )

        """),
        ("Sources/TodoModel/TodoItem.swift", """
        import Foundation

        /// One task on the home screen.
        public struct TodoItem: Equatable, Identifiable {
            public let id: Int
            public var title: String
            public var isDone: Bool

            public init(id: Int, title: String, isDone: Bool = false) {
                self.id = id
                self.title = title
                self.isDone = isDone
            }
        }

        /// The list the home screen shows, with the rules the UI relies on.
        public struct TodoList: Equatable {
            public private(set) var items: [TodoItem] = []

            public init() {}

            /// Adds a task; blank titles are refused, as the add button is disabled for them.
            @discardableResult
            public mutating func add(_ title: String) -> TodoItem? {
                let trimmed = title.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty else { return nil }
                let item = TodoItem(id: (items.map(\\.id).max() ?? 0) + 1, title: trimmed)
                items.append(item)
                return item
            }

            /// Toggles a task's done state.
            public mutating func toggle(_ id: Int) {
                guard let index = items.firstIndex(where: { $0.id == id }) else { return }
                items[index].isDone.toggle()
            }

            /// Tasks still to do, for the home screen's counter.
            public var remaining: Int { items.filter { !$0.isDone }.count }
        }

        """),
        ("Tests/TodoModelTests/TodoListTests.swift", """
        import XCTest
        @testable import TodoModel

        final class TodoListTests: XCTestCase {
            func test_home_addTask() {
                var list = TodoList()
                XCTAssertEqual(list.add("  Buy milk ")?.title, "Buy milk")
                XCTAssertEqual(list.remaining, 1)
            }

            func test_home_blankTaskIsRefused() {
                var list = TodoList()
                XCTAssertNil(list.add("   "))
                XCTAssertTrue(list.items.isEmpty)
            }

            func test_home_toggleTask() {
                var list = TodoList()
                let item = list.add("Write tests")!
                list.toggle(item.id)
                XCTAssertEqual(list.remaining, 0)
            }
        }

        """),
        ("scripts/ui-tests.sh", """
        #!/bin/sh
        # Stands in for `xcodebuild test -scheme AgenticTodoUITests ...`, which needs a Mac and a
        # simulator: it checks that every UI flow script this demo knows finishes.
        set -e
        for flow in scripts/flows/*.sh; do
            echo "running UI flow $flow"
            sh "$flow"
        done
        echo "all UI flows finished"

        """),
        ("scripts/flows/add-task.sh", """
        #!/bin/sh
        echo "add task: tap home_button_add, type a title, tap add_button_save"

        """),
        (".prepush.yml", """
        # prepush configuration for the demo (every key: docs/configuration.md)
        stages:
          unit:
            run: swift build --build-tests && swift test --skip-build
            timeout: 600
          ui:
            run: sh scripts/ui-tests.sh
            timeout: 5
        reports:
          directory: .prepush/reports

        """),
    ]

    /// The second commit: a UI flow that never finishes, so the UI stage runs into its timeout.
    static let hangingUIStage: [(String, String)] = [
        ("scripts/flows/add-task.sh", """
        #!/bin/sh
        echo "add task: tap home_button_add, then wait for the sheet (it never appears)"
        sleep 600 &
        wait

        """),
    ]
}
