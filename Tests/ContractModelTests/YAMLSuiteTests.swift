import ContractModel
import Foundation
import Testing

/// Cases of the yaml-test-suite (YAMLSuite/README.md says which and why): YAML 1.2's spec examples and the
/// suite's own, each read and compared with the suite's JSON, or refused where the suite or this reader
/// says it is an error.
struct YAMLSuiteTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let id: String
        let name: String
        let expect: String
        let json: JSONValue?
        let reason: String?
        var testDescription: String { "\(id) \(name)" }
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("YAMLSuite")

    static let cases: [Case] = {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent("cases.json")),
              case .array(let entries)? = try? JSONValue.parse(data) else { return [] }
        return entries.compactMap { entry in
            guard case .object(let fields) = entry, case .string(let id)? = fields["id"],
                  case .string(let name)? = fields["name"], case .string(let expect)? = fields["expect"]
            else { return nil }
            var reason: String?
            if case .string(let text)? = fields["reason"] { reason = text }
            return Case(id: id, name: name, expect: expect, json: fields["json"], reason: reason)
        }
    }()

    @Test func cases_AreAllLoaded() {
        #expect(Self.cases.count == 190)
    }

    @Test(arguments: cases)
    func suiteCase_ReadsAsTheSuiteSays_OrIsRefusedAsDocumented(_ suiteCase: Case) throws {
        let bytes = try Data(contentsOf: Self.folder.appendingPathComponent(suiteCase.id + ".yaml"))
        let result = Result { () throws(YAMLReadError) in try JSONValue.parseYAML(bytes) }
        switch (suiteCase.expect, result) {
        case ("value", .success(let value)), ("lenient", .success(let value)), ("differs", .success(let value)):
            #expect(value == suiteCase.json)
        case ("error", .failure):
            break
        case ("refused", .failure(let error)):
            #expect(error.reason.hasPrefix(suiteCase.reason ?? "?"), "\(error)")
        case (_, .success(let value)):
            Issue.record("read as \(String(decoding: value.serialized, as: UTF8.self))")
        case (_, .failure(let error)):
            Issue.record("\(error)")
        }
    }
}
