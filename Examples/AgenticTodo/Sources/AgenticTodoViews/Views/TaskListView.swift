#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

struct TaskListView: View {
    let state: AppState
    @State private var addingTask = false

    var body: some View {
        NavigationStack {
            List {
                ForEach(state.tasks) { task in
                    NavigationLink(value: task.id) {
                        Label(task.title, systemImage: task.isDone ? "checkmark.circle.fill" : "circle")
                    }
                    .accessibilityIdentifier("home_cell_task_\(task.id)")
                }
                .onDelete { offsets in
                    let removed = offsets.map { state.tasks[$0].id }
                    removed.forEach(state.delete)
                }
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
