/// The names users give subscriptions and handlers: 1–64 ASCII letters, digits, `.`, `_`, `-`,
/// safe in file names, URLs, metrics labels and logs.
public enum ShortName {
    public static func isValid(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.unicodeScalars.allSatisfy { scalar in
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                    || "._-".unicodeScalars.contains(scalar)
            }
    }
}
