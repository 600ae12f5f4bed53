#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import WaymarkCore

extension RegionIndex {
    /// The index's flat buffers, allocated once at build time and read-only afterwards
    /// (hence `@unchecked Sendable`).
    final class Storage: @unchecked Sendable {
        let vertices: UnsafeMutableBufferPointer<Vertex>
        let rings: UnsafeMutableBufferPointer<RingRecord>
        /// Per banded ring, `bandCount + 1` offsets into `bandEdges`.
        let bandStarts: UnsafeMutableBufferPointer<Int32>
        /// Vertex index of each listed edge's first endpoint.
        let bandEdges: UnsafeMutableBufferPointer<Int32>
        let circles: UnsafeMutableBufferPointer<CircleRecord>
        /// Parts in tree-leaf order.
        let parts: UnsafeMutableBufferPointer<PartRecord>
        /// Every tree level's boxes, leaves (one per part) first.
        let nodeBoxes: UnsafeMutableBufferPointer<BoundingBox>
        let levelStart: UnsafeMutableBufferPointer<Int>
        let levelCount: UnsafeMutableBufferPointer<Int>
        /// Per region, `regionParts[regionPartStart[r]..<regionPartStart[r+1]]` are its parts.
        let regionPartStart: UnsafeMutableBufferPointer<Int32>
        let regionParts: UnsafeMutableBufferPointer<Int32>
        let identifierRank: UnsafeMutableBufferPointer<Int32>
        let identifiers: [String]
        /// Cells over the leaves, consulted before the tree.
        let grid: Grid

        init(regions: [Region], bandingThreshold: Int) {
            var b = Builder(bandingThreshold: bandingThreshold)
            b.reserve(for: regions)
            for (r, region) in regions.enumerated() { b.add(region, index: Int32(r)) }
            let order = strOrder(b.partBoxes, capacity: RegionIndex.nodeCapacity)

            var parts = ContiguousArray<PartRecord>()
            var boxes = ContiguousArray<BoundingBox>()
            parts.reserveCapacity(order.count)
            for i in order {
                parts.append(b.parts[i])
                boxes.append(b.partBoxes[i])
            }
            // Upper levels: consecutive groups of the level below, until one root remains.
            var levelStart = [0]
            var levelCount = [parts.count]
            repeat {
                let below = levelStart.last!
                let n = levelCount.last!
                levelStart.append(boxes.count)
                var node = 0
                while node * RegionIndex.nodeCapacity < max(n, 1) {
                    var box = BoundingBox.empty
                    let lo = node * RegionIndex.nodeCapacity
                    for i in lo..<min(lo + RegionIndex.nodeCapacity, n) { box.formUnion(boxes[below + i]) }
                    boxes.append(box)
                    node += 1
                }
                levelCount.append(node)
            } while levelCount.last! > 1

            // Region → parts, in leaf order.
            var start = [Int32](repeating: 0, count: regions.count + 1)
            for p in parts { start[Int(p.region) + 1] += 1 }
            for r in 0..<regions.count { start[r + 1] += start[r] }
            var fill = start
            var list = [Int32](repeating: 0, count: parts.count)
            for (i, p) in parts.enumerated() {
                list[Int(fill[Int(p.region)])] = Int32(i)
                fill[Int(p.region)] += 1
            }

            identifiers = regions.map(\.identifier)
            var rank = [Int32](repeating: 0, count: regions.count)
            let sorted = regions.indices.sorted {
                (regions[$0].identifier, $0) < (regions[$1].identifier, $1)
            }
            for (k, r) in sorted.enumerated() { rank[r] = Int32(k) }

            // Each builder array is released as soon as it is copied, so at most one is held
            // twice (the vertices of 10,000 regions are a few megabytes).
            vertices = freeze(b.vertices)
            b.vertices = []
            rings = freeze(b.rings)
            b.rings = []
            bandStarts = freeze(b.bandStarts)
            b.bandStarts = []
            bandEdges = freeze(b.bandEdges)
            b.bandEdges = []
            circles = freeze(b.circles)
            b.circles = []
            self.parts = freeze(parts)
            nodeBoxes = freeze(boxes)
            self.levelStart = freeze(levelStart)
            self.levelCount = freeze(levelCount)
            regionPartStart = freeze(start)
            regionParts = freeze(list)
            identifierRank = freeze(rank)
            grid = Grid(
                boxes: UnsafeMutableBufferPointer(rebasing: nodeBoxes[0..<self.parts.count]),
                extent: nodeBoxes[self.levelStart[self.levelCount.count - 1]])
        }

        deinit {
            vertices.deallocate()
            rings.deallocate()
            bandStarts.deallocate()
            bandEdges.deallocate()
            circles.deallocate()
            parts.deallocate()
            nodeBoxes.deallocate()
            levelStart.deallocate()
            levelCount.deallocate()
            regionPartStart.deallocate()
            regionParts.deallocate()
            identifierRank.deallocate()
            grid.deallocate()
        }

        var byteCount: Int {
            vertices.count * MemoryLayout<Vertex>.stride + rings.count * MemoryLayout<RingRecord>.stride
                + (bandStarts.count + bandEdges.count + regionPartStart.count + regionParts.count
                    + identifierRank.count) * 4
                + circles.count * MemoryLayout<CircleRecord>.stride
                + parts.count * MemoryLayout<PartRecord>.stride
                + nodeBoxes.count * MemoryLayout<BoundingBox>.stride + grid.byteCount
        }

        // MARK: Queries

