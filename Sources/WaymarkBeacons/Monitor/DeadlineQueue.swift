/// A binary min-heap of (deadline in nanoseconds, region): the beacon monitor's timers.
struct DeadlineQueue: Sendable {
    private var deadlines: [Int64] = []
    private var regions: [Int32] = []

    var isEmpty: Bool { deadlines.isEmpty }
    var count: Int { deadlines.count }
    var earliest: Int64? { deadlines.first }

    mutating func push(_ deadline: Int64, _ region: Int32) {
        deadlines.append(deadline)
        regions.append(region)
        var child = deadlines.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard deadlines[child] < deadlines[parent] else { break }
            swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (deadline: Int64, region: Int32) {
        let top = (deadlines[0], regions[0])
        let last = deadlines.count - 1
        swapAt(0, last)
        deadlines.removeLast()
        regions.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < deadlines.count && deadlines[left] < deadlines[smallest] { smallest = left }
            if right < deadlines.count && deadlines[right] < deadlines[smallest] { smallest = right }
            if smallest == parent { break }
            swapAt(parent, smallest)
            parent = smallest
        }
        return top
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        deadlines.swapAt(a, b)
        regions.swapAt(a, b)
    }
}
