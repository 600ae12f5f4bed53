import WaymarkExport
import WaymarkServices

extension TravelMode {
    /// The colour a trip in this mode is drawn in: the export's overlays (`waymark export
    /// --timeline`) and the web page's day view use the same values (docs/timeline.md). The
    /// Okabe–Ito palette, chosen to stay distinct for the common kinds of colour blindness.
    public var colour: PictureColor {
        switch self {
        case .walking: PictureColor(0x009e73)
        case .running: PictureColor(0xe69f00)
        case .cycling: PictureColor(0x0072b2)
        case .driving: PictureColor(0xd55e00)
        case .train: PictureColor(0xcc79a7)
        case .flight: PictureColor(0x56b4e9)
        case .unknown: PictureColor(0x999999)
        }
    }
}
