@testable import HTTPCore
@testable import MockServer
import Testing

struct ThreadCountTests {
    @Test func defaultThreads_AreTheAvailableProcessors_AtMostFour() {
        #expect(MockServer.defaultThreadCount == min(POSIX.availableProcessors(), 4))
        #expect(POSIX.availableProcessors() >= 1)
    }
}
