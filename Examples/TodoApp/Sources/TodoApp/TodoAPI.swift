#if canImport(FoundationNetworking)
import FoundationNetworking  // URLSession and URLRequest live here on Linux
#endif
import Foundation
import Networking

/// A to-do item as the backend sends it.
public struct Todo: Codable, Equatable, Sendable {
    public let id: Int
    public let title: String
    public let done: Bool
}

/// The app's to-do calls, one case per request.
public enum TodoAPI: Endpoint {
    case list
    case add(title: String)

    public var path: String { "/todos" }

    public var method: HTTPMethod {
        switch self {
        case .list: .get
        case .add: .post
        }
    }

    public var body: any RequestBody {
        switch self {
        case .list: .plain
        case .add(let title): .json(["title": title])
        }
    }
}

/// What a view model calls: typed results, one `NetworkResult` per call.
public struct TodoService: Sendable {
    let client: APIClient

    public init(client: APIClient) { self.client = client }

    public func list() async -> NetworkResult<[Todo]> {
        await client.send(TodoAPI.list, decoding: .json([Todo].self))
    }

    public func add(_ title: String) async -> NetworkResult<Todo> {
        await client.send(TodoAPI.add(title: title), decoding: .json(Todo.self))
    }
}