        func query(x: Double, y: Double, into result: inout [Int32]) {
            let top = levelCount.count - 1
            guard parts.count > 0, nodeBoxes[levelStart[top]].contains(latitude: y, longitude: x) else { return }
            var probe = PointProbe(x: x, y: y)
            let slot = grid.slot(x: x, y: y)
            guard slot.y >= 0 else {
                visit(level: top, node: 0, &probe, &result)
                return
            }
            var k = Int(slot.x)
            let end = k &+ Int(slot.y)
            while k < end {
                let i = Int(grid.entries[k])
                if nodeBoxes[i].contains(latitude: y, longitude: x), partContains(i, &probe) {
                    insertSorted(parts[i].region, into: &result)
                }
                k &+= 1
            }
        }

        private func visit(level: Int, node: Int, _ probe: inout PointProbe, _ result: inout [Int32]) {
            let child = level &- 1
            let lo = node &* RegionIndex.nodeCapacity
            let hi = min(lo &+ RegionIndex.nodeCapacity, levelCount[child])
            let base = levelStart[child]
            let x = probe.x
            let y = probe.y
            var i = lo
            if child == 0 {
                while i < hi {
                    if nodeBoxes[i].contains(latitude: y, longitude: x), partContains(i, &probe) {
                        insertSorted(parts[i].region, into: &result)
                    }
                    i &+= 1
                }
            } else {
                while i < hi {
                    if nodeBoxes[base &+ i].contains(latitude: y, longitude: x) {
                        visit(level: child, node: i, &probe, &result)
                    }
                    i &+= 1
                }
            }
        }

        /// Exact test of one part; the caller has checked the part's box.
        @inline(__always)
        func partContains(_ i: Int, _ probe: inout PointProbe) -> Bool {
            let part = parts[i]
            if part.isCircle { return circleContains(Int(part.first), &probe) }
            if part.coreContains(x: probe.x, y: probe.y) { return true }
            let first = Int(part.first)
            switch locate(ring: first, probe.x, probe.y) {
            case .outside: return false
            case .boundary: return true
            case .inside:
                var h = first &+ 1
                let end = first &+ Int(part.ringCount)
                while h < end {
                    if locate(ring: h, probe.x, probe.y) == .inside { return false }
                    h &+= 1
                }
                return true
            }
        }

        @inline(__always)
        func locate(ring r: Int, _ px: Double, _ py: Double) -> RingLocation {
            let ring = rings[r]
            guard ring.box.contains(latitude: py, longitude: px) else { return .outside }
            if ring.bandCount == 0 {
                return locateBruteForce(vertices, start: Int(ring.start), edgeCount: Int(ring.edgeCount), px, py)
            }
            let k = Int(ring.bandOffset) &+ bandIndex(py, minY: ring.box.minLatitude, scale: ring.bandScale, count: ring.bandCount)
            var j = Int(bandStarts[k])
            let end = Int(bandStarts[k &+ 1])
            var inside = false
            while j < end {
                let e = Int(bandEdges[j])
                if crossEdge(vertices[e], vertices[e &+ 1], px, py, &inside) { return .boundary }
                j &+= 1
            }
            return inside ? .inside : .outside
        }

        @inline(__always)
        func circleContains(_ i: Int, _ probe: inout PointProbe) -> Bool {
            probe.prepareVector()
            let c = circles[i]
            let dx = c.ux - probe.ux
            let dy = c.uy - probe.uy
            let dz = c.uz - probe.uz
            let chord2 = dx * dx + dy * dy + dz * dz
            if chord2 <= c.insideChord2 { return true }
            if chord2 > c.outsideChord2 { return false }
            return Geodesic.distance(c.center, Coordinate(latitude: probe.y, longitude: probe.x)) <= c.radius
        }
    }
}

/// Inserts `value` into the ascending `array` unless it is already there.
@inline(__always)
func insertSorted(_ value: Int32, into array: inout [Int32]) {
    var i = array.count
    while i > 0 && array[i &- 1] > value { i &-= 1 }
    if i > 0 && array[i &- 1] == value { return }
    if i == array.count { array.append(value) } else { array.insert(value, at: i) }
}

private func freeze<C: Collection>(_ elements: C) -> UnsafeMutableBufferPointer<C.Element> {
    let buffer = UnsafeMutableBufferPointer<C.Element>.allocate(capacity: max(elements.count, 1))
    _ = buffer.initialize(from: elements)
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<elements.count])
}

/// Sort-Tile-Recursive order, applied top-down so that every level of the packed tree is
/// tiled (not only the leaves): the entries under each node are cut into √(children) slices
/// by box-centre longitude, each slice sorted by latitude and cut into the children, which
/// are tiled the same way. Children hold `capacity^k` entries, so consecutive packing of
/// every level reproduces exactly these tiles.
func strOrder(_ boxes: ContiguousArray<BoundingBox>, capacity: Int) -> [Int] {
    var order = Array(0..<boxes.count)
    tile(&order, 0..<order.count, boxes, capacity)
    return order
}

private func tile(_ order: inout [Int], _ range: Range<Int>, _ boxes: ContiguousArray<BoundingBox>, _ capacity: Int) {
    let n = range.count
    guard n > capacity else { return }
    var childSize = capacity
    while childSize * capacity < n { childSize *= capacity }
    let children = (n + childSize - 1) / childSize
    let slices = Int(Double(children).squareRoot().rounded(.up))
    let sliceSize = slices * childSize
    order[range].sort { (boxes[$0].centerLongitude, $0) < (boxes[$1].centerLongitude, $1) }
    var s = range.lowerBound
    while s < range.upperBound {
        let e = min(s + sliceSize, range.upperBound)
        order[s..<e].sort { (boxes[$0].centerLatitude, $0) < (boxes[$1].centerLatitude, $1) }
        var c = s
        while c < e {
            let ce = min(c + childSize, e)
            tile(&order, c..<ce, boxes, capacity)
            c = ce
        }
        s = e
    }
}
