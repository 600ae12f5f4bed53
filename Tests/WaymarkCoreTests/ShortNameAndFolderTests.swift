import Testing
import WaymarkCore

@Test("folder(of:) of bare names, nested paths and the root")
func folders() {
    #expect(folder(of: "w.sqlite") == ".")
    #expect(folder(of: "data/w.sqlite") == "data")
    #expect(folder(of: "/var/lib/waymark/w.sqlite") == "/var/lib/waymark")
    #expect(folder(of: "/w.sqlite") == "/")
}

@Test("short names: letters, digits, '.', '_', '-', 1 to 64")
func shortNames() {
    #expect(ShortName.isValid("hut-log_2.v1"))
    #expect(!ShortName.isValid(""))
    #expect(!ShortName.isValid("my handler"))
    #expect(!ShortName.isValid("hütte"))
    #expect(ShortName.isValid(String(repeating: "a", count: 64)))
    #expect(!ShortName.isValid(String(repeating: "a", count: 65)))
}
