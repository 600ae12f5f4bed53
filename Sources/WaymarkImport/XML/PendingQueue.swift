/// A first-in, first-out queue that drops its storage's contents (not its capacity) whenever it
/// empties: a KML track's times or positions waiting for their partners.
struct PendingQueue<Element> {
    private var items: [Element] = []
    private var head = 0

    mutating func push(_ item: Element) { items.append(item) }

    mutating func pop() -> Element? {
        guard head < items.count else { return nil }
        let item = items[head]
        head += 1
        if head == items.count { removeAll() }
        return item
    }

    mutating func removeAll() {
        items.removeAll(keepingCapacity: true)
        head = 0
    }
}

extension PendingQueue: Sendable where Element: Sendable {}
