import ContractModel
import HTTPCore

/// How network conditions shape a reply: its wait and its body's pace.
extension RequestHandler {
    /// `response` as the network conditions deliver it: after the play's delay, its latency draw, the
    /// profile's and the server's, and a preset's time to the first byte; its body paced by the play's
    /// dribble, else by the first bandwidth of the play, the profile and the server.
    // Inlined: on the static path a call returning the tuple cost more, on every request.
    @inline(__always)
    func conditioned(_ response: HTTPResponse, play: ScenarioPlay, profile: ConditionProfile?)
        -> (reply: Reply, delayMs: Int)
    {
        let bandwidth = play.bandwidth ?? profile?.bandwidth ?? serverBandwidth
        let delay = latency.delay(fixed: play.delayMs + (bandwidth?.latencyMs ?? 0), latency: play.latency,
                                  extra: profile?.latency)
        let note = Reply.Note(source: play.name)
        let size = response.body.count
        guard size > 0,
              let pacing = play.dribble.map({ Pacing($0, bodySize: size) }) ?? bandwidth.map({ Pacing($0, bodySize: size) })
        else { return (Reply(.respond(response), delayMs: delay, note: note), delay) }
        return (pacing.reply(response, delayMs: delay, note: note), delay)
    }
}
