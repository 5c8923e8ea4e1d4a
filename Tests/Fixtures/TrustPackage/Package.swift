// swift-tools-version:6.0
// A package prepush's tests build and run for real (Tests/PrePushCLITests/TrustTests.swift): six
// suites that each have a test named `emitModule()`, one of which fails when TRUST_FAIL=1, and a
// hanging XCTest and Swift Testing test (TRUST_HANG=xctest or swift-testing) for timeouts and Ctrl-C.
import PackageDescription

let package = Package(
    name: "TrustPackage",
    targets: [
        .target(name: "Trust"),
        .testTarget(name: "TrustTests", dependencies: ["Trust"]),
    ]
)
