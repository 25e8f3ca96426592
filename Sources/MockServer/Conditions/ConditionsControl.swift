import ContractModel
import HTTPCore

/// The condition profiles the server knows (the built-in ones and `--conditions <file>`'s) and the one
/// laid over every request now, which the admin API changes at run time.
final class ConditionsControl: Sendable {
    let profiles: [ConditionProfile]
    private let active: Locked<ConditionProfile?>

    /// - Parameter initial: `--conditions`: active from the start, and known by name.
    init(initial: ConditionProfile?) {
        var profiles = ConditionProfile.builtIn
        if let initial { profiles.removeAll { $0.name == initial.name }; profiles.append(initial) }
        self.profiles = profiles
        active = Locked(initial)
    }

    var current: ConditionProfile? { active.withValue { $0 } }

    func profile(named name: String) -> ConditionProfile? { profiles.first { $0.name == name } }

    /// Makes `name` the active profile, or none for `nil`.
    /// - Returns: `false` for a name no profile has.
    func activate(_ name: String?) -> Bool {
        guard let name else {
            active.withValue { $0 = nil }
            return true
        }
        guard let profile = profile(named: name) else { return false }
        active.withValue { $0 = profile }
        return true
    }

    var names: String { profiles.map(\.name).joined(separator: ", ") }
}
