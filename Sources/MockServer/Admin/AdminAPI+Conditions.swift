#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ContractModel
import HTTPCore

extension AdminAPI {
    struct ConditionsListing: Encodable {
        struct Profile: Encodable {
            let name: String
            let latency: String?
            let bytesPerSecond: Int?
            let latencyMs: Int?
            let failurePercent: Double
            let fault: Fault
        }

        let active: String?
        let profiles: [Profile]
    }

    /// `GET /__mock/conditions` (the profiles and the active one), `PUT` with `{"profile": "3g"}` (or
    /// `null`), `DELETE` (none).
    func conditionsCall(_ method: HTTPRequest.Method, body: [UInt8]) -> Reply {
        switch method {
        case "PUT":
            guard case .object(let fields)? = try? JSONValue.parse(body), let value = fields["profile"] else {
                return .respond(ServerJSON.error(.badRequest, #"the body is {"profile": "<name>"} or {"profile": null}; "#
                    + "profiles: " + conditions.names))
            }
            let name: String?
            switch value {
            case .null: name = nil
            case .string(let text): name = text
            default: return .respond(ServerJSON.error(.badRequest, "profile is a name or null"))
            }
            guard conditions.activate(name) else {
                return .respond(ServerJSON.error(.notFound, "no condition profile \"\(name ?? "")\"; profiles: " + conditions.names))
            }
        case "DELETE":
            _ = conditions.activate(nil)
        default:
            break
        }
        return json(.ok, ConditionsListing(active: conditions.current?.name, profiles: conditions.profiles.map { profile in
            ConditionsListing.Profile(name: profile.name, latency: profile.latency?.text,
                                      bytesPerSecond: profile.bandwidth?.bytesPerSecond,
                                      latencyMs: profile.bandwidth?.latencyMs, failurePercent: profile.failurePercent,
                                      fault: profile.fault)
        }))
    }
}
