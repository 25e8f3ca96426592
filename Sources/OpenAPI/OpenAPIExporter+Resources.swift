import ContractModel
import MockProtocol

extension OpenAPIExporter {
    /// The Operation Object of one of a resource's endpoints: what its store answers (the `store`
    /// scenario, the default) and the scenarios the contract adds.
    func resourceOperation(for endpoint: ContractEndpoint) -> JSONValue {
        guard let binding = endpoint.resource,
              let resource = contracts.contracts.flatMap(\.resources).first(where: { $0.id == binding.id })
        else { return operation(for: endpoint) }
        let operationKind = binding.operation
        var operation = commonFields(of: endpoint, extraParameters: Self.resourceParameters(resource, operationKind))
        switch operationKind {
        case .create, .replace:
            operation["requestBody"] = Self.itemBody(resource, patch: false)
        case .update:
            operation["requestBody"] = Self.itemBody(resource, patch: true)
        case .list, .read, .delete:
            break
        }
        var responses: [Int: ResponseDraft] = [:]
        addStoreResponses(resource, operationKind, to: &responses)
        addScenarioResponses(of: endpoint, to: &responses)
        if endpoint.request.bearerAuth {
            responses[401, default: ResponseDraft()].addMockError("The mock's own: no bearer token.")
        }
        operation["responses"] = Self.responsesJSON(responses)
        operation[MockExtension.key] = .object([
            "resource": .string(resource.id), "operation": .string(operationKind.rawValue),
        ])
        return .object(operation)
    }

    /// Filters, sorting and paging for a list; the preconditions for the others.
    private static func resourceParameters(_ resource: Resource, _ operation: ResourceOperation) -> [JSONValue] {
        let optionalString = FieldType(kind: .string, isOptional: true)
        let fields = "(" + resource.queryableFields.keys.sorted().map(regexEscaped).joined(separator: "|") + ")"
        switch operation {
        case .list:
            let filters = resource.queryableFields.sorted { $0.key < $1.key }.map { name, type in
                parameter(name, in: "query", type: FieldType(kind: type.kind, isOptional: true),
                          description: "Only items whose \(name) equals this (repeat it for any of several).")
            }
            return filters + [
                patterned("_sort", "Fields to sort by, comma-separated; a leading - sorts descending.",
                          pattern: "^-?\(fields)(,-?\(fields))*$"),
                patterned("_order", "asc or desc, per _sort field (give _sort too).", pattern: "^(asc|desc)(,(asc|desc))*$"),
                pageParameter("_page", "The page, from 1 (10 items a page unless _limit says otherwise)."),
                pageParameter("_limit", "Items per page."),
                pageParameter("_per_page", "Items per page (as _limit)."),
            ]
        case .read:
            return [parameter("If-None-Match", in: "header", type: optionalString)]
        case .replace, .update, .delete:
            return [parameter("If-Match", in: "header", type: optionalString,
                              description: "The item's ETag; another one is a 412 and nothing changes.")]
        case .create:
            return []
        }
    }

    private static func patterned(_ name: String, _ description: String, pattern: String) -> JSONValue {
        .object([
            "name": .string(name), "in": .string("query"), "required": .bool(false), "description": .string(description),
            "schema": .object(["type": .string("string"), "pattern": .string(pattern)]),
        ])
    }

