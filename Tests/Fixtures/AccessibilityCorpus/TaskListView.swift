import SwiftUI

struct PrimaryButtonStyle: ButtonStyle {
    var accessibilityIdentifier: String
    func makeBody(configuration: Configuration) -> some View {
        configuration.label
            .padding()
            .background(Capsule().fill(.tint))
            .accessibilityIdentifier(accessibilityIdentifier)
    }
}

struct TaskItem: Identifiable {
    let id: UUID
    var title: String
    var done: Bool
}

struct TaskListView: View {
    @State private var tasks: [TaskItem] = []
    @State private var newTitle = ""
    @State private var editing: TaskItem?

    var body: some View {
        List {
            ForEach(tasks) { task in
                HStack { // expect: tap-gesture-missing-trait
                    Image(systemName: task.done ? "checkmark.circle.fill" : "circle") // expect: image-missing-label
                        .foregroundStyle(task.done ? .green : .secondary)
                    Text(task.title)
                        .strikethrough(task.done)
                }
                .accessibilityIdentifier("tasks_cell_\(task.id)")
                .onTapGesture { toggle(task) }
                .swipeActions {
                    Button(role: .destructive) { delete(task) } label: {
                        Label("Delete", systemImage: "trash")
                    }
                    .accessibilityIdentifier("tasks_button_delete")
                }
            }
            editableCell(title: $newTitle)
                .accessibilityIdentifier("New-Task-Cell") // expect: identifier-convention
            HStack {
                TextField("New task", text: $newTitle)
                    .accessibilityIdentifier("tasks_field_new")
                Button("Add") { add() }
                    .buttonStyle(PrimaryButtonStyle(accessibilityIdentifier: "tasks_button_add"))
            }
        }
        .toolbar {
            ToolbarItem(placement: .primaryAction) {
                EditButton()
            }
            ToolbarItem(placement: .bottomBar) {
                Button(action: clearDone) { // expect: missing-identifier
                    Label("Clear done", systemImage: "checkmark.rectangle.stack")
                }
            }
        }
    }

    private func editableCell(title: Binding<String>) -> some View {
        Text(title.wrappedValue)
    }

    private func toggle(_ task: TaskItem) {}
    private func delete(_ task: TaskItem) {}
    private func add() {}
    private func clearDone() {}
}
