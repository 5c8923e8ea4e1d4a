// swift-tools-version:5.7.1
// The swift-tools-version declares the minimum version of Swift required to build this package.

import PackageDescription

let package = Package(
    name: "MyTBAKit",
    platforms: [
        .iOS(.v15),
        .macOS(.v12),
    ],
    products: [
        // Products define the executables and libraries a package produces, and make them visible to other packages.
        .library(
            name: "MyTBAKit",
            targets: ["MyTBAKit"]
        )
    ],
    dependencies: [
        .package(path: "../TBAUtils")
    ],
    targets: [
        // Targets are the basic building blocks of a package. A target can define a module or a test suite.
        // Targets can depend on other targets in this package, and on products in packages this package depends on.
        .target(
            name: "MyTBAKit",
            dependencies: ["TBAUtils"]
        ),
        .testTarget(
            name: "MyTBAKitTests",
            dependencies: ["MyTBAKit"],
            resources: [
                .copy("data/")
            ]
        ),
    ]
)
