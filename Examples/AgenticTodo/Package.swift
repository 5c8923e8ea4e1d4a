// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "AgenticTodo",
    platforms: [.macOS(.v14), .iOS(.v17)],
    targets: [
        // Model and app state: plain Swift, builds on Linux too.
        .target(name: "AgenticTodoCore"),
        // The SwiftUI screens; empty where SwiftUI does not exist.
        .target(name: "AgenticTodoViews", dependencies: ["AgenticTodoCore"]),
        .testTarget(name: "AgenticTodoTests", dependencies: ["AgenticTodoCore"]),
        // Flows through the app state, standing in for XCUITest on a machine without a simulator.
        .testTarget(name: "AgenticTodoFlowTests", dependencies: ["AgenticTodoCore"]),
        // The same flows with XCUITest, compiled only for iOS (empty elsewhere). Running them needs an
        // iOS UI-test target in an Xcode project, with an app target to host them (see README.md).
        .testTarget(name: "AgenticTodoUITests", path: "UITests/AgenticTodoUITests"),
    ]
)
