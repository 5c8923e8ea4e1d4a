#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Darwin)
import Darwin
#endif
import PrePushCore

/// The absolute path of the running prepush binary, written into the installed hook.
package enum ExecutablePath {
    /// The resolved path of this process's executable (the prepush binary a test names, for a
    /// command run inside a test process: `CommandContext.executablePath`).
    package static func current() -> String {
        if let named = CommandContext.current?.executablePath { return named }
        #if os(Linux)
        if let resolved = FileSystem.realPath("/proc/self/exe") { return resolved }
        #elseif canImport(Darwin)
        var size: UInt32 = 0
        _ = _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        if _NSGetExecutablePath(&buffer, &size) == 0, let resolved = FileSystem.realPath(String(cString: buffer)) {
            return resolved
        }
        #endif
        let argument = CommandLine.arguments[0]
        return FileSystem.realPath(argument) ?? FilePath.absolute(argument, base: FileManager.default.currentDirectoryPath)
    }
}
