/// The app's launch arguments: UITestSupport's, and one of the project's own.
enum LaunchArguments {
    static let uitesting = "--uitesting"
    static let skipOnboarding = "--skip-onboarding"
    static let mockPermissions = "--mock-permissions"
    static let initialLanguage = "--initial-language"
    static let seedTasks = "--seed-tasks"
}
