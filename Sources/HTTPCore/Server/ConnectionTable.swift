/// The connections of one event loop (or its guests' descriptors), by descriptor. The kernel hands out the lowest free
/// descriptor, so a dense array serves the several lookups per request without hashing.
struct ConnectionTable<Element> {
    private var slots: [Element?] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    subscript(fd: Int32) -> Element? {
        get {
            let index = Int(fd)
            return index >= 0 && index < slots.count ? slots[index] : nil
        }
        set {
            let index = Int(fd)
            guard index >= 0 else { return }
            if index >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: max(index + 1 - slots.count, slots.count)))
            }
            switch (slots[index] != nil, newValue != nil) {
            case (false, true): count += 1
            case (true, false): count -= 1
            default: break
            }
            slots[index] = newValue
        }
    }

    /// Every connection, copied out so that the caller may close connections while going through them.
    var all: [Element] { slots.compactMap { $0 } }
}
