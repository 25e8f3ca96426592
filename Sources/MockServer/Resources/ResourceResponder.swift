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
    ///   - endpoint: The endpoint that answers, named in every response (``MockHeader``).
    ///   - scenario: Its scenario, named too.
    ///   - namingFields: Both as the head writes them, encoded once at load.
    func respond(
        _ operation: ResourceOperation,
        of resource: Resource,
        request: HTTPRequest,
        itemID: String?,
        session: String,
        endpoint: String,
        scenario: String,
        namingFields: [UInt8]
    ) -> HTTPResponse {
        let answer = Answer(shape: resource.shape, endpoint: endpoint, scenario: scenario, namingFields: namingFields)
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
            // The page written from its items' JSON as the collection keeps it: an item is written once per change, and
            // the same page asked again is not written again.
            let (page, total) = try store.withCollection(resource, session: session) { collection -> ([UInt8], Int) in
                let (positions, total) = query.positions(in: collection.items)
                return (collection.page(at: positions), total)
            }
            answer.fields = Self.totalCountField(total)
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
        answer.fields = HTTPResponseEncoder.fields([("Location", resource.path.description + "/" + id),
                                                    ("ETag", EntityTag(of: bytes).header)])
        return answer.value(.created, serialized: bytes)
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
            // RFC 9110 §13.2.2: If-Match first, then (for GET) If-None-Match.
            if let condition = ifMatch ?? nil, operation != .read, !condition.matchesStrongly(written?.tag) {
                return .preconditionFailed
            }
            guard let index, let current, let written else { return .missing }
            switch operation {
            case .read:
                if let condition = ifNoneMatch ?? nil, !condition.noneMatchWeakly(written.tag) {
                    return .notModified(written.tag)
                }
                return .item(written)
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
                return .item(ResourceStore.Collection.EncodedItem(next.serialized))
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
        case .item(let written):
            answer.fields = written.tagField
            return answer.value(.ok, serialized: written.bytes)
        }
    }

    private enum ItemOutcome {
        case preconditionFailed, missing, deleted
        case invalid([String])
        case notModified(EntityTag)
        /// The item as written, with its tag (the body when the shape is bare).
        case item(ResourceStore.Collection.EncodedItem)
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

    /// `X-Total-Count: <total>` as a field line, written into one buffer (the number is a small string: no allocation).
    private static func totalCountField(_ total: Int) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(totalCountName.count + 22)
        line += totalCountName
        line += String(total).utf8
        line += [UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        return line
    }

    private static let totalCountName = Array("X-Total-Count: ".utf8)

    /// A response under construction: the resource's shape, the fields of this answer, and the fields naming who
    /// answered. It holds no more than a response needs, as it is made for every request.
    private struct Answer {
        let shape: Resource.Shape
        let endpoint: String
        let scenario: String
        /// This answer's own field lines (`ETag`, `Location`, `X-Total-Count`), written.
        var fields: [UInt8] = []

        /// ``naming`` as the head writes it, encoded once at load.
        let namingFields: [UInt8]

        init(shape: Resource.Shape, endpoint: String, scenario: String, namingFields: [UInt8]) {
            self.shape = shape
            self.endpoint = endpoint
            self.scenario = scenario
            self.namingFields = namingFields
        }

        /// The fields naming the endpoint and scenario that answered, for the answers written from fields.
        var naming: [(name: String, value: String)] { MockHeader.naming(endpoint: endpoint, scenario: scenario) }

        /// The status line and the fields every JSON answer has, written once for the usual statuses.
        private static let okHead = HTTPResponseEncoder.statusAndFields(.ok, jsonFields)
        private static let createdHead = HTTPResponseEncoder.statusAndFields(.created, jsonFields)
        private static let jsonFields = [(name: "Content-Type", value: "application/json; charset=utf-8"),
                                         (name: "Cache-Control", value: "no-store")]

        /// A JSON answer's head: the fixed part, this answer's ``fields``, then ``namingFields``.
        private func jsonHead(_ status: HTTPStatus) -> [UInt8] {
            let fixed = switch status.code {
            case 200: Self.okHead
            case 201: Self.createdHead
            default: HTTPResponseEncoder.statusAndFields(status, Self.jsonFields)
            }
            var head: [UInt8] = []
            head.reserveCapacity(fixed.count + fields.count + namingFields.count)
            head += fixed
            head += fields
            head += namingFields
            return head
        }

        /// A value already written as JSON, bare or in the envelope. The envelope is written as the JSON writer writes
        /// an object, keys in order: `{"data":…,"responseMsg":…,"status":…}`, with the value's bytes spliced in.
        func value(_ status: HTTPStatus, serialized: [UInt8]) -> HTTPResponse {
            switch shape {
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