    private static func regexEscaped(_ text: String) -> String {
        String(text.flatMap { #"\^$.|?*+()[]{}-/"#.contains($0) ? ["\\", $0] : [$0] })
    }

    private static func pageParameter(_ name: String, _ description: String) -> JSONValue {
        .object([
            "name": .string(name), "in": .string("query"), "required": .bool(false), "description": .string(description),
            "schema": .object(["type": .string("integer"), "minimum": .integer(1)]),
        ])
    }

    /// An item as the store answers it: the id and the fields.
    static func itemSchema(_ resource: Resource) -> JSONValue {
        var properties = resource.fields.mapValues { $0.schema(in: .json) }
        properties[resource.idField] = resource.idType == .integer
            ? .object(["type": .string("integer")]) : .object(["type": .string("string"), "format": .string("uuid")])
        let required = [resource.idField] + resource.fields.filter { !$0.value.isOptional }.keys.sorted()
        return .object(["type": .string("object"), "properties": .object(properties), "required": .strings(required)])
    }

    /// A create or replace body (every required field, nothing unknown), or a merge patch (any field).
    private static func itemBody(_ resource: Resource, patch: Bool) -> JSONValue {
        var schema: [String: JSONValue] = [
            "type": .string("object"),
            "properties": .object(resource.fields.mapValues { type in
                FieldType(kind: type.kind, isOptional: type.isOptional).schema(in: .json)
            }),
            "additionalProperties": .bool(false),
        ]
        let required = resource.fields.filter { !$0.value.isOptional }.keys.sorted()
        if !patch && !required.isEmpty { schema["required"] = .strings(required) }
        let media: JSONValue = .object(["schema": .object(schema)])
        let content: [String: JSONValue] = patch
            ? ["application/merge-patch+json": media, "application/json": media] : ["application/json": media]
        return .object(["required": .bool(true), "content": .object(content)])
    }

    /// The store's answers for `operation`.
    private func addStoreResponses(_ resource: Resource, _ operation: ResourceOperation,
                                   to responses: inout [Int: ResponseDraft]) {
        let item = Self.itemSchema(resource)
        func value(_ schema: JSONValue) -> JSONValue {
            guard resource.shape == .envelope else { return schema }
            return .object([
                "type": .string("object"), "required": .strings(["status", "responseMsg", "data"]),
                "properties": .object([
                    "status": .object(["type": .string("integer")]), "responseMsg": .object(["type": .string("string")]),
                    "data": schema,
                ]),
            ])
        }
        func answer(_ status: Int, _ note: String, schema: JSONValue?, headers: [String: JSONValue] = [:]) {
            var draft = responses[status] ?? ResponseDraft()
            draft.notes.append("Scenario `store` (the default): " + note)
            draft.headers.merge(headers) { first, _ in first }
            if let schema {
                var media = ResponseDraft.MediaDraft()
                media.schema = value(schema)
                media.servedByScenarios = true
                if operation == .list, resource.shape == .bare, let seed = resource.seedFile,
                   let reference = fixtures.reference(to: seed) {
                    media.examples["seed"] = reference
                }
                draft.content["application/json"] = media
            }
            responses[status] = draft
        }
        let etag = ["ETag": ResponseDraft.header(example: nil)]
        switch operation {
        case .list:
            let total = ResponseDraft.header(example: nil, schema: .object(["type": .string("integer")]))
            answer(200, "the items, filtered, sorted and paged.", schema: .object(["type": .string("array"), "items": item]),
                   headers: ["X-Total-Count": total])
        case .create:
            answer(201, "the item created, with its id.", schema: item,
                   headers: etag.merging(["Location": ResponseDraft.header(example: nil)]) { first, _ in first })
            responses[507, default: ResponseDraft()].addMockError("The store holds its most items (maxItems).")
        case .read:
            answer(200, "the item.", schema: item, headers: etag)
            answer(304, "the item has the ETag of If-None-Match.", schema: nil, headers: etag)
        case .replace, .update:
            answer(200, operation == .replace ? "the item replaced whole." : "the merge patch applied.", schema: item,
                   headers: etag)
        case .delete:
            answer(204, "the item deleted.", schema: nil)
        }
        responses[400, default: ResponseDraft()].addMockError(
            "The store's own: a body, filter or precondition it cannot take (every problem named), or an unknown "
                + MockHeader.scenario + ".")
        if operation.route.isItem {
            responses[404, default: ResponseDraft()].addMockError("The store's own: no item with this id.")
        }
        if operation == .replace || operation == .update || operation == .delete {
            responses[412, default: ResponseDraft()].addMockError("The store's own: If-Match does not match the item.")
        }
    }
}
