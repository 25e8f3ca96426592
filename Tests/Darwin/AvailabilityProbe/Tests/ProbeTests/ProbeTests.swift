import Synchronization

// The test targets are checked too.
func counter() -> Int {
    let mutex = Mutex(0) // expect: Mutex needs macOS 15 / iOS 18 | Mutex.init(_:) needs macOS 15 / iOS 18
    return mutex.withLock { $0 } // expect: Mutex.withLock(_:) needs macOS 15 / iOS 18
}
