import Hummingbird
import Synchronization

/// A request body as it arrives, counted, ending in 413 `body-too-large` once it passes `limit`
/// bytes: what `POST /v1/imports` streams to a file.
struct UploadBody: AsyncSequence, Sendable {
    typealias Element = ByteBuffer

    /// The bytes seen so far, and whether the limit was passed (the writer that reads the body
    /// may wrap the error it gets).
    final class Count: Sendable {
        private let state = Mutex<(bytes: Int64, over: Bool)>((0, false))
        var bytes: Int64 { state.withLock { $0.bytes } }
        var isOverLimit: Bool { state.withLock { $0.over } }

        fileprivate func add(_ count: Int, limit: Int64) -> Bool {
            state.withLock { state in
                state.bytes += Int64(count)
                if state.bytes > limit { state.over = true }
                return !state.over
            }
        }
    }

    let body: RequestBody
    let limit: Int64
    let count = Count()

    struct AsyncIterator: AsyncIteratorProtocol {
        var base: RequestBody.AsyncIterator
        let limit: Int64
        let count: Count

        mutating func next() async throws -> ByteBuffer? {
            guard let chunk = try await base.next() else { return nil }
            guard count.add(chunk.readableBytes, limit: limit) else { throw UploadBody.tooLarge(limit) }
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: body.makeAsyncIterator(), limit: limit, count: count) }

    static func tooLarge(_ limit: Int64) -> APIError {
        APIError(
            .contentTooLarge, code: "body-too-large",
            message: "the upload is over this daemon's limit of \(limit) bytes; import a larger file with `waymark import` on the daemon's machine")
    }
}
