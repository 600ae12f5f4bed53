import WaymarkCore
import WaymarkPower
import WaymarkSimulation

/// What `waymark simulate phone` prints at the end: the phone's account and its energy.
struct PhoneRunSummary {
    var fields: [(String, String)] = []

    init(track: String, transport: String, phone: PhoneSimulator, truthRegions: Bool) {
        let account = phone.account
        let energy = phone.energy()
        let seconds = PhoneMode.allCases.map { (account.secondsInMode[$0] ?? 0) }
        func modes<T>(_ values: [PhoneMode: T], _ write: (T?) -> String) -> String {
            "{" + PhoneMode.allCases.map { "\"\($0.rawValue)\":\(write(values[$0]))" }.joined(separator: ",") + "}"
        }
        let number = { (value: Double) in JSONObjectWriter.number((value * 1000).rounded() / 1000) }
        fields = [
            ("track", JSONObjectWriter.quoted(track)),
            ("transport", JSONObjectWriter.quoted(transport)),
            ("startMode", JSONObjectWriter.quoted(phone.settings.mode.rawValue)),
            ("finalMode", JSONObjectWriter.quoted(phone.mode.rawValue)),
            ("remoteConfiguration", phone.settings.remoteConfiguration ? "true" : "false"),
            ("seed", String(phone.settings.seed)),
            ("durationSeconds", number(seconds.reduce(0, +))),
            ("secondsPerMode", modes(account.secondsInMode) { number($0 ?? 0) }),
            ("modeSwitches", String(account.modeSwitches)),
            ("modeChanges", "[" + account.modeChanges.dropFirst().prefix(100).map { "{\"time\":\"\($0.time.rfc3339)\",\"mode\":\"\($0.mode.rawValue)\"}" }.joined(separator: ",") + "]"),
            ("reports", String(account.reports)),
            ("reportsPerMode", modes(account.locations) { String($0 ?? 0) }),
            ("transitionsSent", String(account.transitions)),
            ("transitionsByEvent", "{\"enter\":\(account.transitionsByEvent["enter"] ?? 0),\"leave\":\(account.transitionsByEvent["leave"] ?? 0)}"),
            ("bytesSent", String(account.bytesSent)),
            ("bytesReceived", String(account.bytesReceived)),
            ("commands", "{\"received\":\(account.commandsReceived),\"obeyed\":\(account.commandsObeyed),\"ignored\":\(account.commandsIgnored),\"unreadableReplies\":\(account.repliesUnreadable)}"),
            ("maxWaypointsHeld", String(account.maxWaypointsHeld)),
            ("waypointsHeldAtEnd", String(phone.waypoints.count)),
            ("regionEntries", truthRegions ? String(account.regionEntries) : "null"),
            ("windowMisses", truthRegions ? String(account.windowMisses) : "null"),
            ("missedEntries", "[" + account.missedEntries.map { "{\"region\":\(JSONObjectWriter.quoted($0.region)),\"time\":\"\($0.time.rfc3339)\"}" }.joined(separator: ",") + "]"),
            ("gnssFixes", String(account.gnssFixes)),
            ("networkFixes", String(account.networkFixes)),
            ("energy", Self.energy(energy, number)),
        ]
    }

    static func energy(_ estimate: PhoneEnergyEstimate, _ number: (Double) -> String) -> String {
        let radios = Radio.allCases.compactMap { radio in estimate.joules[radio].map { "\"\(radio.rawValue)\":\(number($0))" } }
        return "{\"joules\":{\(radios.joined(separator: ","))},\"totalJoules\":\(number(estimate.total)),\"joulesPerHour\":\(number(estimate.joulesPerHour)),\"profile\":\(JSONObjectWriter.quoted(estimate.profile))}"
    }

    var json: String { "{" + fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}" }

    var text: String { fields.map { "\($0.0): \($0.1)" }.joined(separator: "\n") }
}
