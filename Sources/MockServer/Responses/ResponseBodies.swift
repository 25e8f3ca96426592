import ContractModel
import HTTPCore

/// The body a scenario answers with: its fixture, picked by the request's path and query parameters
/// (`products/page-{page_no}.json`, else the scenario's fallback), and filled in when it is a template.
struct ResponseBodies: Sendable {
    let fixtures: FixtureStore

    /// Why there is no body to send.
    enum Failure: Error {
        /// No fixture for this request (a 404); the reason is for the journal.
        case noFixture(reason: String)
        /// The template could not be filled in (a 500); the message names the placeholder.
        case template(message: String)
    }

    func body(
        for play: ScenarioPlay,
        request: HTTPRequest,
        parameters: [String: String],
        counter: Int,
        memo: TargetMemo.Verdict? = nil
    ) -> Result<[UInt8], Failure> {
        guard let pattern = play.fixture else { return .success([]) }
        // The common case costs what it did before templates: one look-up of a fixed path.
        if !play.isTemplate && !play.hasPathPlaceholders {
            return fixtures.bytes(at: pattern, rememberedAs: play.serial).mapError { .noFixture(reason: $0.reason) }
        }
        // A body the target alone decides, made for this target before with the fixtures as they are, is sent again.
        let generation = memo == nil ? nil : fixtures.trustedGeneration
        if let generation, let known = memo?.body, known.serial == play.serial, known.generation == generation {
            return .success(known.bytes)
        }
        let made = makeBody(for: play, pattern: pattern, request: request, parameters: parameters, counter: counter)
        if let generation, case .success(let bytes) = made.body, made.byTargetOnly {
            memo?.body = (play.serial, generation, bytes)
        }
        return made.body
    }

    /// A templated body, or a fixture whose path has placeholders; and whether the request's target alone decided
    /// it (a fixture's path is filled from the target; a template may read more).
    private func makeBody(
        for play: ScenarioPlay,
        pattern: String,
        request: HTTPRequest,
        parameters: [String: String],
        counter: Int
    ) -> (body: Result<[UInt8], Failure>, byTargetOnly: Bool) {
        let query = request.queryItems ?? []
        // The fixture the request names, else the fallback (which may use the same parameters). A value
        // that cannot be part of a file name never falls back: it is a 404.
        // An integer names its file as written plainly: `?page_no=01` and `+1` select `page-1.json`.
        let context = play.templateContext
        var pathValues: [String: String] = [:]
        var queryValues: [(name: String, value: String)] = []
        if play.hasPathPlaceholders {
            for (name, value) in parameters { pathValues[name] = Self.plain(value, as: context.pathParameters[name]) }
            queryValues = query.map { (name: $0.name, value: Self.plain($0.value, as: context.query[$0.name])) }
        }
        // A template at a fixed path names its files without the request's values: none are made plain or filled in.
        func fill(_ candidate: String) -> FixturePath.Filled {
            play.hasPathPlaceholders ? FixturePath.fill(candidate, parameters: pathValues, query: queryValues) : .path(candidate)
        }
        // The fallback is filled only when it is needed: when the fixture the request names is missing.
        let fallbackPath = { () -> String? in
            guard let fallback = play.fallback, case .path(let filled) = fill(fallback) else { return nil }
            return filled
        }
        let path: String
        var fallback: (() -> String?)? = fallbackPath
        switch fill(pattern) {
        case .path(let filled):
            path = filled
        case .absent(let name):
            guard let filled = fallbackPath() else {
                return (.failure(.noFixture(reason: "no value for {\(name)} in the fixture path \(pattern)")), false)
            }
            path = filled
            fallback = nil
        case .unsafe:
            return (.failure(.noFixture(reason: FixtureStore.Unavailable.unsafeParameter.reason)), false)
        }
        guard play.isTemplate else {
            return (fixture(path, fallback: fallback, read: fixtures.bytes(at:)), true)
        }
        let found = fixture(path, fallback: fallback) { fixtures.renderable(at: $0, for: play) }
        switch found {
        case .failure(let failure):
            return (.failure(failure), false)
        case .success(let renderable):
            guard case .success(let template) = renderable.template else {
                if case .failure(let problem) = renderable.template {
                    return (.failure(.template(message: "the template \(path) is broken: \(problem)")), false)
                }
                return (.failure(.template(message: "the template \(path) is broken")), false)
            }
            let input = TemplateInput(pathParameters: parameters, query: query, headers: request.headers,
                                      body: request.body, contentType: request.headers["content-type"],
                                      counter: counter, now: POSIX.wallClock())
            // A template that reads only the request's path, query and header values gives the same bytes for the
            // same values: the last rendering is kept, and sent again while they repeat.
            let values = TemplateRenderer.requestValues(template, input)
            let byTargetOnly = TemplateRenderer.readsTargetOnly(template)
            if let values, let known = renderable.rendered(from: values) { return (.success(known), byTargetOnly) }
            let rendered = TemplateRenderer.render(template, input)
            if let values, case .success(let bytes) = rendered { renderable.remember(bytes, from: values) }
            return (rendered.mapError { missing in
                .template(message: "no value for \(missing.placeholder) in the template \(path), and no default "
                    + "(write one after a |)")
            }, byTargetOnly)
        }
    }

    /// `value` as a plain integer when it is declared an integer and is one, else as sent.
    private static func plain(_ value: String, as type: FieldType?) -> String {
        guard type?.kind == .integer, let number = Int(value) else { return value }
        return String(number)
    }

    /// `read(path)`, else `read(fallback())` when the first is missing (the fallback's path is made only then).
    private func fixture<T>(
        _ path: String,
        fallback: (() -> String?)?,
        read: (String) -> Result<T, FixtureStore.Unavailable>
    ) -> Result<T, Failure> {
        switch read(path) {
        case .success(let value):
            return .success(value)
        case .failure(.missing) where fallback != nil:
            guard let other = fallback?(), other != path else { return .failure(.noFixture(reason: FixtureStore.Unavailable.missing.reason)) }
            return fixture(other, fallback: nil, read: read)
        case .failure(let unavailable):
            return .failure(.noFixture(reason: unavailable.reason))
        }
    }
}
