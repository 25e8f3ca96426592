#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import Testing
@testable import Networking

/// The caller's `JSONEncoder` and `JSONDecoder` are used exactly as configured, every setting included.
struct CoderFidelityTests {
    struct Blob: Codable, Equatable, Sendable { let bytes: Data; let ratio: Double }

    private func sentBody(_ body: some RequestBody) throws -> String {
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:9/p")))
        request.httpMethod = "POST"
        try body.apply(to: &request)
        return String(decoding: request.httpBody ?? Data(), as: UTF8.self)
    }

    @Test func jsonBody_KeepsDataAndNonConformingFloatStrategies() throws {
        // GIVEN an encoder that writes Data as hex and infinity as a string
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.map { String(format: "%02x", $0) }.joined())
        }
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        encoder.outputFormatting = .sortedKeys

        // WHEN a body is built with it
        let text = try sentBody(JSONBody(Blob(bytes: Data([0xCA, 0xFE]), ratio: .infinity), encoder: encoder))

        // THEN both settings were applied
        #expect(text == #"{"bytes":"cafe","ratio":"inf"}"#)
    }

    @Test func jsonBody_KeepsUserInfo() throws {
        struct Tagged: Encodable, Sendable {
            static let key = CodingUserInfoKey(rawValue: "tag")!
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(encoder.userInfo[Self.key] as? String ?? "none")
            }
        }
        let encoder = JSONEncoder()
        encoder.userInfo[Tagged.key] = "from-caller"
        #expect(try sentBody(JSONBody(Tagged(), encoder: encoder)) == #""from-caller""#)
    }

    @Test func jsonResponse_KeepsDataAndNonConformingFloatStrategies() throws {
        // GIVEN a decoder that reads Data from hex and "inf" as infinity
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2)
                bytes.append(UInt8(text[index..<next], radix: 16) ?? 0)
                index = next
            }
            return Data(bytes)
        }
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let body = Data(#"{"bytes":"cafe","ratio":"inf"}"#.utf8)

        // WHEN a 200 is decoded with it, bare and enveloped
        let bare = StatusMapping().result(status: 200, body: body, decoding: .json(Blob.self, decoder: decoder))
        let enveloped = StatusMapping().result(
            status: 200, body: Data(#"{"status":200,"responseMsg":"ok","data":"#.utf8) + body + Data("}".utf8),
            decoding: .envelope(Blob.self, decoder: decoder))

        // THEN it is a success, not a pathErr
        #expect(bare.value == Blob(bytes: Data([0xCA, 0xFE]), ratio: .infinity))
        #expect(enveloped.value == Blob(bytes: Data([0xCA, 0xFE]), ratio: .infinity))
    }
}
