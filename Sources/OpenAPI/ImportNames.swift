/// Names the import makes: endpoint ids, scenario names, domains, file names, path parameters.
enum ImportNames {
    /// Letters, digits, `_`, `-` and `.` kept; anything else becomes `_`: an endpoint id or scenario name
    /// travels in URLs and headers.
    static func word(_ text: String) -> String {
        let word = String(text.unicodeScalars.map { scalar -> Character in
            isWordScalar(scalar) ? Character(scalar) : "_"
        })
        return word.isEmpty ? "_" : word
    }

    /// A domain or file name: lower case, words joined by `-`: `Swagger Petstore` → `swagger-petstore`.
    static func slug(_ text: String) -> String {
        var slug = ""
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_") {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty && !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        return slug.isEmpty ? "api" : slug
    }

    /// A path parameter's name as a contract allows it (letters, digits, `_`): `pet-id` → `pet_id`.
    static func parameter(_ name: String) -> String {
        let cleaned = String(name.unicodeScalars.map { scalar -> Character in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? Character(scalar) : "_"
        })
        return cleaned.isEmpty ? "_" : cleaned
    }

    /// An id for an operation without `operationId`: the method and the path's words, camel-cased:
    /// `GET /pets/{petId}/toys` → `getPetsByPetIdToys`.
    static func derivedID(method: String, path: String) -> String {
        var id = method.lowercased()
        for segment in path.split(separator: "/") {
            if segment.hasPrefix("{") && segment.hasSuffix("}") {
                id += "By" + capitalized(parameter(String(segment.dropFirst().dropLast())))
            } else {
                for word in segment.split(whereSeparator: { !$0.isLetter && !$0.isNumber }) {
                    id += capitalized(String(word))
                }
            }
        }
        return id
    }

    /// A scenario name for a status: `ok`, `created`, `notFound`, …; `status418` for others.
    static func scenario(status: Int) -> String {
        reasons[status] ?? "status\(status)"
    }

    private static let reasons: [Int: String] = [
        200: "ok", 201: "created", 202: "accepted", 203: "nonAuthoritative", 204: "noContent", 205: "resetContent",
        206: "partialContent", 300: "multipleChoices", 301: "movedPermanently", 302: "found", 303: "seeOther",
        304: "notModified", 307: "temporaryRedirect", 308: "permanentRedirect", 400: "badRequest",
        401: "unauthorized", 402: "paymentRequired", 403: "forbidden", 404: "notFound", 405: "methodNotAllowed",
        406: "notAcceptable", 408: "requestTimeout", 409: "conflict", 410: "gone", 411: "lengthRequired",
        412: "preconditionFailed", 413: "contentTooLarge", 414: "uriTooLong", 415: "unsupportedMediaType",
        416: "rangeNotSatisfiable", 417: "expectationFailed", 418: "imATeapot", 421: "misdirectedRequest",
        422: "unprocessableContent", 423: "locked", 424: "failedDependency", 425: "tooEarly",
        426: "upgradeRequired", 428: "preconditionRequired", 429: "tooManyRequests",
        431: "requestHeaderFieldsTooLarge", 451: "unavailableForLegalReasons", 500: "internalServerError",
        501: "notImplemented", 502: "badGateway", 503: "serviceUnavailable", 504: "gatewayTimeout",
        505: "httpVersionNotSupported", 507: "insufficientStorage", 511: "networkAuthenticationRequired",
    ]

    /// `name`, or `name-2`, `name-3`, … : the first that `taken` does not hold.
    static func unique(_ name: String, in taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var counter = 2
        while taken.contains("\(name)-\(counter)") { counter += 1 }
        return "\(name)-\(counter)"
    }

    /// A fixture file's extension for a media type.
    static func fileExtension(for mediaType: String) -> String {
        let essence = MediaType.essence(mediaType)
        if MediaType.isJSON(essence) { return "json" }
        switch essence {
        case "text/html": return "html"
        case "text/csv": return "csv"
        case "application/xml", "text/xml": return "xml"
        case _ where essence.hasSuffix("+xml"): return "xml"
        case _ where essence.hasPrefix("text/"): return "txt"
        default: return "bin"
        }
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
            || scalar == "_" || scalar == "-" || scalar == ".")
    }
}
