extension OwnTracksCard {
    /// Decodes a `card` object; every member is optional.
    init(reading object: OwnTracksObjectReader) throws(OwnTracksError) {
        self.init(
            name: try object.string("name"), face: try object.string("face"), trackerID: try object.string("tid"))
    }
}
