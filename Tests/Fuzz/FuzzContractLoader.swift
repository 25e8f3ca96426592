// libFuzzer target for the JSON reader and the contract parser: any bytes in, a contract or a list of problems out,
// never a crash. Compiled with ContractModel's sources by Tests/Fuzz/run.sh.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContractParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let document = try? JSONValue.parse(bytes) else { return 0 }
    // What the reader accepts survives a round trip through Foundation's encoder unchanged.
    if let encoded = try? JSONEncoder().encode(document) {
        precondition((try? JSONValue.parse(Array(encoded))) == document, "round trip changed the document")
    }
    var parser = ContractParser(file: "fuzz.json")
    if let contract = parser.parse(document) {
        for endpoint in contract.endpoints {
            _ = endpoint.path.match(["api", "products", "1"])
            for scenario in endpoint.scenarios {
                if let body = scenario.body { _ = FixturePath.resolve(body, parameters: ["id": "1"]) }
            }
        }
    }
    return 0
}
