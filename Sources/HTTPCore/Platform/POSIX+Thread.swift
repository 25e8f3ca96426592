/// Event-loop threads.
extension POSIX {
    /// Loop threads get their stack size explicitly: Darwin gives secondary threads only 512 KB, and a
    /// `ulimit -s` on Linux changes the default too. Only touched pages cost memory.
    public static let loopThreadStackSize = 8 << 20

    /// Starts `body` on a new joinable thread with `stackSize` bytes of stack.
    public static func startThread(
        stackSize: Int = loopThreadStackSize,
        _ body: @escaping @Sendable () -> Void
    ) throws(SocketError) -> ThreadHandle {
        let box = Unmanaged.passRetained(ThreadBody(body))
        switch LibC.createThread(stackSize: stackSize, context: box.toOpaque(), entry: { POSIX.runThreadBody($0) }) {
        case .success(let thread):
            return ThreadHandle(thread: thread)
        case .failure(let error):
            box.release()
            // pthreads return their error number instead of setting errno.
            throw .failed(operation: "pthread_create", errno: error.code, reason: error.reason)
        }
    }

    private static func runThreadBody(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        guard let context else { return nil }
        Unmanaged<ThreadBody>.fromOpaque(context).takeRetainedValue().body()
        return nil
    }

    public struct ThreadHandle: @unchecked Sendable {
        // @unchecked: a pthread_t is an opaque id, joined once by the owner that started it.
        let thread: LibC.Thread
        public func join() { LibC.joinThread(thread) }
        /// For a thread nobody will join: its resources go when it ends, and the process may end before it.
        public func detach() { LibC.detachThread(thread) }
    }

    private final class ThreadBody {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }
}
