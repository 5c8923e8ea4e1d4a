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
