/// A reader of one history file's items, in the file's order, one at a time: whatever the file's
/// size, a reader holds only the item it is decoding (and its input's buffer).
///
/// A reader that meets a syntax error or the end of the input inside an item throws; the items
/// it returned before stand (an import keeps them and says where it stopped).
public protocol HistoryReader {
    /// The next item; nil at the end of the input.
    mutating func next() throws(ImportError) -> ImportedItem?
}
