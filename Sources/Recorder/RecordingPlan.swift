/// Everything a write puts on disk, before it is written: the endpoints by domain and the fixtures'
/// bytes by path (relative to the fixtures folder).
struct RecordingPlan {
    var endpoints: [EndpointDraft] = []
    var fixtures: [String: [UInt8]] = [:]
    /// Fixtures one per id behind a templated path (`v1/items/7.json`): a merge keeps a file already
    /// there instead of renaming the new one, since the template names it.
    var perIDFixtures: Set<String> = []
    /// Exchanges left out, each with the reason.
    var skipped: [String] = []
    /// What was decided for each endpoint, for the flush report.
    var reports: [EndpointReport] = []
    /// Header fields left out as credentials (``HeaderFilter``), counted over requests and responses.
    var credentialFieldsDropped = 0

    /// The endpoints of each domain, in path then method order.
    var domains: [String: [EndpointDraft]] {
        Dictionary(grouping: endpoints, by: \.domain)
    }
}
