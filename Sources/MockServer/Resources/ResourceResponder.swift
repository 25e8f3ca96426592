#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// Answers a resource's operations from its store, with REST semantics (RFC 9110; json-server's
/// conventions where the RFCs are silent): lists with filters, sorting, paging and `X-Total-Count`;
/// items with an `ETag`, `If-None-Match` giving 304 and a stale `If-Match` 412; creation with 201 and
/// `Location`; `PATCH` as a JSON Merge Patch (RFC 7396). Every body is checked against the resource's fields.
struct ResourceResponder: Sendable {
    let store: ResourceStore

    /// - Parameters:
    ///   - itemID: The `{id}` of an item's path; `nil` for the collection's.
    ///   - naming: Fields every response carries (the endpoint and scenario that answered).
    func respond(
        _ operation: ResourceOperation,
        of resource: Resource,
        request: HTTPRequest,
        itemID: String?,
        session: String,
        naming: [(name: String, value: String)],
        namingFields: [UInt8]
    ) -> HTTPResponse {
        let answer = Answer(resource: resource, naming: naming, namingFields: namingFields)
        do {
            return try respond(operation, of: resource, request: request, itemID: itemID, session: session, answer: answer)
        } catch {
            return answer.error(.internalServerError, "the change was not kept, because the store could not write it "
                + "(\(error)); nothing changed")
        }
    }

    private func respond(
        _ operation: ResourceOperation,
        of resource: Resource,
        request: HTTPRequest,
        itemID: String?,
        session: String,
        answer: Answer
    ) throws(FileError) -> HTTPResponse {
        var answer = answer
        switch operation {
        case .list:
            let query: ResourceQuery
            do {
                // Without a query, the fields (a dictionary made per call) are not needed.
                let items = request.queryItems ?? []
                query = items.isEmpty ? ResourceQuery() : try ResourceQuery.parse(items, fields: resource.queryableFields)
            } catch {
                return answer.error(.badRequest, error.message)
            }
            // The page written from its items' JSON as the collection keeps it: an item is written once per change.
            let (page, total) = try store.withCollection(resource, session: session) { collection -> ([UInt8], Int) in
                let (positions, total) = query.positions(in: collection.items)
                var bytes: [UInt8] = [UInt8(ascii: "[")]
                for (number, position) in positions.enumerated() {
                    if number > 0 { bytes.append(UInt8(ascii: ",")) }
                    bytes += collection.encodedItem(at: position).bytes
                }
                bytes.append(UInt8(ascii: "]"))
                return (bytes, total)
            }
            answer.headers.append(("X-Total-Count", String(total)))
            return answer.value(.ok, serialized: page)
        case .create:
            return try create(resource, request: request, session: session, answer: answer)
        case .read, .replace, .update, .delete:
            return try item(operation, resource, request: request, id: itemID ?? "", session: session, answer: answer)
        }
    }

    private func create(_ resource: Resource, request: HTTPRequest, session: String, answer: Answer) throws(FileError)
        -> HTTPResponse
    {
        var answer = answer
        let body: JSONValue
        switch Self.jsonBody(request) {
        case .success(let value): body = value
        case .failure(let problem): return answer.error(.badRequest, problem.message)
        }
        var problems = ResourceItemCheck.problems(of: body, in: resource, requireID: false)
        if case .object(let fields) = body, fields[resource.idField] != nil {
            problems.append("\(resource.idField) is assigned by the server; leave it out")
        }
        guard problems.isEmpty else { return answer.invalid(problems, resource) }
        let created = try store.withCollection(resource, session: session) { collection -> JSONValue? in
            guard collection.items.count < resource.maximumItems, case .object(var fields) = body else { return nil }
            switch resource.idType {
            case .integer:
                fields[resource.idField] = .number(Double(collection.nextID))
                collection.nextID += 1
            case .uuid:
                fields[resource.idField] = .string(UUID().uuidString.lowercased())
            }
            collection.items.append(.object(fields))
            return .object(fields)
        }
        guard let created else {
            return answer.error(.insufficientStorage, "\(resource.id) holds its most items (\(resource.maximumItems)) "
                + "in this session; delete some, or reset it with DELETE /__mock/resources/\(resource.id)")
        }
        let id = Self.text(of: created, resource)
        let bytes = created.serialized
        answer.headers.append(("Location", resource.path.description + "/" + id))
        answer.headers.append(("ETag", EntityTag(of: bytes).header))
        return answer.value(.created, created, serialized: bytes)
    }

