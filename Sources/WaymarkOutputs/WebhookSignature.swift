import Crypto

/// How a webhook receiver knows the request came from this Waymark (docs/outputs.md): the
/// header `Waymark-Signature: t=UNIX_SECONDS,v1=HEX`, where HEX is HMAC-SHA256 with the
/// output's secret over the text `UNIX_SECONDS.BODY`. A receiver recomputes it, compares in
/// constant time, and refuses timestamps far from its clock (replays).
public enum WebhookSignature {
    public static let header = "Waymark-Signature"

    public static func value(body: [UInt8], secret: String, time seconds: Int64) -> String {
        "t=\(seconds),v1=" + hex(body: body, secret: secret, time: seconds)
    }

    public static func hex(body: [UInt8], secret: String, time seconds: Int64) -> String {
        let key = SymmetricKey(data: Array(secret.utf8))
        var message = Array("\(seconds).".utf8)
        message += body
        let code = HMAC<SHA256>.authenticationCode(for: message, using: key)
        return code.hexadecimal
    }

    /// Whether `header` signs `body` with `secret` (the receiver's check, used by the tests).
    public static func verify(_ header: String, body: [UInt8], secret: String) -> Bool {
        var time: Int64?
        var given: String?
        for part in header.split(separator: ",") {
            if part.hasPrefix("t=") { time = Int64(part.dropFirst(2)) }
            if part.hasPrefix("v1=") { given = String(part.dropFirst(3)) }
        }
        guard let time, let given else { return false }
        let expected = hex(body: body, secret: secret, time: time)
        guard expected.utf8.count == given.utf8.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(expected.utf8, given.utf8) { difference |= a ^ b }
        return difference == 0
    }
}
