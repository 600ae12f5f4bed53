import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkDelivery

/// The webhook sender against receivers that misbehave, over real sockets
/// (Tests/Receivers/misbehaving_webhook.py): redirects are failures and never followed, an answer that
/// does not end fails within the deadline, a long one is cut at the limit.
@Suite struct WebhookSenderTests {
    static let receiverScript = ProjectPaths.repositoryRoot.appendingPathComponent("Tests/Receivers/misbehaving_webhook.py").path

    /// Starts a receiver (`mode`: see Tests/Receivers/misbehaving_webhook.py) and waits until it listens.
    static func receiver(_ mode: [String], port: Int, log: String) async throws -> BackgroundProcess {
        let receiver = try BackgroundProcess(
            URL(fileURLWithPath: "/usr/bin/python3"), [receiverScript, mode[0], "\(port)", log] + mode.dropFirst())
        let listening = try await BackgroundProcess.waitUntil(timeout: 30) { loopbackAccepts(port: port) }
        try #require(listening, "the receiver is not listening on \(port): \(receiver.stderr.suffix(2000))")
        return receiver
    }

    static func lines(_ log: String) -> [String] {
        ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    static func send(_ sender: WebhookSender, port: Int) async -> DeliveryOutcome {
        await sender.send(#"{"specversion":"1.0"}"#, to: "http://127.0.0.1:\(port)/hook", secret: "s", at: 1_700_000_000)
    }

    @Test(arguments: [301, 302, 303, 307, 308])
    func aRedirectIsAFailureAndItsTargetHearsNothing(status: Int) async throws {
        let directory = try TemporaryDirectory()
        let (port, targetPort) = (try freeLoopbackPort(), try freeLoopbackPort())
        let (log, targetLog) = (directory.path("receiver.log"), directory.path("target.log"))
        let target = try await Self.receiver(["ok"], port: targetPort, log: targetLog)
        let receiver = try await Self.receiver(["redirect", "\(status)", "\(targetPort)"], port: port, log: log)
        defer { withExtendedLifetime((receiver, target)) {} }
        let client = WebhookSender.makeClient()
        let outcome = await Self.send(WebhookSender(client: client), port: port)
        try await client.shutdown()
        #expect(
            outcome == .failed("the receiver answered \(status) (redirects are not followed; point the output at the final URL)"),
            "\(outcome)")
        #expect(Self.lines(log) == ["POST /hook 21"])
        try await Task.sleep(for: .milliseconds(200))
        #expect(Self.lines(targetLog).isEmpty, "the redirect's target was sent \(Self.lines(targetLog))")
    }

    @Test func anAnswerThatNeverEndsFailsWithinTheDeadlineAndTheNextDeliveryHappens() async throws {
        let directory = try TemporaryDirectory()
        let port = try freeLoopbackPort()
        let log = directory.path("receiver.log")
        let receiver = try await Self.receiver(["trickle"], port: port, log: log)
        defer { withExtendedLifetime(receiver) {} }
        let client = WebhookSender.makeClient()
        let sender = WebhookSender(client: client, timeout: .seconds(2))
        let started = ContinuousClock.now
        let first = await Self.send(sender, port: port)
        let took = ContinuousClock.now - started
        #expect(first == .failed("the receiver's answer was not over within 2 s"), "\(first)")
        #expect(took >= .seconds(2) && took < .seconds(4), "\(took)")
        // The stalled connection was closed, not left to the pool: the receiver's next byte fails.
        let closed = try await BackgroundProcess.waitUntil(timeout: 5) { Self.lines(log).contains("closed") }
        #expect(closed, "\(Self.lines(log))")
        #expect(await Self.send(sender, port: port) == .delivered)
        #expect(Self.lines(log).filter { $0.hasPrefix("POST /hook") }.count == 2)
        try await client.shutdown()
    }

    @Test func anAnswerIsReadUpToItsLimitAndTheRestDropped() async throws {
        let directory = try TemporaryDirectory()
        let port = try freeLoopbackPort()
        let receiver = try await Self.receiver(["flood"], port: port, log: directory.path("receiver.log"))
        defer { withExtendedLifetime(receiver) {} }
        let client = WebhookSender.makeClient()
        let counted = Counter()
        let outcome = await WebhookSender(client: client, timeout: .seconds(5)).send(
            "{}", to: "http://127.0.0.1:\(port)/hook", secret: "s", at: 0, traffic: { counted.add($0) })
        #expect(outcome == .delivered)
        // Head sizes, the event and at most a read's worth past the limit.
        #expect(counted.value >= WebhookSender.answerLimit && counted.value < WebhookSender.answerLimit + 128 << 10, "\(counted.value)")
        try await client.shutdown()
    }

    @Test func aCancelledDeliveryEndsAtOnceAsAFailure() async throws {
        let directory = try TemporaryDirectory()
        let port = try freeLoopbackPort()
        let receiver = try await Self.receiver(["trickle-all"], port: port, log: directory.path("receiver.log"))
        defer { withExtendedLifetime(receiver) {} }
        let client = WebhookSender.makeClient()
        let delivery = Task { await Self.send(WebhookSender(client: client), port: port) }
        try await Task.sleep(for: .milliseconds(500))
        let started = ContinuousClock.now
        delivery.cancel()
        let outcome = await delivery.value
        #expect(ContinuousClock.now - started < .seconds(1))
        guard case .failed = outcome else { return #expect(Bool(false), "\(outcome)") }
        try await client.shutdown()
    }
}

/// Bytes counted from another thread.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var total = 0
    var value: Int { lock.withLock { total } }
    func add(_ bytes: Int) { lock.withLock { total += bytes } }
}