    private func item(
        _ operation: ResourceOperation,
        _ resource: Resource,
        request: HTTPRequest,
        id: String,
        session: String,
        answer: Answer
    ) throws(FileError) -> HTTPResponse {
        var answer = answer
        let ifMatch = request.headers["If-Match"].map(EntityTag.parseList)
        let ifNoneMatch = request.headers["If-None-Match"].map(EntityTag.parseList)
        if ifMatch == .some(nil) || ifNoneMatch == .some(nil) {
            return answer.error(.badRequest, "If-Match and If-None-Match take \"*\" or quoted entity tags")
        }
        var body: JSONValue?
        if operation == .replace || operation == .update {
            switch Self.jsonBody(request) {
            case .success(let value): body = value
            case .failure(let problem): return answer.error(.badRequest, problem.message)
            }
        }
        let wanted = ItemID(id)
        let outcome = try store.withCollection(resource, session: session) { collection -> ItemOutcome in
            let index = collection.items.firstIndex { wanted.names($0, resource) }
            let current = index.map { collection.items[$0] }
            // Written once per version of the item: the bytes give the tag and, for a read, the body.
            let written = index.map { collection.encodedItem(at: $0) }
            let (bytes, tag) = (written?.bytes, written?.tag)
            // RFC 9110 §13.2.2: If-Match first, then (for GET) If-None-Match.
            if let condition = ifMatch ?? nil, operation != .read, !condition.matchesStrongly(tag) { return .preconditionFailed }
            guard let index, let current, let tag else { return .missing }
            switch operation {
            case .read:
                if let condition = ifNoneMatch ?? nil, !condition.noneMatchWeakly(tag) { return .notModified(tag) }
                return .item(current, tag, bytes ?? [])
            case .delete:
                collection.items.remove(at: index)
                return .deleted
            case .replace, .update:
                guard var next = body else { return .missing }
                if operation == .update { next = current.merging(patch: next) }
                var problems = ResourceItemCheck.problems(of: next, in: resource, requireID: false)
                if case .object(var fields) = next, problems.isEmpty {
                    let currentID = Self.idValue(of: current, resource)
                    if let given = fields[resource.idField], given != currentID {
                        problems.append("\(resource.idField) cannot change (it is \(id))")
                    }
                    fields[resource.idField] = currentID
                    next = .object(fields)
                }
                guard problems.isEmpty else { return .invalid(problems) }
                collection.items[index] = next
                let written = next.serialized
                return .item(next, EntityTag(of: written), written)
            case .list, .create:
                return .missing
            }
        }
        switch outcome {
        case .preconditionFailed:
            return answer.error(.preconditionFailed, "If-Match does not match the current \(resource.id) item \(id); "
                + "read it again (its ETag changed)")
        case .missing:
            return answer.error(.notFound, "no \(resource.id) item with \(resource.idField) \(id)")
        case .invalid(let problems):
            return answer.invalid(problems, resource)
        case .notModified(let tag):
            return HTTPResponse(status: HTTPStatus(304), headers: [("ETag", tag.header), ("Cache-Control", "no-store")] + answer.naming)
        case .deleted:
            return HTTPResponse(status: .noContent, headers: answer.naming)
        case .item(let value, let tag, let bytes):
            answer.headers.append(("ETag", tag.header))
            return answer.value(.ok, value, serialized: bytes)
        }
    }

    private enum ItemOutcome {
        case preconditionFailed, missing, deleted
        case invalid([String])
        case notModified(EntityTag)
        /// The item, its tag, and its bytes as written (the body when the shape is bare).
        case item(JSONValue, EntityTag, [UInt8])
    }

    // MARK: - Reading and writing

