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
                ForEach(Priority.allCases, id: \.self) { Text($0.rawValue.capitalized) }
            }
            .accessibilityIdentifier("detail_picker_priority")
            Button("Save") { state.update(task) }
                .accessibilityIdentifier("detail_button_save")
        }
    }
}
#endif
