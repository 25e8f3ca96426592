/// One command-line option of `mock-server`, declared once: its names, its value, its help, the commands
/// that take it, and what it sets. The usage text, the parser and the check of which command takes what all
/// read ``Flag/all``.
struct Flag: Sendable {
    /// Where a flag may be given.
    enum Place: Hashable, Sendable {
        /// `serve` (and `--help`, `--version`).
        case serve
        /// `serve` with `--proxy <url>`.
        case serveWithProxy
        /// `serve` with `--proxy <url> --record`.
        case serveRecording
        case validate
        case listEndpoints
        case openAPIExport
        case openAPIImport
        case record
        case verify
    }

    /// `--port` or, with a short form, `["-h", "--help"]`.
    let names: [String]
    /// What its value is called in the help (`<n>`), `nil` for a switch; an optional value is `[<origin>]`.
    let value: String?
    /// One sentence or two; wrapped when printed.
    let help: String
    let places: Set<Place>
    /// What giving it in one of these places says, instead of the generic "does not take".
    var misplaced: (in: Set<Place>, text: String)? = nil
    /// How many words its value is (`--report junit <file>` takes two); ``apply`` gets them joined by a line feed.
    var valueWords = 1
    /// Sets what the flag says; the value is `nil` for a switch, or an optional value not given.
    let apply: @Sendable (inout CommandLineOptions, String?) throws(CommandLineOptions.UsageError) -> Void

    var name: String { names.last ?? "" }
    var takesValue: Bool { value != nil }
    var valueIsOptional: Bool { value?.hasPrefix("[") ?? false }

    /// `--port <n>` or `-h, --help`, as the help lists it.
    var synopsis: String { names.joined(separator: ", ") + (value.map { " " + $0 } ?? "") }

    /// The flag named `name`, if any.
    static func named(_ name: String) -> Flag? { all.first { $0.names.contains(name) } }

    // MARK: - Usage text

    /// The help's options section for `place`: every flag it takes, in declaration order, aligned and wrapped.
    static func helpLines(for place: Place, indent: Int = 2, width: Int = 110) -> [String] {
        let column = indent + 21
        var lines: [String] = []
        for flag in all where flag.places.contains(place) {
            let head = String(repeating: " ", count: indent) + flag.synopsis
            var words = flag.help.split(separator: " ").map(String.init)
            // A synopsis that leaves no two spaces before the help's column gets a line of its own.
            var line = head + String(repeating: " ", count: max(0, column - head.count))
            if head.count + 2 > column {
                lines.append(head)
                line = String(repeating: " ", count: column)
            }
            var first = true
            while !words.isEmpty {
                let word = words.removeFirst()
                if !first && line.count + 1 + word.count > width {
                    lines.append(line)
                    line = String(repeating: " ", count: column) + word
                } else {
                    line += (first ? "" : " ") + word
                }
                first = false
            }
            lines.append(line)
        }
        return lines
    }
}
