import Foundation
import WaymarkCore
import WaymarkDevices

/// A message from a handler (docs/handlers.md). Unknown or malformed lines become `.invalid`
/// with a reason; the daemon answers those with an `error` message and carries on.
public enum HandlerRequest: Sendable, Equatable {
    /// First message: who it is, with the secret it was launched with (`WAYMARK_HANDLER_TOKEN`);
    /// a handler started by hand sends no token and becomes *active*.
    case hello(handler: String, token: String?)
    case ack(id: Int64)
    case beginBackgroundTask(name: String)
    case endBackgroundTask(token: String)
    case backgroundTimeRemaining
    /// A region's state for `device` (default `local`, the gpsd receiver), as its pipeline has it.
    case regionState(region: String, device: String, request: String?)
    /// `device`'s most recent fix (default `local`).
    case lastLocation(device: String, request: String?)
    /// Done with what this wake needed, for every event up to `through` (default: every event
    /// sent so far); `useful` says whether that was useful work. Truthful, it is suspended at
    /// once; either way it counts towards its standing (`HandlerStanding`).
    case finished(useful: Bool?, through: Int64?, result: HandlerLifecycle.FetchResult? = nil)
    /// An active handler (launched by the user) moves itself to the background.
    case enterBackground
    case invalid(String)

    public static func parse(_ line: String) -> HandlerRequest {
        guard let data = line.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return .invalid("not a JSON object") }
        guard let type = object["type"] as? String else { return .invalid("no \"type\" string") }
        let request = object["request"] as? String
        switch type {
        case "hello":
            guard let handler = object["handler"] as? String else { return .invalid("hello needs \"handler\"") }
            return .hello(handler: handler, token: object["token"] as? String)
        case "ack":
            guard let id = (object["id"] as? NSNumber)?.int64Value else { return .invalid("ack needs a numeric \"id\"") }
            return .ack(id: id)
        case "beginBackgroundTask":
            return .beginBackgroundTask(name: object["name"] as? String ?? "")
        case "endBackgroundTask":
            guard let token = object["token"] as? String else { return .invalid("endBackgroundTask needs \"token\"") }
            return .endBackgroundTask(token: token)
        case "backgroundTimeRemaining":
            return .backgroundTimeRemaining
        case "enterBackground":
            return .enterBackground
        case "regionState":
            guard let region = object["region"] as? String else { return .invalid("regionState needs \"region\"") }
            guard let device = device(object["device"]) else { return .invalid("regionState: \"device\" must be a device name") }
            return .regionState(region: region, device: device, request: request)
        case "lastLocation":
            guard let device = device(object["device"]) else { return .invalid("lastLocation: \"device\" must be a device name") }
            return .lastLocation(device: device, request: request)
        case "finished":
            let useful = object["useful"]
            guard useful == nil || useful is NSNull || useful is Bool else { return .invalid("finished: \"useful\" must be true or false") }
            let through = object["through"]
            guard through == nil || through is NSNull || (through as? NSNumber).map({ $0.int64Value >= 0 }) == true else {
                return .invalid("finished: \"through\" must be an event id")
            }
            let result = object["result"]
            guard result == nil || result is NSNull || (result as? String).flatMap(HandlerLifecycle.FetchResult.init(rawValue:)) != nil else {
                return .invalid("finished: \"result\" must be newData, noData or failed")
            }
            let fetch = (result as? String).flatMap(HandlerLifecycle.FetchResult.init(rawValue:))
            // A fetch result says whether the work was useful when `useful` does not.
            let said = (useful as? Bool) ?? fetch.map { $0 == .newData }
            return .finished(useful: said, through: (through as? NSNumber)?.int64Value, result: fetch)
        default:
            return .invalid("unknown type \"\(type)\"")
        }
    }

    /// A query's `device`: absent or null means `local`; anything but a non-empty string is refused (nil).
    private static func device(_ value: Any?) -> String? {
        if value == nil || value is NSNull { return Device.localName }
        guard let name = value as? String, !name.isEmpty else { return nil }
        return name
    }
}

/// Messages from the daemon to a handler, one JSON object per line.
public enum HandlerReply {
    public static func welcome(handler: String, launchReason: String, state: String, remaining: Double?) -> String {
        var w = JSONObjectWriter()
        w.add("type", "welcome")
        w.add("handler", handler)
        w.add("launchReason", launchReason)
        w.add("state", state)
        w.add("backgroundTimeRemaining", remaining)
        return w.object
    }

    /// `{"type":"event","id":N,"attempt":K,"reason":KIND,"device":NAME,"event":{…}}`.
    public static func event(id: Int64, attempt: Int, reason: String, device: String, record: String) -> String {
        var w = JSONObjectWriter()
        w.add("type", "event")
        w.add("id", Int(id))
        w.add("attempt", attempt)
        w.add("reason", reason)
        w.add("device", device)
        w.addRaw("event", record)
        return w.object
    }

    public static func simple(_ type: String, _ fields: [(String, String?)] = []) -> String {
        var w = JSONObjectWriter()
        w.add("type", type)
        for (key, value) in fields { w.add(key, value) }
        return w.object
    }

    public static func remaining(_ type: String, token: String?, name: String?, seconds: Double?, request: String? = nil) -> String {
        var w = JSONObjectWriter()
        w.add("type", type)
        if let token { w.add("token", token) }
        if let name { w.add("name", name) }
        w.add("backgroundTimeRemaining", seconds)
        if let request { w.add("request", request) }
        return w.object
    }

    public static func answer(request: String?, _ body: String) -> String {
        var w = JSONObjectWriter()
        w.add("type", "answer")
        w.add("request", request)
        w.addRaw("value", body)
        return w.object
    }

    /// A query that could not be answered: still an `answer` in its place among the replies,
    /// with a null value and the error (`{"code","message"}`) instead.
    public static func answer(request: String?, failed error: HandlerQueryError) -> String {
        var problem = JSONObjectWriter()
        problem.add("code", error.code.rawValue)
        problem.add("message", error.message)
        var w = JSONObjectWriter()
        w.add("type", "answer")
        w.add("request", request)
        w.addRaw("value", "null")
        w.addRaw("error", problem.object)
        return w.object
    }
}
