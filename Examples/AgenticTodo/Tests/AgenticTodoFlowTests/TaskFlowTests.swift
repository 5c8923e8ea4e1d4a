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
