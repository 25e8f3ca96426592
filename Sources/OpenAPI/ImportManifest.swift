#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel

/// What the last import wrote, kept in the contracts folder as `.openapi-import` (JSON, no `.json`
/// extension, so the loader never takes it for a contract): each file's FNV-1a hash. A file whose hash
/// still matches was not edited since and may be overwritten; any other existing file is a person's and is
/// kept unless `--force`.
struct ImportManifest {
    static let fileName = ".openapi-import"

    /// Hash by key (`contracts/pets.json`, `fixtures/pets/listPets/ok.json`).
    var hashes: [String: String] = [:]
    var source = ""

    init() {}

    /// The manifest in `contractsDirectory`, or an empty one.
    init(contractsDirectory: String) {
        guard let bytes = FileManager.default.contents(atPath: contractsDirectory + "/" + Self.fileName),
              let json = try? JSONValue.parse(bytes), let files = json["files"]?.objectValue else { return }
        for (key, value) in files { if let hash = value.stringValue { hashes[key] = hash } }
    }

    func json() -> [UInt8] {
        JSONValue.object([
            "comment": .string("Written by mock-server openapi import: the files it wrote and their FNV-1a hashes. "
                + "A file edited since is kept on the next import unless --force."),
            "source": .string(source),
            "files": .object(hashes.mapValues(JSONValue.string)),
        ]).prettyPrinted()
    }

    /// FNV-1a, 64 bits, as 16 hex digits: enough to notice an edit (not a defence against forgery).
    static func hash(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
