import Foundation

/// The absolute path of the running prepush binary, written into the installed hook.
public enum ExecutablePath {
    /// The resolved path of this process's executable.
    public static func current() -> String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return resolved
        }
        #endif
        if let path = Bundle.main.executablePath {
            return (path as NSString).resolvingSymlinksInPath
        }
        let argument = CommandLine.arguments[0]
        if argument.hasPrefix("/") { return argument }
        return ((FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(argument) as NSString).standardizingPath
    }
}
