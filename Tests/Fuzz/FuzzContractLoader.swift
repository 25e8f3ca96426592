// libFuzzer target for the contract parser and the JSON syntax locator: any bytes in, a contract or a list of problems out,
// never a crash. Compiled with ContractModel's sources by Tests/Fuzz/run.sh.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzContractParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    // The locator runs on any bytes. It is stricter than Foundation's decoder, which also takes
    // trailing NUL bytes, so the two are not required to agree; neither may crash.
    _ = JSONSyntax.firstError(in: bytes)
    guard let document = try? JSONValue.parse(bytes) else { return 0 }
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
