/// The result a client maps an HTTP outcome to (DESIGN.md §3), as contracts name it in `expect`, and the one
/// rule that says which a status gives.
public enum ExpectedResult: String, Sendable, CaseIterable {
    /// 2xx, and the body decodes.
    case success
    /// 4xx.
    case requestErr
    /// 2xx, and the body does not decode as the endpoint's response.
    case pathErr
    /// 5xx.
    case serverErr
    /// No HTTP response (a fault), or any other status (1xx, 3xx).
    case networkFail

    /// What a response with `status` gives: `success` for 2xx (`pathErr` when its body does not decode, which
    /// the status cannot tell), `requestErr` for 4xx, `serverErr` for 5xx, `networkFail` for any other.
    public static func forStatus(_ status: Int) -> ExpectedResult {
        switch status {
        case 200...299: .success
        case 400...499: .requestErr
        case 500...599: .serverErr
        default: .networkFail
        }
    }

    /// The results a response with `status` can give: both `success` and `pathErr` for 2xx.
    public static func possible(forStatus status: Int) -> [ExpectedResult] {
        let result = forStatus(status)
        return result == .success ? [.success, .pathErr] : [result]
    }
}
