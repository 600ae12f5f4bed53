import Foundation
import Logging
import Testing

@testable import WaymarkNATS

@Suite("JetStream (real nats-server)")
struct JetStreamTests {
    /// Connects to a fresh server and hands over a JetStream context.
    func withJetStream(_ body: (JetStream) async throws -> Void) async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "js-test", logger: testLogger)
            do {
                try await body(JetStream(connection, timeout: .seconds(5)))
            } catch {
                await connection.close()
                throw error
            }
            await connection.close()
        }
    }

    /// Polls until `condition` holds (JetStream applies acks asynchronously to the request).
    func eventually(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(3)
        while ContinuousClock.now < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("timed out waiting until \(what)")
    }

    @Test func ensureStreamIsIdempotentAndUpdatesSubjects() async throws {
        try await withJetStream { js in
            try await js.ensureStream("FIXES", subjects: ["fixes.>"], maxAge: .seconds(3600))
            try await js.ensureStream("FIXES", subjects: ["fixes.>"], maxAge: .seconds(3600))
            var info = try await js.streamInfo("FIXES")
            #expect(info.subjects == ["fixes.>"])
            #expect(info.maxAge == .seconds(3600))

            try await js.ensureStream("FIXES", subjects: ["fixes.>", "visits.>"], maxAge: .seconds(3600))
            info = try await js.streamInfo("FIXES")
            #expect(info.subjects == ["fixes.>", "visits.>"])

            try await js.deleteStream("FIXES")
            do {
                _ = try await js.streamInfo("FIXES")
                Issue.record("stream still exists")
            } catch NATSError.jetStream(let error) {
                #expect(error.code == 404)
                #expect(error.errCode == 10059)
            }
        }
    }

    @Test func publishThousandAndFetchAllInOrder() async throws {
        try await withJetStream { js in
            try await js.ensureStream("BULK", subjects: ["bulk.>"])
            try await js.ensureConsumer(stream: "BULK", durable: "reader", filterSubject: "bulk.>", ackWait: .seconds(30))
            try await js.ensureConsumer(stream: "BULK", durable: "reader", filterSubject: "bulk.>", ackWait: .seconds(30))
            for i in 1...1000 {
                let ack = try await js.publish(Array("m\(i)".utf8), to: "bulk.\(i % 7)")
                #expect(ack.stream == "BULK")
                #expect(ack.sequence == UInt64(i))
                #expect(!ack.duplicate)
            }
            var stream = try await js.streamInfo("BULK")
            #expect(stream.messages == 1000)
            #expect(stream.firstSequence == 1)
            #expect(stream.lastSequence == 1000)

            var next: UInt64 = 1
            while next <= 1000 {
                let batch = try await js.fetch(stream: "BULK", consumer: "reader", batch: 128, expires: .seconds(2))
                guard !batch.isEmpty else {
                    Issue.record("fetch returned nothing at sequence \(next)")
                    break
                }
                for message in batch {
                    #expect(message.streamSequence == next)
                    #expect(message.deliveryCount == 1)
                    #expect(message.subject == "bulk.\(next % 7)")
                    #expect(message.payload == Array("m\(next)".utf8))
                    try await message.ack()
                    next += 1
                }
            }
            try await js.connection.flush()
            try await eventually("all acks are applied") {
                let info = try await js.consumerInfo(stream: "BULK", durable: "reader")
                return info.numAckPending == 0 && info.ackFloorStreamSequence == 1000
            }
            let info = try await js.consumerInfo(stream: "BULK", durable: "reader")
            #expect(info.numPending == 0)
            #expect(info.numAckPending == 0)
            #expect(info.numRedelivered == 0)
            #expect(info.deliveredStreamSequence == 1000)
            #expect(info.ackFloorStreamSequence == 1000)
            stream = try await js.streamInfo("BULK")
            #expect(stream.consumerCount == 1)
        }
    }

    @Test func unackedMessageIsRedeliveredAfterAckWait() async throws {
        try await withJetStream { js in
            try await js.ensureStream("REDO", subjects: ["redo.>"])
            try await js.ensureConsumer(stream: "REDO", durable: "slow", filterSubject: "redo.>", ackWait: .seconds(1))
            let published = try await js.publish(Array("once".utf8), to: "redo.x")

            let first = try await js.fetch(stream: "REDO", consumer: "slow", batch: 1, expires: .seconds(1))
            #expect(first.count == 1)
            #expect(first.first?.deliveryCount == 1)
            // Not acked: after ack wait (1 s) the server delivers it again.
            let second = try await js.fetch(stream: "REDO", consumer: "slow", batch: 1, expires: .seconds(3))
            let again = try #require(second.first)
            #expect(again.deliveryCount == 2)
            #expect(again.streamSequence == published.sequence)
            #expect(again.payload == Array("once".utf8))
            try await again.ackSync()
            let info = try await js.consumerInfo(stream: "REDO", durable: "slow")
            #expect(info.numAckPending == 0)
            #expect(info.numRedelivered == 0)
        }
    }

    @Test func nakRedeliversAndInProgressKeepsIt() async throws {
        try await withJetStream { js in
            try await js.ensureStream("NAK", subjects: ["nak.>"])
            try await js.ensureConsumer(stream: "NAK", durable: "n", filterSubject: "nak.>", ackWait: .seconds(30))
            _ = try await js.publish([1], to: "nak.a")
            let first = try #require(try await js.fetch(stream: "NAK", consumer: "n", batch: 1, expires: .seconds(1)).first)
            try await first.inProgress()
            try await first.nak()
            let again = try #require(try await js.fetch(stream: "NAK", consumer: "n", batch: 1, expires: .seconds(2)).first)
            #expect(again.deliveryCount == 2)
            #expect(again.streamSequence == first.streamSequence)
            try await again.ackSync()
        }
    }

    @Test func messageIDDeduplicates() async throws {
        try await withJetStream { js in
            try await js.ensureStream("DEDUP", subjects: ["dedup.>"], maxAge: .seconds(600))
            let first = try await js.publish(Array("a".utf8), to: "dedup.1", messageID: "fix-42")
            let second = try await js.publish(Array("a".utf8), to: "dedup.1", messageID: "fix-42")
            let other = try await js.publish(Array("b".utf8), to: "dedup.1", messageID: "fix-43")
            #expect(!first.duplicate)
            #expect(second.duplicate)
            #expect(second.sequence == first.sequence)
            #expect(!other.duplicate)
            #expect(try await js.streamInfo("DEDUP").messages == 2)
        }
    }

    /// A pipelined batch keeps its order in the stream, acks in order, and a repeated id
    /// within the batch is a duplicate.
    @Test func aPipelinedBatchKeepsItsOrder() async throws {
        try await withJetStream { js in
            try await js.ensureStream("BATCH", subjects: ["batch.>"])
            let messages = (0..<500).map { (payload: Array("\($0)".utf8), subject: "batch.\($0 % 3)", messageID: Optional("m\($0 % 499)")) }
            let acks = try await js.publish(messages)
            #expect(acks.count == 500)
            #expect(acks.prefix(499).map(\.sequence) == Array(1...499))
            #expect(acks[499].duplicate && acks[499].sequence == 1)
            try await js.ensureConsumer(stream: "BATCH", durable: "all", filterSubject: "batch.>", ackWait: .seconds(5))
            var payloads: [String] = []
            while payloads.count < 499 {
                let fetched = try await js.fetch(stream: "BATCH", consumer: "all", batch: 200, expires: .seconds(1))
                #expect(!fetched.isEmpty)
                if fetched.isEmpty { break }
                for message in fetched { payloads.append(String(decoding: message.payload, as: UTF8.self)) }
            }
            #expect(payloads == (0..<499).map { "\($0)" })
            #expect(try await js.publish([]).isEmpty)
        }
    }

    /// A no-wait pull takes what is there and ends at once, full batch or not, and leaves
    /// nothing pulling: a message published afterwards is not delivered to it.
    @Test func fetchAvailableTakesWhatIsThereAndEnds() async throws {
        try await withJetStream { js in
            try await js.ensureStream("NOW", subjects: ["now.>"])
            try await js.ensureConsumer(stream: "NOW", durable: "c", filterSubject: "now.>", ackWait: .seconds(30))
            let began = ContinuousClock.now
            #expect(try await js.fetchAvailable(stream: "NOW", consumer: "c", batch: 10).isEmpty)
            _ = try await js.publish((0..<3).map { (payload: [UInt8($0)], subject: "now.x", messageID: nil) })
            let three = try await js.fetchAvailable(stream: "NOW", consumer: "c", batch: 10)
            #expect(three.map(\.payload) == [[0], [1], [2]])
            #expect(ContinuousClock.now - began < .seconds(1), "no-wait pulls do not wait")
            for message in three { try await message.ack() }
            _ = try await js.publish([9], to: "now.x")
            try await eventually("the later message is still pending, not delivered to an old pull") {
                let info = try await js.consumerInfo(stream: "NOW", durable: "c")
                return info.numPending == 1 && info.numAckPending == 0
            }
        }
    }

    /// A consumer given a start time delivers what was stored from then on, not what came before.
    @Test func aConsumerStartingAtATimeSkipsWhatCameBefore() async throws {
        try await withJetStream { js in
            try await js.ensureStream("LATER", subjects: ["later.>"])
            _ = try await js.publish((0..<3).map { (payload: [UInt8($0)], subject: "later.x", messageID: nil) })
            try await Task.sleep(for: .milliseconds(50))
            let start = Date()
            try await Task.sleep(for: .milliseconds(50))
            _ = try await js.publish((7..<9).map { (payload: [UInt8($0)], subject: "later.x", messageID: nil) })
            try await js.ensureConsumer(stream: "LATER", durable: "new", filterSubject: "later.>", ackWait: .seconds(30), startingAt: start)
            try await js.ensureConsumer(stream: "LATER", durable: "new", filterSubject: "later.>", ackWait: .seconds(30), startingAt: start)
            let messages = try await js.fetch(stream: "LATER", consumer: "new", batch: 10, expires: .milliseconds(300))
            #expect(messages.map(\.payload) == [[7], [8]])
            try await js.ensureConsumer(stream: "LATER", durable: "all", filterSubject: "later.>", ackWait: .seconds(30))
            #expect(try await js.fetch(stream: "LATER", consumer: "all", batch: 10, expires: .milliseconds(300)).count == 5)
        }
    }

    @Test func publishWithoutStreamIsNoResponders() async throws {
        try await withJetStream { js in
            await #expect(throws: NATSError.noResponders(subject: "nowhere.x")) {
                _ = try await js.publish([1], to: "nowhere.x")
            }
        }
    }

    @Test func emptyFetchReturnsAfterExpires() async throws {
        try await withJetStream { js in
            try await js.ensureStream("EMPTY", subjects: ["empty.>"])
            try await js.ensureConsumer(stream: "EMPTY", durable: "idle", filterSubject: "empty.>", ackWait: .seconds(5))
            let start = ContinuousClock.now
            let messages = try await js.fetch(stream: "EMPTY", consumer: "idle", batch: 10, expires: .milliseconds(500))
            let elapsed = ContinuousClock.now - start
            #expect(messages.isEmpty)
            #expect(elapsed >= .milliseconds(400))
            #expect(elapsed < .milliseconds(1400))
            // A partial batch returns what there is when the request expires.
            _ = try await js.publish([7], to: "empty.one")
            let partial = try await js.fetch(stream: "EMPTY", consumer: "idle", batch: 10, expires: .milliseconds(300))
            #expect(partial.map(\.payload) == [[7]])
        }
    }

    @Test func heartbeatsAreSkippedNotReturned() async throws {
        try await withJetStream { js in
            try await js.ensureStream("BEAT", subjects: ["beat.>"])
            try await js.ensureConsumer(stream: "BEAT", durable: "b", filterSubject: "beat.>", ackWait: .seconds(5))
            let start = ContinuousClock.now
            let none = try await js.fetch(
                stream: "BEAT", consumer: "b", batch: 5, expires: .milliseconds(1200), heartbeat: .milliseconds(200))
            #expect(none.isEmpty)
            #expect(ContinuousClock.now - start >= .milliseconds(1100))
        }
    }

    @Test func changedAckWaitIsAppliedInPlace() async throws {
        try await withJetStream { js in
            try await js.ensureStream("CFG", subjects: ["cfg.>"])
            try await js.ensureConsumer(stream: "CFG", durable: "c", filterSubject: "cfg.>", ackWait: .seconds(30))
            try await js.ensureConsumer(stream: "CFG", durable: "c", filterSubject: "cfg.>", ackWait: .seconds(10))
            let info = try await js.consumerInfo(stream: "CFG", durable: "c")
            #expect(info.ackWait == .seconds(10))
            #expect(info.filterSubject == "cfg.>")
            #expect(info.maxAckPending == 10_000)
        }
    }

    @Test func fetchOnUnknownConsumerThrows() async throws {
        try await withJetStream { js in
            try await js.ensureStream("LONELY", subjects: ["lonely.>"])
            let start = ContinuousClock.now
            await #expect(throws: NATSError.self) {
                _ = try await js.fetch(stream: "LONELY", consumer: "ghost", batch: 1, expires: .milliseconds(500))
            }
            #expect(ContinuousClock.now - start < .seconds(2))
        }
    }

    @Test func twoConsumersFetchConcurrentlyOnOneConnection() async throws {
        try await withJetStream { js in
            try await js.ensureStream("MIXED", subjects: ["mixed.>"])
            try await js.ensureConsumer(stream: "MIXED", durable: "left", filterSubject: "mixed.left", ackWait: .seconds(30))
            try await js.ensureConsumer(stream: "MIXED", durable: "right", filterSubject: "mixed.right", ackWait: .seconds(30))

            // Both pulls wait at the server before anything is published.
            async let left = js.fetch(stream: "MIXED", consumer: "left", batch: 50, expires: .seconds(3))
            async let right = js.fetch(stream: "MIXED", consumer: "right", batch: 50, expires: .seconds(3))
            try await Task.sleep(for: .milliseconds(100))
            for i in 0..<50 {
                _ = try await js.publish(Array("L\(i)".utf8), to: "mixed.left")
                _ = try await js.publish(Array("R\(i)".utf8), to: "mixed.right")
            }
            let (leftMessages, rightMessages) = try await (left, right)
            #expect(leftMessages.map(\.string) == (0..<50).map { "L\($0)" })
            #expect(rightMessages.map(\.string) == (0..<50).map { "R\($0)" })
            #expect(leftMessages.allSatisfy { $0.metadata.consumer == "left" })
            for message in leftMessages + rightMessages { try await message.ack() }
        }
    }

    @Test func apiErrorsCarryCodes() async throws {
        try await withJetStream { js in
            do {
                _ = try await js.consumerInfo(stream: "MISSING", durable: "x")
                Issue.record("expected an error")
            } catch NATSError.jetStream(let error) {
                #expect(error.code == 404)
                #expect(error.errCode == 10059)
                #expect(!error.errorDescription.isEmpty)
                #expect(NATSError.jetStream(error).description.contains("10059"))
            }
            await #expect(throws: NATSError.invalidSubject("bad.name")) {
                try await js.ensureStream("bad.name", subjects: ["x"])
            }
        }
    }
}

extension JetStreamMessage {
    var string: String { String(decoding: payload, as: UTF8.self) }
}
