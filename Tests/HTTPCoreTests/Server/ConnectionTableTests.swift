@testable import HTTPCore
import Testing

/// The event loop's descriptor-indexed table of connections.
struct ConnectionTableTests {
    private final class Slot {
        let fd: Int32
        init(_ fd: Int32) { self.fd = fd }
    }

    private func connection(_ fd: Int32) -> Slot { Slot(fd) }

    @Test func storesFindsAndRemoves_KeepingCount() {
        var table = ConnectionTable<Slot>()
        #expect(table.isEmpty)
        let five = connection(5), seventy = connection(70)
        table[5] = five
        table[70] = seventy
        table[5] = five
        #expect(table.count == 2)
        #expect(table[5] === five && table[70] === seventy)
        #expect(table[6] == nil && table[1_000] == nil && table[-1] == nil)
        #expect(Set(table.all.map(\.fd)) == [5, 70])

        table[5] = nil
        table[5] = nil
        table[9_999] = nil
        table[-3] = connection(-3)
        #expect(table.count == 1)
        #expect(table[5] == nil)
        table[70] = nil
        #expect(table.isEmpty && table.all.isEmpty)
    }
}
