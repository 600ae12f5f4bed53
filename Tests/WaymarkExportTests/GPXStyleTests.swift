import Testing
import WaymarkCore
@testable import WaymarkExport

@Suite struct GPXStyleTests {
    @Test(arguments: [
        (0xd7301f, "Red"), (0x7f0000, "DarkRed"), (0x10a010, "DarkGreen"), (0x2c7fb8, "DarkCyan"),
        (0x1010f0, "Blue"), (0xbdbdbd, "LightGray"), (0x000000, "Black"), (0xfafafa, "White"),
    ])
    func garminGetsItsNearestNamedColour(rgb: UInt32, expected: String) {
        #expect(GPXStyle.garminColour(nearest: PictureColor(rgb)) == expected)
    }

    @Test func theTrackIsStyledAsThePictureDrawsTheRoute() {
        let extensions = GPXStyle.trackExtensions()
        #expect(extensions.contains("<gpx_style:color>D7301F</gpx_style:color>"))
        #expect(extensions.contains("<gpx_style:width>0.93</gpx_style:width>"))  // 3.5 px at 96 dpi
        #expect(extensions.contains("<osmand:color>#d7301f</osmand:color><osmand:width>7</osmand:width>"))
        #expect(extensions.contains("<gpxx:DisplayColor>Red</gpxx:DisplayColor>"))
        #expect(GPXStyle.documentExtensions.contains("<osmand:color>#d7301f</osmand:color>"))
    }

    @Test func everyEventKindHasASymbolAndTheMarkersColour() {
        let symbols = TrackEvent.Kind.allCases.map(GPXStyle.symbol(for:))
        #expect(symbols == ["Flag, Green", "Flag, Red", "Flag, Blue", "Pin, Blue", "Waypoint", "Waypoint"])
        #expect(PicturePalette.marker(.enter) == PicturePalette.enter)
        #expect(PicturePalette.marker(.departure) == PicturePalette.visit)
    }

    @Test func aWaypointCarriesItsSymbolBetweenDescriptionAndType() {
        let event = TrackEvent(
            kind: .exit, time: nil, coordinate: .init(latitude: 1, longitude: 2), region: "hut", name: "Exit hut",
            description: "Left hut.")
        let text = GPXWriter<TextBuffer>.waypoint(event)
        #expect(text.contains("<desc>Left hut.</desc><sym>Flag, Red</sym><type>exit</type><extensions><osmand:color>#b2182b</osmand:color></extensions></wpt>"))
    }
}
