import Foundation
import WaymarkCore
import WaymarkSources

/// Every point of a document, read with `GPXReader`.
func readAllPoints(_ reader: inout GPXReader) throws -> [GPXPoint] {
    var points: [GPXPoint] = []
    while let point = try reader.nextPoint() { points.append(point) }
    return points
}

func readAllPoints(path: String, bufferSize: Int = GPXReader.defaultBufferSize) throws -> [GPXPoint] {
    var reader = try GPXReader(path: path, bufferSize: bufferSize)
    return try readAllPoints(&reader)
}

func readAllPoints(_ text: String, bufferSize: Int = GPXReader.defaultBufferSize) throws -> [GPXPoint] {
    var reader = GPXReader(bytes: Array(text.utf8), name: "test.gpx", bufferSize: bufferSize)
    return try readAllPoints(&reader)
}

/// A GPX 1.1 document around `body`; the body starts on line 3.
func gpx11(_ body: String) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
        + body + "\n</gpx>\n"
}

/// The error `body` throws, or nil.
func gpxError(_ bytes: [UInt8], bufferSize: Int = GPXReader.defaultBufferSize) -> GPXError? {
    var reader = GPXReader(bytes: bytes, name: "bad.gpx", bufferSize: bufferSize)
    do {
        while try reader.nextPoint() != nil {}
        return nil
    } catch let error as GPXError {
        return error
    } catch {
        return nil
    }
}

