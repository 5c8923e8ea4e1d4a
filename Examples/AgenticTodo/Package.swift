// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "AgenticTodo",
    platforms: [.macOS(.v14), .iOS(.v17)],
    // Libraries for the iOS app in App/AgenticTodoApp.xcodeproj, which hosts the XCUITest target.
    products: [
        .library(name: "AgenticTodoCore", targets: ["AgenticTodoCore"]),
        .library(name: "AgenticTodoViews", targets: ["AgenticTodoViews"]),
    ],
    targets: [
        // Model and app state: plain Swift, builds on Linux too.
        .target(name: "AgenticTodoCore"),
        // The SwiftUI screens; empty where SwiftUI does not exist.
        .target(name: "AgenticTodoViews", dependencies: ["AgenticTodoCore"]),
        .testTarget(name: "AgenticTodoTests", dependencies: ["AgenticTodoCore"]),
        // Flows through the app state, standing in for XCUITest on a machine without a simulator.
        .testTarget(name: "AgenticTodoFlowTests", dependencies: ["AgenticTodoCore"]),
        // The same flows with XCUITest are in UITests/AgenticTodoUITests: a target of the Xcode project
        // in App/ (a package cannot host UI tests: they need an app target), not of this package.
    ]
)
