// A URLSession client loop for Tests/Benchmarks/run.sh: sequential and 16 concurrent GETs.
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

@main
struct URLSessionLoop {
    static func main() async throws {
        guard CommandLine.arguments.count > 1, let url = URL(string: CommandLine.arguments[1]) else {
            print("usage: urlsession-loop <url>")
            return
        }
        let session = URLSession(configuration: .ephemeral)
        let sequentialCount = 2_000
        var start = Date()
        for _ in 0..<sequentialCount { _ = try await session.data(from: url) }
        let sequential = Double(sequentialCount) / Date().timeIntervalSince(start)

        let concurrentCount = 4_000
        start = Date()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<16 {
                group.addTask {
                    for _ in stride(from: worker, to: concurrentCount, by: 16) { _ = try await session.data(from: url) }
                }
            }
            try await group.waitForAll()
        }
        let concurrent = Double(concurrentCount) / Date().timeIntervalSince(start)
        print(String(format: "sequential %.0f req/s, 16 concurrent %.0f req/s", sequential, concurrent))
    }
}
