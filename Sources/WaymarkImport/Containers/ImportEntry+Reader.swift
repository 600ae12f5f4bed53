/// An entry opened for reading: its reader, and what must live as long as the reader does.
public struct OpenedEntry {
    public var reader: any HistoryReader
    /// The streaming input of readers that read one (its offset is the entry's progress).
    public let input: ImportInput?
    /// The file path-based readers read (a compressed entry's inflated copy), kept open.
    public let local: LocalFile?

    /// Bytes of the entry read so far, when the reader's input tells.
    public var offset: Int? { input?.offset }
}

extension ImportEntry {
    /// The reader for the entry's format. `columns` is `--columns` for CSV.
    public func openReader(columns: CSVColumns? = nil) throws(ImportError) -> OpenedEntry {
        switch format {
        case .json:
            let input = try open()
            return OpenedEntry(reader: JSONHistoryReader(input: input), input: input, local: nil)
        case .csv:
            let input = try open()
            return OpenedEntry(reader: CSVHistoryReader(input: input, columns: columns), input: input, local: nil)
        case .fit:
            let input = try open()
            return OpenedEntry(reader: FITHistoryReader(input: input), input: input, local: nil)
        case .owntracksRecorder:
            let input = try open()
            return OpenedEntry(reader: OwnTracksRecordReader(input: input), input: input, local: nil)
        case .gpx:
            let local = try localFile()
            return OpenedEntry(reader: try GPXHistoryReader(path: local.path, name: name), input: nil, local: local)
        case .kml:
            let local = try localFile()
            return OpenedEntry(reader: try KMLHistoryReader(path: local.path, name: name), input: nil, local: local)
        case .tcx:
            let local = try localFile()
            return OpenedEntry(reader: try TCXHistoryReader(path: local.path, name: name), input: nil, local: local)
        case .nmea:
            let local = try localFile()
            return OpenedEntry(reader: try NMEAHistoryReader(path: local.path, name: name), input: nil, local: local)
        case .gpsdLog:
            let local = try localFile()
            return OpenedEntry(reader: try GpsdLogHistoryReader(path: local.path, name: name), input: nil, local: local)
        }
    }
}
