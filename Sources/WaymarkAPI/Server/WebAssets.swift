/// The web page's files (`Sources/WaymarkAPI/Web`), by name: what `GET /` and `GET /web/NAME`
/// serve. SwiftPM compiles them into the binary (`resources: .embedInCode` in Package.swift,
/// which generates `PackageResources`), so a copied `waymark` serves the page with nothing
/// beside it and the files are read nowhere at run time.
enum WebAssets {
    static let files: [String: (contentType: String, bytes: [UInt8])] = [
        "index.html": (html, PackageResources.index_html),
        "app.css": ("text/css; charset=utf-8", PackageResources.app_css),
        "icon.svg": ("image/svg+xml", PackageResources.icon_svg),
        "api.js": (javaScript, PackageResources.api_js),
        "app.js": (javaScript, PackageResources.app_js),
        "charts.js": (javaScript, PackageResources.charts_js),
        "day.js": (javaScript, PackageResources.day_js),
        "explain.js": (javaScript, PackageResources.explain_js),
        "format.js": (javaScript, PackageResources.format_js),
        "handlers.js": (javaScript, PackageResources.handlers_js),
        "history.js": (javaScript, PackageResources.history_js),
        "live.js": (javaScript, PackageResources.live_js),
        "map.js": (javaScript, PackageResources.map_js),
        "regions.js": (javaScript, PackageResources.regions_js),
        "calendar.js": (javaScript, PackageResources.calendar_js),
        "devices.js": (javaScript, PackageResources.devices_js),
        "geodesic.js": (javaScript, PackageResources.geodesic_js),
        "heat.js": (javaScript, PackageResources.heat_js),
        "legend.js": (javaScript, PackageResources.legend_js),
        "trail.js": (javaScript, PackageResources.trail_js),
        "locate.js": (javaScript, PackageResources.locate_js),
    ]

    private static let html = "text/html; charset=utf-8"
    private static let javaScript = "text/javascript; charset=utf-8"
}
