import Logging
import Testing

@testable import WaymarkNATS

let testLogger: Logger = {
    var logger = Logger(label: "waymark.nats.test")
    logger.logLevel = .error
    return logger
}()

@Suite("NATS connection (real nats-server)")
struct NATSConnectionTests {
    @Test func publishSubscribeRoundTripWithHeaders() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "pubsub", logger: testLogger)
            let subscription = try await connection.subscribe(to: "fixes.>")
            try await connection.flush()

            try await connection.publish(Array("plain".utf8), to: "fixes.a")
            try await connection.publish([0, 255, 13, 10], to: "fixes.b", headers: [("Device", "d-1"), ("Device", "d-2")])
            try await connection.publish([], to: "fixes.c", headers: [("Empty-Body", "yes")])
            try await connection.publish(Array("ignored".utf8), to: "other.subject")

            var received: [NATSMessage] = []
            for try await message in subscription {
                received.append(message)
                if received.count == 3 { break }
            }
            #expect(received.map(\.subject) == ["fixes.a", "fixes.b", "fixes.c"])
            #expect(received[0].string == "plain")
            #expect(received[0].headers.isEmpty)
            #expect(received[1].payload == [0, 255, 13, 10])
            #expect(received[1].headers.values(for: "device") == ["d-1", "d-2"])
            #expect(received[2].payload.isEmpty)
            #expect(received[2].headers["Empty-Body"] == "yes")
            #expect(received[2].status == nil)

            try await subscription.unsubscribe()
            await connection.close()
            #expect(connection.isClosed)
        }
    }

    @Test func unsubscribeEndsIteration() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "unsub", logger: testLogger)
            let subscription = try await connection.subscribe(to: "x")
            try await subscription.unsubscribe()
            var count = 0
            for try await _ in subscription { count += 1 }
            #expect(count == 0)
            // The server no longer delivers to it; the connection stays usable.
            try await connection.publish([1], to: "x")
            try await connection.flush()
            await connection.close()
        }
    }

    @Test func requestReply() async throws {
        try await withNATSServer { server in
            let responder = try await NATSConnection.connect(url: server.url, name: "responder", logger: testLogger)
            let requester = try await NATSConnection.connect(url: server.url, name: "requester", logger: testLogger)
            let service = try await responder.subscribe(to: "svc.upper", queue: "workers")
            try await responder.flush()
            let serving = Task {
                for try await request in service {
                    guard let reply = request.reply else { continue }
                    try await responder.publish(
                        Array(request.string.uppercased().utf8), to: reply, headers: [("Echo", request.headers["Id"] ?? "")])
                }
            }
            // Concurrent requests on one connection each get their own answer.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<20 {
                    group.addTask {
                        let reply = try await requester.request(
                            Array("hello \(i)".utf8), to: "svc.upper", headers: [("Id", "\(i)")], timeout: .seconds(5))
                        #expect(reply.string == "HELLO \(i)")
                        #expect(reply.headers["Echo"] == "\(i)")
                    }
                }
                try await group.waitForAll()
            }
            try await service.unsubscribe()
            _ = try await serving.value
            await requester.close()
            await responder.close()
        }
    }

    @Test func noRespondersFailsFast() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "nobody", logger: testLogger)
            let start = ContinuousClock.now
            await #expect(throws: NATSError.noResponders(subject: "nobody.home")) {
                _ = try await connection.request([], to: "nobody.home", timeout: .seconds(10))
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            // The connection is still fine afterwards.
            try await connection.flush()
            await connection.close()
        }
    }

    @Test func requestTimeoutNamesTheSubject() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "timeout", logger: testLogger)
            let silent = try await connection.subscribe(to: "silent")
            try await connection.flush()
            do {
                _ = try await connection.request([], to: "silent", timeout: .milliseconds(200))
                Issue.record("expected a timeout")
            } catch let error as NATSError {
                #expect(error == .timeout(subject: "silent", after: .milliseconds(200)))
                #expect(error.description.contains("silent"))
            }
            try await silent.unsubscribe()
            await connection.close()
        }
    }

    @Test func wrongPortGivesClearError() async throws {
        let port = try NATSServerProcess.freePort()
        let url = "nats://127.0.0.1:\(port)"
        do {
            _ = try await NATSConnection.connect(url: url, name: "nowhere", logger: testLogger)
            Issue.record("connected to a closed port")
        } catch let error as NATSError {
            guard case .connectionFailed(let failedURL, _) = error else {
                Issue.record("unexpected error \(error)")
                return
            }
            #expect(failedURL == url)
            #expect(error.description.contains(url))
        }
        await #expect(throws: NATSError.invalidURL("http://127.0.0.1:4222")) {
            _ = try await NATSConnection.connect(url: "http://127.0.0.1:4222", name: "bad", logger: testLogger)
        }
    }

    @Test func killedServerMakesCallsThrowNotHang() async throws {
        try await withNATSServer { server in
            let connection = try await NATSConnection.connect(url: server.url, name: "doomed", logger: testLogger)
            let subscription = try await connection.subscribe(to: "anything")
            try await connection.flush()
            let iterating = Task {
                do {
                    for try await _ in subscription {}
                    return "finished"
                } catch {
                    return "threw"
                }
            }
            server.killHard()

            let start = ContinuousClock.now
            var failure: (any Error)?
            // The first call may be written before the socket's close is noticed; every call
            // must throw promptly anyway.
            do {
                try await connection.flush(timeout: .seconds(5))
            } catch {
                failure = error
            }
            #expect(failure is NATSError)
            await #expect(throws: NATSError.self) {
                _ = try await connection.request([], to: "anything", timeout: .seconds(5))
            }
            await #expect(throws: NATSError.self) {
                try await connection.publish([], to: "anything")
            }
            #expect(ContinuousClock.now - start < .seconds(3))
            #expect(connection.isClosed)
            #expect(await iterating.value == "threw")
        }
    }

    @Test func connectsFromManyTasksAtOnce() async throws {
        try await withNATSServer { server in
            let url = server.url
            try await withThrowingTaskGroup(of: Void.self) { group in
                for i in 0..<8 {
                    group.addTask {
                        let connection = try await NATSConnection.connect(url: url, name: "c\(i)", logger: testLogger)
                        try await connection.flush()
                        #expect(connection.serverInfo.jetStream)
                        await connection.close()
                    }
                }
                try await group.waitForAll()
            }
        }
    }
}

