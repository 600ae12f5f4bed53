/// The picture's colours and marker sizes, chosen to read at a glance: a red route with a white
/// casing over pale, distinct region fills; markers that differ in shape as well as colour
/// (enter ▲ green, exit ▼ dark red, visit ◆ blue, significant change • grey, start ● green,
/// end ■ black), so they survive colour blindness and greyscale printing.
enum PicturePalette {
    static let paper = PictureColor(0xfbfaf6)
    static let mapBackground = PictureColor(0xf1f0e8)
    static let frame = PictureColor(0x9a988c)
    static let ink = PictureColor(0x222222)
    static let secondaryInk = PictureColor(0x555555)
    static let white = PictureColor(0xffffff)
    static let halo = PictureColor(0xffffff, alpha: 0.85)
    static let route = PictureColor(0xd7301f)
    /// The route line's width in pixels, over a white casing (pictures, tiles, legend, GPX style).
    static let routeWidth = 3.5
    static let enter = PictureColor(0x1a9850)
    static let exit = PictureColor(0xb2182b)
    static let visit = PictureColor(0x2c7fb8)
    static let significant = PictureColor(0x4d4d4d)
    static let start = PictureColor(0x1a9850)
    static let end = PictureColor(0x111111)
    static let profileFill = PictureColor(0xc9b48f, alpha: 0.75)
    static let profileLine = PictureColor(0x7a5c2e)
    static let grid = PictureColor(0xd9d6ca)

    /// Region colours, in turn (Tableau 10 without its red and orange, kept for the route).
    static let regions: [PictureColor] = [
        0x4e79a7, 0x59a14f, 0xb07aa1, 0x76b7b2, 0x9c755f, 0xedc948, 0xbab0ac, 0xff9da7,
    ].map { PictureColor($0) }

    static func region(_ index: Int) -> PictureColor { regions[index % regions.count] }

    /// An event marker's colour.
    static func marker(_ kind: TrackEvent.Kind) -> PictureColor {
        switch kind {
        case .enter: enter
        case .exit: exit
        case .arrival, .departure: visit
        case .significantChange, .other: significant
        }
    }
}
