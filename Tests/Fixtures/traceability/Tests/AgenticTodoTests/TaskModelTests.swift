import Testing
@testable import AgenticTodo

@Suite("Task model")
struct TaskModelTests {
    @Test func test_model_toggleDone() {
        #expect(TodoTask(title: "Milk").toggled().isDone)
    }

    @Test("Sorting by priority")
    func test_model_sortByPriority() async throws {
        #expect(TodoTask.sorted(byPriority: [.low, .high]).first == .high)
    }

    @Suite struct Nested {
        @Test func test_model_nestedCase() { #expect(Priority.allCases.count == 3) }
    }
}

@Test func test_appState_logout() {
    #expect(AppState.loggedIn().loggingOut().isLoggedIn == false)
}
