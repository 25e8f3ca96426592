// libFuzzer target for the response-template reader: any bytes in, a template or a problem with a position
// out, never a crash. Compiled with ContractModel's sources by Tests/Fuzz/run.sh.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseTemplate(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let text = String(decoding: bytes, as: UTF8.self)
    for isJSON in [true, false] {
        let context = ResponseTemplate.Context(
            pathParameters: ["id": FieldType(kind: .integer), "slug": FieldType(kind: .string)],
            query: ["page": FieldType(kind: .integer, isOptional: true), "q": FieldType(kind: .string)], isJSON: isJSON)
        do {
            let template = try ResponseTemplate.parse(bytes, context: context)
            // The pieces are the input again: literal bytes, and each placeholder as written.
            if text.utf8.elementsEqual(bytes) {
                var rebuilt: [UInt8] = []
                for piece in template.pieces {
                    switch piece {
                    case .literal(let literal): rebuilt += literal
                    case .placeholder(let placeholder): rebuilt += Array(placeholder.text.utf8)
                    }
                }
                precondition(rebuilt == bytes, "the pieces do not add up to the template")
            }
        } catch {
            precondition(error.line >= 1 && error.column >= 1, "a problem without a position: \(error)")
        }
    }
    return 0
}
