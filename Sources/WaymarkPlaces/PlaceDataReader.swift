/// Reads the place-data file's little-endian fields in order, checking every length before
/// it reads, so a truncated or corrupt file throws a located `PlaceDataError`, never traps.
struct PlaceDataReader {
    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Ensures `count` more bytes are there for `what`.
    mutating func require(_ count: Int, _ what: String) throws(PlaceDataError) {
        guard count >= 0, count <= bytes.count - offset else {
            throw PlaceDataError("truncated: \(what) needs \(count) bytes, \(bytes.count - offset) left", offset: offset)
        }
    }

    mutating func take(_ count: Int, _ what: String) throws(PlaceDataError) -> ArraySlice<UInt8> {
        try require(count, what)
        defer { offset += count }
        return bytes[offset..<offset + count]
    }

    mutating func u16(_ what: String) throws(PlaceDataError) -> UInt16 {
        try require(2, what)
        defer { offset += 2 }
        return load(at: offset)
    }

    mutating func u32(_ what: String) throws(PlaceDataError) -> UInt32 {
        try require(4, what)
        defer { offset += 4 }
        return load(at: offset)
    }

    /// A count followed by `elementSize`-byte elements: checked against what is left, so a
    /// corrupt count cannot make the reader allocate more than the file holds.
    mutating func count(_ what: String, elementSize: Int) throws(PlaceDataError) -> Int {
        let at = offset
        let count = Int(try u32("the \(what) count"))
        guard count <= (bytes.count - offset) / max(1, elementSize) else {
            throw PlaceDataError("truncated: \(count) \(what) do not fit in the \(bytes.count - offset) bytes left", offset: at)
        }
        return count
    }

    /// `count` little-endian values of `T` (UInt16, UInt32, Int32).
    mutating func array<T: FixedWidthInteger>(_ count: Int, of: T.Type, _ what: String) throws(PlaceDataError) -> [T] {
        try require(count * MemoryLayout<T>.size, what)
        let start = offset
        offset += count * MemoryLayout<T>.size
        return bytes.withUnsafeBytes { raw in
            (0..<count).map { T(littleEndian: raw.loadUnaligned(fromByteOffset: start + $0 * MemoryLayout<T>.size, as: T.self)) }
        }
    }

    /// `count` interleaved Int32 pairs, split into two arrays.
    mutating func pairs(_ count: Int, _ what: String) throws(PlaceDataError) -> ([Int32], [Int32]) {
        try require(count * 8, what)
        let start = offset
        offset += count * 8
        return bytes.withUnsafeBytes { raw in
            func value(_ i: Int) -> Int32 { Int32(littleEndian: raw.loadUnaligned(fromByteOffset: start + 4 * i, as: Int32.self)) }
            return ((0..<count).map { value(2 * $0) }, (0..<count).map { value(2 * $0 + 1) })
        }
    }

    private func load<T: FixedWidthInteger>(at offset: Int) -> T {
        bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
    }
}
