// swift-tools-version:5.9
// A package whose tests pass, fail and skip on purpose: prepush's parsers are tested on its real
// `swift test` output (see Tests/PrePushResultsTests/SamplePackageTests.swift).
import PackageDescription

let package = Package(
    name: "Sample",
    targets: [
        .target(name: "Sample"),
        .testTarget(name: "SampleXCTests", dependencies: ["Sample"]),
        .testTarget(name: "SampleSwiftTests", dependencies: ["Sample"]),
    ]
)
