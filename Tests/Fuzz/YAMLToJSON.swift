// A command-line front for the YAML reader, for Tests/Fuzz/yaml_differential.py and for trying documents by
// hand. Built by Tests/Fuzz/run.sh (target `yaml`) from ContractModel's sources and this file.
//
//   yaml-to-json FILE...   prints each file's value as compact JSON, or `error: line L, column C: reason`
//   yaml-to-json --batch   reads documents framed as `<byte count>\n<bytes>` from stdin and prints one
//                          line per document: `ok <json>` or `error <line> <column> <reason>`
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@main
struct YAMLToJSON {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments == ["--batch"] {
            var input: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = read(0, &buffer, buffer.count)
                if count <= 0 { break }
                input += buffer[..<count]
            }
            var index = 0
            while let newline = input[index...].firstIndex(of: 10),
                  let length = Int(String(decoding: input[index..<newline], as: UTF8.self)) {
                let document = input[(newline + 1)..<(newline + 1 + length)]
                index = newline + 1 + length
                print(line(for: document))
            }
            return
        }
        var failed = false
        for path in arguments {
            guard let file = fopen(path, "rb") else { print("error: cannot open \(path)"); failed = true; continue }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count <= 0 { break }
                bytes += buffer[..<count]
            }
            fclose(file)
            do {
                print(String(decoding: try JSONValue.parseYAML(bytes).serialized, as: UTF8.self))
            } catch {
                print("error: \(error)")
                failed = true
            }
        }
        exit(failed ? 1 : 0)
    }

    private static func line(for document: ArraySlice<UInt8>) -> String {
        do {
            return "ok " + String(decoding: try JSONValue.parseYAML(document).serialized, as: UTF8.self)
        } catch {
            return "error \(error.line) \(error.column) \(error.reason.split(separator: "\n").joined(separator: "\\n"))"
        }
    }
}
