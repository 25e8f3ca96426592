#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Signals taken synchronously: blocked in every thread, then received one at a time by `sigwait`.
/// A signal that arrives before anyone waits stays pending instead of being lost, and the thread that
/// waits for it never blocks on anything else (a full stdout pipe, a slow start).
extension POSIX {
    public enum Signal: CaseIterable, Sendable {
        case interrupt, terminate, quit, hangUp, user1, user2

        public var number: Int32 {
            switch self {
            case .interrupt: SIGINT
            case .terminate: SIGTERM
            case .quit: SIGQUIT
            case .hangUp: SIGHUP
            case .user1: SIGUSR1
            case .user2: SIGUSR2
            }
        }

        public var name: String {
            switch self {
            case .interrupt: "SIGINT"
            case .terminate: "SIGTERM"
            case .quit: "SIGQUIT"
            case .hangUp: "SIGHUP"
            case .user1: "SIGUSR1"
            case .user2: "SIGUSR2"
            }
        }
    }

    /// Blocks `signals` in the calling thread and in every thread it starts afterwards. Call it before
    /// any thread starts, so no thread is left where the default action (ending the process) applies.
    public static func blockSignals(_ signals: [Signal]) {
        var set = signalSet(signals)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until one of `signals` (blocked beforehand) is pending and takes it.
    public static func waitForSignal(_ signals: [Signal]) -> Signal {
        var set = signalSet(signals)
        while true {
            var number: Int32 = 0
            if sigwait(&set, &number) == 0, let signal = signals.first(where: { $0.number == number }) {
                return signal
            }
        }
    }

    private static func signalSet(_ signals: [Signal]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal.number) }
        return set
    }
}