@Suite("NATS connection against a misbehaving server")
struct NATSMisbehavingServerTests {
    @Test func garbageDuringHandshakeFailsConnect() async throws {
        let server = try FakeNATSServer(greeting: FakeNATSServer.info, afterPing: "BOGUS stuff\r\n")
        do {
            _ = try await NATSConnection.connect(url: server.url, name: "x", logger: testLogger, timeout: .seconds(3))
            Issue.record("connected despite garbage")
        } catch let error as NATSError {
            #expect(error.description.contains("BOGUS"), "\(error)")
            #expect(error.description.contains(server.url))
        }
    }

    @Test func fatalServerErrorIsReported() async throws {
        let server = try FakeNATSServer(greeting: FakeNATSServer.info, afterPing: "-ERR 'Authorization Violation'\r\n")
        do {
            _ = try await NATSConnection.connect(url: server.url, name: "x", logger: testLogger, timeout: .seconds(3))
            Issue.record("connected despite -ERR")
        } catch let error as NATSError {
            #expect(error.description.contains("Authorization Violation"), "\(error)")
        }
    }

    @Test func malformedMessageAfterConnectClosesConnection() async throws {
        let server = try FakeNATSServer(
            greeting: FakeNATSServer.info, afterPing: "PONG\r\nMSG _INBOX.x.1 1 3\r\nabcXY\r\n")
        let connection = try await NATSConnection.connect(url: server.url, name: "x", logger: testLogger, timeout: .seconds(3))
        let start = ContinuousClock.now
        do {
            try await connection.flush(timeout: .seconds(3))
            Issue.record("flush succeeded on a broken connection")
        } catch let error as NATSError {
            guard case .protocolViolation = error else {
                Issue.record("expected a protocol violation, got \(error)")
                return
            }
        }
        #expect(ContinuousClock.now - start < .seconds(2))
        #expect(connection.isClosed)
    }

    @Test func silentServerTimesOutHandshake() async throws {
        let server = try FakeNATSServer(greeting: "", afterPing: "")
        let start = ContinuousClock.now
        await #expect(throws: NATSError.self) {
            _ = try await NATSConnection.connect(url: server.url, name: "x", logger: testLogger, timeout: .milliseconds(300))
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }
}
