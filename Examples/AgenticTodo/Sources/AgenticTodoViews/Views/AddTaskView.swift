#if canImport(SwiftUI)
import SwiftUI
import AgenticTodoCore

struct AddTaskView: View {
    let state: AppState
    @Environment(\.dismiss) private var dismiss
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
                ForEach(Priority.allCases, id: \.self) { Text($0.rawValue.capitalized) }
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
