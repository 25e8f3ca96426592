import HTTPCore

/// `mock-server-tls --target https://host[:port][/base] --port 0 [--timeout s]`: a loopback HTTP→HTTPS bridge
/// that `mock-server` starts for an `https://` target. Listens on 127.0.0.1 only, prints its port on its first
/// line of standard output, relays each plain HTTP/1.1 request to the target through URLSession, and exits when
/// its standard input closes (its parent went away) or at SIGTERM.
@main
enum BridgeCommand {
    static let usage = "usage: mock-server-tls --target https://host[:port][/base] --token <t> [--port 0] [--timeout seconds]"

    static func main() {
        var target: BridgeTarget?
        var port: UInt16 = 0
        var timeout = 30
        var token: String?
        var arguments = CommandLine.arguments.dropFirst()
        while let flag = arguments.popFirst() {
            guard let value = arguments.popFirst() else { fail("\(flag) needs a value\n\(usage)") }
            switch flag {
            case "--target":
                guard let parsed = BridgeTarget(parsing: value) else {
                    fail("--target: \(value) is not https://host[:port][/base]")
                }
                target = parsed
            case "--token":
                token = value
            case "--port":
                guard let parsed = UInt16(value) else { fail("--port: '\(value)' is not a port") }
                port = parsed
            case "--timeout":
                guard let parsed = Double(value), parsed > 0 else {
                    fail("--timeout: '\(value)' is not a number of seconds")
                }
                timeout = Int(parsed.rounded(.up))
            default:
                fail("unknown option \(flag)\n\(usage)")
            }
        }
        guard let target, let token, !token.isEmpty else { fail(usage) }
        POSIX.ignoreBrokenPipes()
        let session = BridgeSession(target: target, timeout: timeout)
        let server = HTTPServer(configuration: .init(host: "127.0.0.1", port: port, threads: 2, io: nil),
                                responder: BridgeResponder(session: session, token: token))
        do {
            try server.start { port in POSIX.writeLine(String(port)) }
        } catch {
            fail("cannot listen on 127.0.0.1:\(port): \(error)")
        }
        // The parent holds the other end of standard input: end-of-file means it is gone.
        var byte: UInt8 = 0
        while LibC.readDescriptor(0, &byte, 1) != 0 {}
        POSIX.exit(0)
    }

    static func fail(_ message: String) -> Never {
        POSIX.writeLine("mock-server-tls: error: \(message)", toStandardError: true)
        POSIX.exit(2)
    }
}
