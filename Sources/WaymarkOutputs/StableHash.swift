/// FNV-1a over a string's UTF-8: the same in every process and run (Swift's own hash is seeded
/// per process), for output lanes and Home Assistant object ids.
public enum StableHash {
    public static func fnv1a(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in text.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }
}
