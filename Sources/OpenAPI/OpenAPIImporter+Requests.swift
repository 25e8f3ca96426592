import ContractModel

extension OpenAPIImporter {
    /// A contract's `request` from an operation's parameters (merged with its path item's), request body
    /// and security requirements.
    mutating func requestRequirements(_ operation: [String: JSONValue], pathItem: [String: JSONValue],
                                      template: PathTemplate, renamed: [String: String],
                                      at pointer: String) throws(OpenAPIImportError) -> [String: JSONValue] {
        var pathParams: [String: String] = [:]
        var query: [String: String] = [:]
        var headers: [String: String] = [:]
        // Path-level parameters first; an operation's own parameter of the same name and place replaces one.
        var parameters: [(key: String, value: JSONValue, pointer: String)] = []
        let pathPointer = String(pointer[..<(pointer.lastIndex(of: "/") ?? pointer.endIndex)])
        for (list, base) in [(pathItem["parameters"], pathPointer), (operation["parameters"], pointer)] {
            for (index, item) in (list?.arrayValue ?? []).enumerated() {
                let at = Pointer.appending(Pointer.appending(base, "parameters"), String(index))
                let (parameter, _) = try document.resolve(item, at: at)
                guard let name = parameter["name"]?.stringValue, let place = parameter["in"]?.stringValue else {
                    throw .at(file, at, "a parameter needs \"name\" and \"in\"")
                }
                let key = place + " " + (place == "header" ? name.lowercased() : name)
                parameters.removeAll { $0.key == key }
                parameters.append((key, parameter, at))
            }
        }
        for (_, parameter, at) in parameters {
            let name = parameter["name"]?.stringValue ?? ""
            let required = parameter["required"]?.boolValue ?? false
            let type = try textType(of: parameter, at: at)
            let declaration = type.kind + (required && !type.nullable ? "" : "?")
            switch parameter["in"]?.stringValue {
            case "path":
                guard let contractName = renamed[name], template.parameterNames.contains(contractName) else {
                    plan.report.skip(file, at, "path parameter \(name) is not in the path; ignored")
                    continue
                }
                pathParams[contractName] = type.kind
            case "query":
                query[name] = declaration
            case "header":
                let lower = name.lowercased()
                if lower == MockExtension.scenarioHeader.lowercased() || lower == MockExtension.sessionHeader.lowercased()
                    || MockExtension.headersOpenAPIIgnores.contains(lower) { continue }
                headers[name] = declaration
            case "cookie":
                plan.report.skip(file, at, "cookie parameter \(name) is not checked (contracts do not read cookies)")
            case let other:
                throw .at(file, Pointer.appending(at, "in"), "\"\(other ?? "")\" is not path, query, header or cookie")
            }
        }
        var request: [String: JSONValue] = [:]
        var auth = false
        try security(operation, at: pointer, bearer: &auth, headers: &headers, query: &query)
        if !pathParams.isEmpty { request["pathParams"] = .object(pathParams.mapValues(JSONValue.string)) }
        if !query.isEmpty { request["query"] = .object(query.mapValues(JSONValue.string)) }
        if !headers.isEmpty { request["headers"] = .object(headers.mapValues(JSONValue.string)) }
        if auth { request["auth"] = .string("bearer") }
        if let body = operation["requestBody"],
           let requirement = try bodyRequirement(body, at: Pointer.appending(pointer, "requestBody")) {
            request["body"] = requirement
        }
        return request
    }