    /// The request's body as JSON: a JSON (or merge-patch) media type, or none, and a document that parses.
    private static func jsonBody(_ request: HTTPRequest) -> Result<JSONValue, BodyProblem> {
        if let type = request.headers["content-type"]?.lowercased(), !type.contains("json") {
            return .failure(BodyProblem(message: "the body must be JSON (Content-Type application/json or "
                + "application/merge-patch+json), not \(type)"))
        }
        do {
            return .success(try JSONValue.parse(request.body))
        } catch {
            return .failure(BodyProblem(message: "the body is not valid JSON: \(error)"))
        }
    }

    private struct BodyProblem: Error {
        let message: String
    }

    fileprivate static func idValue(of item: JSONValue, _ resource: Resource) -> JSONValue? {
        if case .object(let fields) = item { fields[resource.idField] } else { nil }
    }

    /// The id a request's path names, read once for the whole search: as a number, and in lower case.
    private struct ItemID {
        let number: Double?
        let lowercased: String

        init(_ id: String) {
            number = Int(id).map(Double.init)
            lowercased = id.lowercased()
        }

        /// Whether `item`'s id is this one (a number equal to it, or a string equal to it ignoring case).
        func names(_ item: JSONValue, _ resource: Resource) -> Bool {
            switch ResourceResponder.idValue(of: item, resource) {
            case .number(let value)?: number == value
            case .string(let text)?: text.lowercased() == lowercased
            default: false
            }
        }
    }

    private static func text(of item: JSONValue, _ resource: Resource) -> String {
        switch idValue(of: item, resource) {
        case .number(let number)?: String(Int(number))
        case .string(let text)?: text
        default: ""
        }
    }

    /// A response under construction: its headers, and the resource's shape.
    private struct Answer {
        let resource: Resource
        let naming: [(name: String, value: String)]
        var headers: [(name: String, value: String)] = []

        /// ``naming`` as the head writes it, encoded once at load.
        let namingFields: [UInt8]

        init(resource: Resource, naming: [(name: String, value: String)], namingFields: [UInt8]) {
            self.resource = resource
            self.naming = naming
            self.namingFields = namingFields
        }

        /// The status line and the fields every JSON answer has, written once for the usual statuses.
        private static let okHead = HTTPResponseEncoder.statusAndFields(.ok, jsonFields)
        private static let createdHead = HTTPResponseEncoder.statusAndFields(.created, jsonFields)
        private static let jsonFields = [(name: "Content-Type", value: "application/json; charset=utf-8"),
                                         (name: "Cache-Control", value: "no-store")]

        /// A JSON answer's head: the fixed part, this answer's ``headers``, then ``namingFields``.
        private func jsonHead(_ status: HTTPStatus) -> [UInt8] {
            let fixed = switch status.code {
            case 200: Self.okHead
            case 201: Self.createdHead
            default: HTTPResponseEncoder.statusAndFields(status, Self.jsonFields)
            }
            return fixed + HTTPResponseEncoder.fields(headers) + namingFields
        }

        /// - Parameter serialized: `value` already written, to send as is when the shape is bare.
        func value(_ status: HTTPStatus, _ value: JSONValue, serialized: [UInt8]? = nil) -> HTTPResponse {
            self.value(status, serialized: serialized ?? value.serialized)
        }

        /// A value already written as JSON, bare or in the envelope. The envelope is written as the JSON writer writes
        /// an object, keys in order: `{"data":…,"responseMsg":…,"status":…}`, with the value's bytes spliced in.
        func value(_ status: HTTPStatus, serialized: [UInt8]) -> HTTPResponse {
            switch resource.shape {
            case .bare:
                return HTTPResponse(status: status, head: jsonHead(status), body: serialized)
            case .envelope:
                let rest = JSONValue.object(["status": .number(Double(status.code)), "responseMsg": .string(status.reason)])
                    .serialized
                let body = Array(#"{"data":"#.utf8) + serialized + [UInt8(ascii: ",")] + rest.dropFirst()
                return HTTPResponse(status: status, head: jsonHead(status), body: body)
            }
        }

        func error(_ status: HTTPStatus, _ message: String) -> HTTPResponse {
            ServerJSON.error(status, message, headers: naming)
        }

        func invalid(_ problems: [String], _ resource: Resource) -> HTTPResponse {
            ServerJSON.error(.badRequest, "the body is not a \(resource.id) item: " + problems.joined(separator: "; "),
                             violations: problems, headers: naming)
        }
    }
}
