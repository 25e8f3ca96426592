import HTTPCore
import MockServer
import Recorder

/// `mock-server record --target <url>`, and the recording of `--proxy --record`: start-up lines, and the
/// flush at SIGINT/SIGTERM.
enum RecordCommand {
    static func record(_ options: CommandLineOptions, output: MockServerCommand.Output) {
        guard let target = options.recording.target else { MockServerCommand.fail("record needs --target <url>", code: 2) }
        POSIX.blockSignals(POSIX.Signal.allCases)
        let recording = options.recording.recording(extraHeaders: options.configuration.redactedHeaders,
                                                    json: options.configuration.logFormat == .json)
        let proxy = makeProxy(target: target, options: options.recording, recording: recording)
        var configuration = RecordServer.Configuration()
        configuration.host = options.configuration.host
        configuration.port = options.configuration.port
        configuration.threads = options.configuration.threads
        configuration.io = options.configuration.io
        configuration.logFormat = options.configuration.logFormat
        configuration.allowedHosts = options.configuration.allowedHosts
        configuration.adminToken = options.configuration.adminToken
        let server = RecordServer(configuration: configuration, proxy: proxy)
        POSIX.ignoreBrokenPipes()
        _ = POSIX.raiseDescriptorLimit()
        let signalThread: POSIX.ThreadHandle
        do {
            signalThread = try POSIX.startThread(stackSize: 256 * 1024) {
                MockServerCommand.handleSignals(output: output, stop: { server.stop(); proxy.bridge?.stop() },
                                                flush: { finalFlush(proxy, recording: recording) }, reload: {
                    MockServerCommand.emit("SIGHUP ignored: record has no contracts to reload", toStandardError: true)
                })
            }
        } catch {
            MockServerCommand.fail("cannot start the signal thread: \(error)", code: 1)
        }
        do {
            try server.start { port in MockServerCommand.emit(output.listening(host: configuration.host, port: port)) }
        } catch {
            MockServerCommand.fail("cannot listen on \(SocketError.display(host: configuration.host, port: configuration.port)): \(error)",
                                   code: 1)
        }
        if let token = server.adminToken, configuration.adminToken == nil {
            MockServerCommand.emit("warning: devices on your networks can reach the proxy; POST /__mock/record/flush needs "
                                   + "the header X-Mock-Admin-Token: \(token) from them", toStandardError: true)
        }
        output.note(banner(target: target, recording: recording, options: options.recording))
        signalThread.join()
    }

    /// The proxy to `target`; for an `https://` target, with its TLS bridge started (exit 1 when it cannot start).
    /// - Parameter threads: Requests relayed at once.
    static func makeProxy(target: UpstreamTarget, options: RecordOptions, recording: Recording?,
                          threads: Int = 8) -> UpstreamProxy {
        do {
            try recording?.writer.checkFolders()
        } catch {
            MockServerCommand.fail("cannot record: \(error.description)", code: 1)
        }
        var bridge: TLSBridge?
        if target.isSecure {
            do {
                bridge = try TLSBridge.start(target: target, timeout: options.upstreamTimeout)
            } catch {
                MockServerCommand.fail(error.description, code: 1)
            }
        }
        return UpstreamProxy(target: target, timeout: options.upstreamTimeout, recording: recording, threads: threads,
                             bridge: bridge)
    }

    /// What is relayed where, and where and when the recording is written.
    static func banner(target: UpstreamTarget, recording: Recording, options: RecordOptions) -> String {
        "relaying to \(target.url) (timeout \(options.upstreamTimeout) s); recording to "
            + "\(recording.writer.contractsDirectory) and \(recording.writer.fixturesDirectory)"
            + (options.merge ? " (merging)" : "") + ", written on POST /__mock/record/flush and at SIGINT/SIGTERM"
    }

    /// The flush at shutdown: `true` when there was nothing to write or it was written.
    static func finalFlush(_ proxy: UpstreamProxy, recording: Recording?) -> Bool {
        guard let recording, recording.count > 0 else { return true }
        return proxy.flushRecording()?.succeeded ?? true
    }
}