    /// A contract type for a value that travels as text (parameter, form field), and whether it may be null.
    private mutating func textType(of parameter: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> (kind: String, nullable: Bool)
    {
        if let schema = parameter["schema"] {
            return try fieldType(schema, at: Pointer.appending(pointer, "schema"), carrier: .text)
        }
        if let content = parameter["content"]?.objectValue {
            return (content.keys.contains(where: MediaType.isJSON) ? "json" : "string", false)
        }
        return ("string", false)
    }

    /// A schema as a contract field type. Unions of one type and null (`anyOf: [{type: integer}, {type:
    /// null}]`, `type: [integer, "null"]`, `nullable: true`) are that type, nullable.
    mutating func fieldType(_ schema: JSONValue, at pointer: String, carrier: FieldType.Carrier,
                            encoding: JSONValue? = nil) throws(OpenAPIImportError) -> (kind: String, nullable: Bool) {
        let (resolved, location) = try document.resolve(schema, at: pointer)
        guard case .object(let fields) = resolved else { return (carrier == .json ? "json" : "string", false) }
        var nullable = fields["nullable"]?.boolValue == true
            || fields["type"]?.arrayValue?.contains(.string("null")) == true
        for keyword in ["anyOf", "oneOf"] {
            guard let branches = fields[keyword]?.arrayValue else { continue }
            var kinds: Set<String> = []
            for (index, branch) in branches.enumerated() {
                let (branchSchema, _) = try document.resolve(branch, at: Pointer.appending(location, "\(keyword)/\(index)"))
                if SchemaExample.type(of: branchSchema.objectValue ?? [:]) == "null" {
                    nullable = true
                } else {
                    kinds.insert(try fieldType(branch, at: Pointer.appending(location, "\(keyword)/\(index)"),
                                               carrier: carrier).kind)
                }
            }
            if kinds.count == 1, let kind = kinds.first { return (kind, nullable) }
            return (carrier == .json || carrier == .multipart ? "json" : "string", nullable)
        }
        if let branches = fields["allOf"]?.arrayValue, fields["type"] == nil, let first = branches.first {
            return try fieldType(first, at: Pointer.appending(location, "allOf/0"), carrier: carrier)
        }
        let contentType = encoding?["contentType"]?.stringValue
        switch SchemaExample.type(of: fields) {
        case "integer": return ("integer", nullable)
        case "number": return ("number", nullable)
        case "boolean": return ("boolean", nullable)
        case "null": return (carrier == .json ? "json" : "string", true)
        case "string":
            let format = fields["format"]?.stringValue
            let mediaType = fields["contentMediaType"]?.stringValue ?? contentType
            if carrier == .multipart && (format == "binary" || format == "base64" || fields["contentEncoding"] != nil
                || mediaType.map { !MediaType.isJSON($0) && !MediaType.isText($0) } == true) {
                return ("file", nullable)
            }
            if carrier != .json, let mediaType, MediaType.isJSON(mediaType) { return ("json", nullable) }
            return ("string", nullable)
        case "array":
            if carrier == .json { return ("json", nullable) }
            let items = fields["items"] ?? .object([:])
            let itemType = try fieldType(items, at: Pointer.appending(location, "items"), carrier: carrier,
                                         encoding: encoding)
            return (itemType.kind, nullable)
        case "object":
            if carrier == .text {
                plan.report.skip(file, location, "an object in a parameter or form field is checked as a string")
                return ("string", nullable)
            }
            return ("json", nullable)
        default:
            if carrier == .multipart, let contentType, MediaType.isJSON(contentType) { return ("json", nullable) }
            return (carrier == .text ? "string" : "json", nullable)
        }
    }

    /// A contract `body` from a Request Body Object: JSON, form or multipart with the schema's properties
    /// as fields; `nil` (reported) for what a contract cannot check.
    private mutating func bodyRequirement(_ body: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> JSONValue?
    {
        let (resolved, location) = try document.resolve(body, at: pointer)
        guard let content = resolved["content"]?.objectValue, !content.isEmpty else { return nil }
        let choices: [(kind: String, carrier: FieldType.Carrier, matches: (String) -> Bool)] = [
            ("json", .json, { MediaType.essence($0) == "application/json" }),
            ("form", .text, { MediaType.essence($0) == "application/x-www-form-urlencoded" }),
            ("multipart", .multipart, { MediaType.essence($0) == "multipart/form-data" }),
        ]
        guard let choice = choices.first(where: { choice in content.keys.contains(where: choice.matches) }),
              let mediaType = content.keys.sorted().first(where: choice.matches), let media = content[mediaType] else {
            plan.report.skip(file, Pointer.appending(location, "content"), "a request body of "
                + content.keys.sorted().joined(separator: ", ")
                + " is not checked (contracts check JSON, form and multipart bodies)")
            return nil
        }
        for other in content.keys.sorted() where other != mediaType {
            plan.report.skip(file, Pointer.appending(Pointer.appending(location, "content"), other),
                             "the mock accepts only \(mediaType) here")
        }
        if resolved["required"]?.boolValue != true {
            plan.report.skip(file, location,
                             "the request body is optional, which a contract cannot say; the body is not checked")
            return nil
        }
        let mediaPointer = Pointer.appending(Pointer.appending(location, "content"), mediaType)
        // A contract's JSON body is an object; a body that may be anything else is not checked at all.
        guard let schema = media["schema"] else {
            guard choice.kind != "json" else {
                plan.report.skip(file, mediaPointer, "a JSON body without a schema is not checked")
                return nil
            }
            return .object(["type": .string(choice.kind), "fields": .object([:])])
        }
        let properties = try objectProperties(schema, at: Pointer.appending(mediaPointer, "schema"))
        guard let properties else {
            guard choice.kind != "json" else {
                plan.report.skip(file, Pointer.appending(mediaPointer, "schema"), "a JSON body that is not an object "
                    + "(an array, a oneOf, a scalar) is not checked")
                return nil
            }
            plan.report.skip(file, Pointer.appending(mediaPointer, "schema"), "the body's schema is not an object with "
                + "properties; only its media type is checked")
            return .object(["type": .string(choice.kind), "fields": .object([:])])
        }
        var fields: [String: JSONValue] = [:]
        for (name, (schema, required, at)) in properties {
            let type = try fieldType(schema, at: at, carrier: choice.carrier, encoding: media["encoding"]?[name])
            fields[name] = .string(type.kind + (required && !type.nullable ? "" : "?"))
        }
        return .object(["type": .string(choice.kind), "fields": .object(fields)])
    }

    /// An object schema's properties, `allOf` branches merged, with whether each is required and where it is;
    /// `nil` when the schema is not an object.
    private func objectProperties(_ schema: JSONValue, at pointer: String) throws(OpenAPIImportError)
        -> [String: (schema: JSONValue, required: Bool, pointer: String)]?
    {
        let (resolved, location) = try document.resolve(schema, at: pointer)
        guard case .object(let fields) = resolved else { return nil }
        var result: [String: (schema: JSONValue, required: Bool, pointer: String)] = [:]
        var isObject = SchemaExample.type(of: fields) == "object"
        for (index, branch) in (fields["allOf"]?.arrayValue ?? []).enumerated() {
            guard let merged = try objectProperties(branch, at: Pointer.appending(location, "allOf/\(index)")) else {
                continue
            }
            isObject = true
            result.merge(merged) { _, new in new }
        }
        guard isObject else { return nil }
        let required = Set(fields["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        for (name, property) in fields["properties"]?.objectValue ?? [:] {
            let readOnly = property["readOnly"]?.boolValue == true
            result[name] = (property, required.contains(name) && !readOnly,
                            Pointer.appending(Pointer.appending(location, "properties"), name))
        }
        for name in required where result[name] != nil && !(result[name]?.required ?? true) {
            if let entry = result[name], entry.schema["readOnly"]?.boolValue != true {
                result[name] = (entry.schema, true, entry.pointer)
            }
        }
        return result
    }

    /// Bearer auth, API keys and Basic auth from the operation's security requirements (else the document's).
    private mutating func security(_ operation: [String: JSONValue], at pointer: String, bearer: inout Bool,
                                   headers: inout [String: String], query: inout [String: String])
        throws(OpenAPIImportError)
    {
        let own = operation["security"]
        let requirements = (own ?? document.root["security"])?.arrayValue ?? []
        let at = own != nil ? Pointer.appending(pointer, "security") : "/security"
        guard !requirements.isEmpty else { return }
        if requirements.contains(where: { $0.objectValue?.isEmpty ?? false }) {
            plan.report.skip(file, at, "authentication is optional here, so the mock does not require it")
            return
        }
        if requirements.count > 1 {
            plan.report.skip(file, at, "of several alternative security requirements the mock requires the first")
        }
        for name in (requirements[0].objectValue ?? [:]).keys.sorted() {
            let schemePointer = Pointer.appending("/components/securitySchemes", name)
            guard let scheme = document.value(at: schemePointer) else {
                throw .at(file, Pointer.appending(at, "0/\(name)"),
                          "security scheme \"\(name)\" is not in components/securitySchemes")
            }
            let (resolved, _) = try document.resolve(scheme, at: schemePointer)
            switch resolved["type"]?.stringValue {
            case "http" where resolved["scheme"]?.stringValue?.lowercased() == "bearer":
                bearer = true
            case "oauth2", "openIdConnect":
                bearer = true
                plan.report.skip(file, schemePointer, "\(name) is checked as a bearer token (scopes are not checked)")
            case "http":
                headers["Authorization"] = "string"
                plan.report.skip(file, schemePointer, "\(name) (\(resolved["scheme"]?.stringValue ?? "http")): only the "
                    + "presence of an Authorization header is checked")
            case "apiKey":
                let keyName = resolved["name"]?.stringValue ?? name
                switch resolved["in"]?.stringValue {
                case "header": headers[keyName] = "string"
                case "query": query[keyName] = "string"
                default: plan.report.skip(file, schemePointer, "API key \(keyName) in a cookie is not checked")
                }
            default:
                plan.report.skip(file, schemePointer, "security scheme \(name) (\(resolved["type"]?.stringValue ?? "?")) "
                    + "is not checked")
            }
        }
    }
}
