import Dispatch

/// Work spread over every core, results kept in the input's order.
package enum Concurrently {
    /// `transform` of each element, computed on every core. `transform` must touch no shared
    /// mutable state: each call writes only its own slot.
    package static func map<Element: Sendable, Result: Sendable>(_ elements: [Element], _ transform: @Sendable (Element) -> Result) -> [Result] {
        guard elements.count > 1 else { return elements.map(transform) }
        let slots = UnsafeMutableBufferPointer<Result?>.allocate(capacity: elements.count)
        slots.initialize(repeating: nil)
        defer {
            slots.deinitialize()
            slots.deallocate()
        }
        nonisolated(unsafe) let shared = slots
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in
            shared[index] = transform(elements[index])
        }
        return slots.map { $0! }
    }
}
