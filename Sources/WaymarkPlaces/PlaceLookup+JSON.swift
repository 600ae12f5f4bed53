import WaymarkCore

extension PlaceLookup {
    /// One JSON object: `{"latitude","longitude","place":{"name","admin1","country_code",
    /// "country","latitude","longitude","distance_m"}|null,"time_zone","at_sea"}` for the point
    /// looked up (`waymark places lookup --json`).
    public func json(for coordinate: Coordinate) -> String {
        var json = JSONObjectWriter()
        json.add("latitude", coordinate.latitude)
        json.add("longitude", coordinate.longitude)
        if let place {
            var named = JSONObjectWriter()
            named.add("name", place.name)
            named.add("admin1", place.admin1)
            named.add("country_code", place.countryCode)
            named.add("country", place.country)
            named.add("latitude", place.coordinate.latitude)
            named.add("longitude", place.coordinate.longitude)
            named.add("distance_m", (place.distance * 10).rounded() / 10)
            json.addRaw("place", named.object)
        } else {
            json.addRaw("place", "null")
        }
        json.add("time_zone", timeZone)
        json.add("at_sea", atSea)
        return json.object
    }

    /// One line a person reads: "Berlin, Berlin, Germany (DE), 1.2 km — Europe/Berlin", or
    /// "at sea — Etc/GMT+2".
    public var text: String {
        guard let place else { return "at sea — \(timeZone)" }
        let distance = place.distance < 1000 ? "\(Int(place.distance.rounded())) m" : "\((place.distance / 100).rounded() / 10) km"
        let names = [place.name, place.admin1, "\(place.country) (\(place.countryCode))"].compactMap { $0 }.filter { !$0.isEmpty }
        return "\(names.joined(separator: ", ")), \(distance) — \(timeZone)"
    }
}
