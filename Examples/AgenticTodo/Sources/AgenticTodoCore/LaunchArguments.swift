/// The launch arguments UI tests pass (the UITestSupport library ships the same constants).
public enum LaunchArguments {
    public static let uitesting = "--uitesting"
    public static let skipOnboarding = "--skip-onboarding"
    public static let resetState = "--reset-state"
}
