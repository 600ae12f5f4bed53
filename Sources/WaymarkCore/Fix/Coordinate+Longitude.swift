extension Coordinate {
    /// Degrees east from `longitude` to `other`, the short way round the antimeridian (−180…180):
    /// 179.9 to −179.9 is 0.2° east, not 359.8° west.
    public static func degreesEast(from longitude: Double, to other: Double) -> Double {
        let d = other - longitude
        return d > 180 ? d - 360 : d < -180 ? d + 360 : d
    }

    /// `longitude` brought back into −180…180 after arithmetic that may have left it (for
    /// longitudes within one turn of that range).
    public static func wrapped(longitude: Double) -> Double {
        longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude
    }

    /// `longitude` moved a turn east or west when it lies more than 180° from `reference`: the
    /// same place written within half a turn of it, so what is drawn or boxed around a
    /// reference past ±180° (a map over the antimeridian) stays continuous. Unchanged, to the
    /// bit, when already within 180°.
    public static func longitude(_ longitude: Double, near reference: Double) -> Double {
        let d = longitude - reference
        return d > 180 ? longitude - 360 : d < -180 ? longitude + 360 : longitude
    }
}
