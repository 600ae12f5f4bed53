/// How a GPX point's horizontal accuracy (`Fix.horizontalAccuracy`, metres) is found.
///
/// GPX 1.1 has no accuracy element. Recorders write it in `<extensions>` (TPX's and trails.io's
/// `hacc`, loggers' `accuracy`), some as a direct child of the point, and most write `<hdop>`, a
/// unitless dilution of precision. An element named `accuracy`, `hacc` or `horizontalAccuracy`
/// (any prefix, any depth in `<extensions>`) is taken as metres; else `hdop` × ``metresPerHDOP``;
/// else none.
public enum GPXAccuracy {
    /// The user equivalent range error (UERE) that turns HDOP into metres: the 1σ range error of
    /// one satellite. GPS's civil signal has a range error of a few metres (the 2008 GPS Standard
    /// Positioning Service performance standard bounds it at 7.8 m at 95 %, about 4 m at 1σ, for
    /// the signal in space alone; receiver noise, multipath and the atmosphere add to it), so 5 m is the figure commonly
    /// used for a consumer receiver: HDOP 1.2 reads as 6 m.
    public static let metresPerHDOP = 5.0

    /// The largest accuracy a point may state, in metres: more is not a position (100 km).
    public static let largest = 100_000.0

    /// The accuracy `hdop` stands for, or nil when it stands for none: a missing, zero (recorders
    /// write 0 for "unknown"), negative or non-finite HDOP, or one beyond ``largest``.
    /// - Parameter inMetres: the document's recorder writes its accuracy in metres into `hdop`
    ///   (OsmAnd does: its track recorder stores the platform's accuracy in the `hdop` field).
    public static func fromHDOP(_ hdop: Double?, inMetres: Bool) -> Double? {
        guard let hdop, hdop.isFinite, hdop > 0 else { return nil }
        let metres = inMetres ? hdop : hdop * metresPerHDOP
        return metres <= largest ? metres : nil
    }

    /// Whether the document's `creator` is a recorder that writes metres into `hdop`.
    static func writesMetresAsHDOP(creator: String) -> Bool {
        creator.hasPrefix("OsmAnd")
    }
}
