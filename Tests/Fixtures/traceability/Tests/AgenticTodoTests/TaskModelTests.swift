import Testing
@testable import AgenticTodo

@Suite("Task model")
struct TaskModelTests {
    @Test func test_model_toggleDone() {
        #expect(true)
    }

    @Test("Sorting by priority")
    func test_model_sortByPriority() async throws {
        #expect(true)
    }

    @Suite struct Nested {
        @Test func test_model_nestedCase() {}
    }
}

@Test func test_appState_logout() {
    #expect(true)
}
