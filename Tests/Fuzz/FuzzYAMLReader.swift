// libFuzzer target for the YAML reader: any bytes in, a value or a YAMLReadError out, never a crash or a hang.
// What it reads must be JSON: its compact JSON reads back, as JSON and as YAML (a superset of JSON), to the
// same value. Compiled with ContractModel's sources by Tests/Fuzz/run.sh (target `yaml`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzYAMLReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let value: JSONValue
    do {
        value = try JSONValue.parseYAML(bytes)
    } catch {
        precondition(error.line >= 1 && error.column >= 1 && !error.reason.isEmpty, "an error without a place")
        return 0
    }
    let json = value.serialized
    switch Result(catching: { () throws(JSONReadError) in try JSONValue.parse(json) }) {
    case .success(let read): precondition(read == value, "the JSON of the value reads back differently")
    case .failure(let error):
        // The JSON reader allows one level less than the YAML reader.
        precondition(error.reason.contains("nested more than"), "the JSON of the value is not JSON: \(error)")
    }
    switch Result(catching: { () throws(YAMLReadError) in try JSONValue.parseYAML(json) }) {
    case .success(let read): precondition(read == value, "the JSON of the value reads back differently as YAML")
    case .failure(let error):
        // JSON strings may hold characters raw that YAML only allows escaped (DEL, C1 controls, U+FFFE).
        precondition(error.reason.contains("control character"), "the JSON of the value is not YAML: \(error)")
    }
    return 0
}
