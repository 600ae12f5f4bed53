import CZlib

/// Inflates a deflate stream as it is read, a buffer at a time (zlib's `inflate`): raw deflate
/// for a zip entry, gzip for a `.gz` file (every member of a multi-member gzip, as `gzip -d`
/// does; zero bytes after the last member are padding and ignored). Memory is zlib's window
/// (32 KiB) and one input buffer, whatever the stream's size.
///
/// zlib checks a gzip member's CRC-32 and length itself; a zip entry's are checked by
/// `ZipEntryCheck`. A damaged stream is an `archive` error naming the compressed offset where
/// zlib stopped, at the inflated offset reached; a stream that ends early is `truncated`.
final class ZlibInflater {
    enum Wrapper {
        /// Raw deflate (zip's method 8).
        case raw
        /// gzip members (zlib would also accept a zlib header).
        case gzip
    }

    private let wrapper: Wrapper
    private let name: String
    private let source: ImportInput.Producer
    private let stream: UnsafeMutablePointer<z_stream>
    private let input: UnsafeMutableRawBufferPointer
    private var sourceEnded = false
    private var finished = false
    /// An error to throw on the next read, met after this read's bytes.
    private var pending: ImportError?
    /// Compressed bytes handed to zlib so far, and inflated bytes returned.
    private var consumed = 0
    private var produced = 0

    static let inputSize = 64 * 1024

    init(_ wrapper: Wrapper, name: String, source: @escaping ImportInput.Producer) throws(ImportError) {
        self.wrapper = wrapper
        self.name = name
        self.source = source
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        input = .allocate(byteCount: Self.inputSize, alignment: 16)
        // inflateInit2 is a macro zlib.h defines over inflateInit2_; Swift imports only the function.
        let status = inflateInit2_(stream, wrapper == .raw ? -15 : 15 + 32, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            input.deallocate()
            throw ImportError(.io, "zlib could not start inflating (status \(status))", file: name)
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
        input.deallocate()
    }

    /// A producer of the inflated bytes.
    var producer: ImportInput.Producer {
        { buffer throws(ImportError) in try self.read(into: buffer) }
    }

    /// Fills some of `buffer`; returns how many bytes, 0 at the end of the stream. An error met
    /// after some bytes were inflated in the same call is thrown by the next call, so every
    /// byte before the damage reaches the reader.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(ImportError) -> Int {
        if let pending {
            self.pending = nil
            finished = true
            throw pending
        }
        guard !finished, buffer.count > 0 else { return 0 }
        let capacity = UInt32(clamping: buffer.count)
        stream.pointee.next_out = buffer.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = capacity
        do throws(ImportError) {
            try inflateSome()
        } catch {
            guard stream.pointee.avail_out < capacity else { throw error }
            pending = error
        }
        return Int(capacity - stream.pointee.avail_out)
    }

    /// Inflates until some output is produced, the output space is full, or the stream ends.
    private func inflateSome() throws(ImportError) {
        let capacity = stream.pointee.avail_out
        while stream.pointee.avail_out == capacity {
            if stream.pointee.avail_in == 0 {
                guard try refill() else {
                    throw ImportError(
                        .truncated, "the compressed data ends early, after \(consumed) compressed bytes: the file is cut short",
                        file: name, position: .byteOffset(produced))
                }
            }
            let before = (stream.pointee.avail_in, stream.pointee.avail_out)
            let status = inflate(stream, Z_NO_FLUSH)
            consumed += Int(before.0 - stream.pointee.avail_in)
            produced += Int(before.1 - stream.pointee.avail_out)
            switch status {
            case Z_OK, Z_BUF_ERROR:
                continue
            case Z_STREAM_END:
                if try !nextMember() {
                    finished = true
                    return
                }
            case Z_MEM_ERROR:
                throw ImportError(.io, "zlib ran out of memory", file: name, position: .byteOffset(produced))
            default:
                let reason = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
                throw ImportError(
                    .archive, "the compressed data is damaged near compressed byte \(consumed) (\(reason)); \(produced) bytes were inflated before it",
                    file: name, position: .byteOffset(produced))
            }
        }
    }

    /// Reads more compressed bytes when zlib has used all it had; false at the source's end.
    private func refill() throws(ImportError) -> Bool {
        guard !sourceEnded else { return false }
        let count = try source(input)
        if count == 0 {
            sourceEnded = true
            return false
        }
        stream.pointee.next_in = input.baseAddress!.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_in = UInt32(count)
        return true
    }

    /// After a stream's end: for gzip, starts the next member if one follows (skipping zero
    /// padding to the end); false when there is none. A raw stream has one member.
    private func nextMember() throws(ImportError) -> Bool {
        guard wrapper == .gzip else { return false }
        while true {
            if stream.pointee.avail_in == 0, try !refill() { return false }
            let next = stream.pointee.next_in!
            if next.pointee == 0x1F {
                inflateReset(stream)
                return true
            }
            guard next.pointee == 0 else {
                throw ImportError(
                    .archive, "compressed byte \(consumed) follows the last gzip member but starts no new one (0x\(String(next.pointee, radix: 16)))",
                    file: name, position: .byteOffset(produced))
            }
            stream.pointee.next_in = next + 1
            stream.pointee.avail_in -= 1
            consumed += 1
        }
    }
}
