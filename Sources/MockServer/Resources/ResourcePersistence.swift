#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

/// The default session's items, kept across restarts in the folder `--persist` names: one file per
/// resource, `<folder>/<resource id>.json`, holding `{"nextId": 3, "items": [...]}` with one item per
/// line. Every change is written before it is answered, atomically (``POSIX/writeFileAtomically(_:to:)``),
/// so after a crash the file parses and holds every acknowledged change. Other sessions are not kept.
struct ResourcePersistence: Sendable {
    let directory: String

    /// Creates the folder if it is missing.
    init(directory: String) throws(ContractLoadError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw Self.problem(directory, "--persist cannot use this folder: \(error)")
        }
    }

    func path(of resourceID: String) -> String { directory + "/" + resourceID + ".json" }

    /// The kept items of every resource that has a file. A file that does not parse, or whose items no
    /// longer fit its resource, is a problem naming it; it is left as it is, for a person to fix or remove.
    func load(_ resources: [Resource]) throws(ContractLoadError) -> [String: ResourceStore.Collection] {
        var kept: [String: ResourceStore.Collection] = [:]
        var problems: [ContractProblem] = []
        for resource in resources {
            let path = path(of: resource.id)
            guard let bytes = POSIX.readFile(path) else {
                // Missing is a fresh start; there but unreadable must not be overwritten by the first change.
                if FileManager.default.fileExists(atPath: path) {
                    problems.append(ContractProblem(file: path, path: "$", reason: "cannot be read (not a file, or no "
                        + "permission); fix it or remove it to start \(resource.id) from its seed"))
                }
                continue
            }
            do {
                kept[resource.id] = try Self.collection(from: bytes, of: resource)
            } catch {
                problems.append(ContractProblem(file: path, path: "$", reason: error.message
                    + "; fix the file or remove it to start \(resource.id) from its seed"))
            }
        }
        guard problems.isEmpty else { throw ContractLoadError(problems: problems) }
        return kept
    }

    func save(_ collection: ResourceStore.Collection, of resourceID: String) throws(FileError) {
        var bytes = Array(#"{"nextId": \#(collection.nextID), "items": ["#.utf8)
        for (index, item) in collection.items.enumerated() {
            bytes += index == 0 ? Array("\n  ".utf8) : Array(",\n  ".utf8)
            item.write(into: &bytes)
        }
        bytes += Array((collection.items.isEmpty ? "]}\n" : "\n]}\n").utf8)
        try POSIX.writeFileAtomically(bytes, to: path(of: resourceID))
    }

    /// Forgets a resource's kept items: it starts from its seed again.
    func remove(_ resourceID: String) {
        POSIX.removeFile(path(of: resourceID))
    }

    private static func collection(from bytes: [UInt8], of resource: Resource) throws(ResourceSeed.Problem)
        -> ResourceStore.Collection
    {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw ResourceSeed.Problem(message: "not valid JSON (\(error))")
        }
        guard case .object(let fields) = document, let items = fields["items"],
              case .number(let next)? = fields["nextId"], next.rounded() == next, next >= 1, next < 1e15 else {
            throw ResourceSeed.Problem(message: #"must be {"nextId": <integer>, "items": [...]}"#)
        }
        switch ResourceSeed.items(items, of: resource, named: "items") {
        case .success(let items):
            // An id edited in by hand above nextId must not be handed out again.
            return ResourceStore.Collection(items: items, nextID: max(Int(next), ResourceStore.nextID(after: items, resource)))
        case .failure(let problem): throw problem
        }
    }

    private static func problem(_ file: String, _ reason: String) -> ContractLoadError {
        ContractLoadError(problems: [ContractProblem(file: file, path: "-", reason: reason)])
    }
}
