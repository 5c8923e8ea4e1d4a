/// Adds two numbers; the tests check it.
public func add(_ a: Int, _ b: Int) -> Int { a + b }
