import WaymarkCore

/// `GET /v1/power` read back as the type it was written from (`EnergyReport.json`): the CLI
/// decodes the daemon's answer, typed, instead of picking through untyped dictionaries.
extension EnergyReport: Decodable {
    enum CodingKeys: String, CodingKey {
        case from, by, rows
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let start = try container.decodeIfPresent(String.self, forKey: .from).map { text in
            guard let time = Timestamp(rfc3339: text) else {
                throw DecodingError.dataCorruptedError(forKey: .from, in: container, debugDescription: "'\(text)' is not an RFC 3339 time")
            }
            return time
        }
        self.init(buckets: [], since: nil, by: try container.decode(Grouping.self, forKey: .by))
        from = start
        rows = try container.decode([Row].self, forKey: .rows)
    }
}
