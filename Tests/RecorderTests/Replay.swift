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

    static func answers(_ exchanges: [RecordedExchange], folders: RecordingFolders) throws -> [Answer] {
        let server = try MockServer(configuration: .init(port: 0, contractsDirectory: folders.contracts,
                                                         fixturesDirectory: folders.fixtures))
        return exchanges.map { exchange in
            var head = "\(exchange.method) \(exchange.path)\(exchange.query.map { "?" + $0 } ?? "") HTTP/1.1\r\n"
            head += "Host: 127.0.0.1\r\n"
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
    static func expectRecordedAnswers(_ exchanges: [RecordedExchange], folders: RecordingFolders,
                                      sourceLocation: SourceLocation = #_sourceLocation) throws {
        let answers = try answers(exchanges, folders: folders)
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
}
