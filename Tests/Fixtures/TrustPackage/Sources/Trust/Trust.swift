/// What the tests check: a module that doubles.
public func doubled(_ value: Int) -> Int { value * 2 }
