import ArgumentParser
import WaymarkSources

/// `--track-format gpx|nmea|gpsd` for `replay` and `serve --replay`.
extension TrackFormat: ExpressibleByArgument {}
