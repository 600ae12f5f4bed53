import Testing

/// One bound of a decoder's number (issue 48), for the OwnTracks and OsmAnd bound tests: a
/// value just inside, one outside, and the start of the message refusing it.
struct NumberBound: Sendable, CustomTestStringConvertible {
    /// The member (OwnTracks) or parameter (OsmAnd).
    var name: String
    var inside: String
    var outside: String
    var message: String
    var testDescription: String { "\(name): \(inside) ok, \(outside) refused" }

    init(_ name: String, inside: String, outside: String, _ message: String) {
        self.name = name
        self.inside = inside
        self.outside = outside
        self.message = message
    }
}
