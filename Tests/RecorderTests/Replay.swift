import ContractModel
import HTTPCore
import MockServer
import Recorder
import Testing

/// Serves a recording with the real mock server (in-process, through the same parser a socket feeds)
/// and checks that each recorded request gets its recorded status and body, in the recorded order.
enum Replay {
    /// What the server answered one request.
    struct Answer: Equatable {
        let status: Int
        let body: [UInt8]
    }

    /// - Parameter sessions: Each request in a session of its own (`X-Mock-Session`), as a fresh app would be.
    static func answers(_ exchanges: [RecordedExchange], folders: RecordingFolders,
                        sessions: Bool = false) throws -> [Answer] {
        let server = try MockServer(configuration: .init(port: 0, contractsDirectory: folders.contracts,
                                                         fixturesDirectory: folders.fixtures))
        return exchanges.enumerated().map { index, exchange in
            var head = "\(exchange.method) \(exchange.path)\(exchange.query.map { "?" + $0 } ?? "") HTTP/1.1\r\n"
            head += "Host: 127.0.0.1\r\n"
            if sessions { head += "X-Mock-Session: replay-\(index)\r\n" }
            for field in exchange.requestHeaders { head += "\(field.name): \(field.value)\r\n" }
            head += "Content-Length: \(exchange.requestBody.count)\r\n\r\n"
            guard case .request(let request, _) = HTTPRequestParser.parseAll(Array(head.utf8) + exchange.requestBody),
                  case .respond(let response) = server.reply(to: request).action else {
                return Answer(status: 0, body: [])
            }
            return Answer(status: response.status.code, body: response.body)
        }
    }

    /// Expects every answer to be the recorded one: the same status, and the same body (as JSON values
    /// when it is JSON, since fixtures are written indented with sorted keys; else byte for byte).
    /// - Parameter sessions: Each request in a fresh session (see ``answers(_:folders:sessions:)``).
    static func expectRecordedAnswers(_ exchanges: [RecordedExchange], folders: RecordingFolders, sessions: Bool = false,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answers = try answers(exchanges, folders: folders, sessions: sessions)
        for (exchange, answer) in zip(exchanges, answers) {
            let request = "\(exchange.method) \(exchange.path)\(exchange.query.map { "?" + $0 } ?? "")"
            #expect(answer.status == exchange.status, "\(request)", sourceLocation: sourceLocation)
            if let recorded = try? JSONValue.parse(exchange.responseBody) {
                #expect((try? JSONValue.parse(answer.body)) == recorded, "\(request)", sourceLocation: sourceLocation)
            } else {
                #expect(answer.body == exchange.responseBody, "\(request)", sourceLocation: sourceLocation)
            }
        }
    }

    /// `exchanges` in another order, the same for every run: odd places reversed, then even ones.
    static func shuffled(_ exchanges: [RecordedExchange]) -> [RecordedExchange] {
        let indexed = Array(exchanges.enumerated())
        return indexed.filter { $0.offset % 2 == 1 }.reversed().map(\.element) + indexed.filter { $0.offset % 2 == 0 }.map(\.element)
    }
}
