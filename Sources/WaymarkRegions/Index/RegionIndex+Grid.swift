import WaymarkCore

extension RegionIndex {
    /// A uniform grid over the parts' extent, in front of the tree: each cell lists the parts
    /// whose boxes overlap it, so a point costs one cell lookup and a few box tests instead of a
    /// walk down the tree (whose box tests, on random points, are mostly mispredicted
    /// branches). A point in an empty cell — most points, where regions are sparse — is
    /// answered at once.
    ///
    /// About two cells per part, shaped like the extent. Where parts cluster so that a cell
    /// would list more than `crowded` of them (a city's regions in a world-wide set), the cell
    /// keeps no list and its points walk the tree as before: the grid never makes a query
    /// slower than the tree by more than the lookup.
    struct Grid {
        static let crowded = 24

        let minX: Double
        let minY: Double
        let scaleX: Double
        let scaleY: Double
        let columns: Int
        let rows: Int
        /// Per cell, `(start, count)` into `entries`; count `-1` for a crowded cell.
        let cells: UnsafeMutableBufferPointer<SIMD2<Int32>>
        /// Part indices (leaf order), ascending within each cell.
        let entries: UnsafeMutablePointer<Int32>
        let entryCount: Int

        /// A grid over `boxes` (the parts' boxes, leaf order) within `extent`.
        init(boxes: UnsafeMutableBufferPointer<BoundingBox>, extent: BoundingBox) {
            let width = max(0, extent.maxLongitude - extent.minLongitude)
            let height = max(0, extent.maxLatitude - extent.minLatitude)
            let target = min(max(2 * boxes.count, 1), 1 << 22)
            var columns = 1
            var rows = 1
            if width > 0 && height > 0 {
                columns = max(1, min(target, Int((Double(target) * width / height).squareRoot().rounded())))
                rows = max(1, min(target / columns, 1 << 22 / columns))
            } else if width > 0 {
                columns = target
            } else if height > 0 {
                rows = target
            }
            self.columns = columns
            self.rows = rows
            minX = extent.minLongitude
            minY = extent.minLatitude
            scaleX = width > 0 ? Double(columns) / width : 0
            scaleY = height > 0 ? Double(rows) / height : 0

            // Two passes: count each cell's parts, then fill; crowded cells drop their lists.
            var counts = [Int32](repeating: 0, count: columns * rows)
            Self.forEachCell(of: boxes, minX, minY, scaleX, scaleY, columns, rows) { cell, _ in counts[cell] += 1 }
            let cells = UnsafeMutableBufferPointer<SIMD2<Int32>>.allocate(capacity: counts.count)
            var total: Int32 = 0
            for (cell, count) in counts.enumerated() {
                if count > Self.crowded {
                    cells[cell] = SIMD2(total, -1)
                } else {
                    cells[cell] = SIMD2(total, 0)
                    total += count
                }
            }
            let entries = UnsafeMutablePointer<Int32>.allocate(capacity: max(Int(total), 1))
            Self.forEachCell(of: boxes, minX, minY, scaleX, scaleY, columns, rows) { cell, part in
                let slot = cells[cell]
                guard slot.y >= 0 else { return }
                entries[Int(slot.x + slot.y)] = Int32(part)
                cells[cell].y += 1
            }
            self.cells = cells
            self.entries = entries
            entryCount = Int(total)
        }

        /// Calls `body(cell, part)` for every cell each part's box overlaps, parts in order.
        private static func forEachCell(
            of boxes: UnsafeMutableBufferPointer<BoundingBox>, _ minX: Double, _ minY: Double, _ scaleX: Double,
            _ scaleY: Double, _ columns: Int, _ rows: Int, _ body: (Int, Int) -> Void
        ) {
            for (part, box) in boxes.enumerated() {
                let x0 = cell(box.minLongitude, minX, scaleX, columns)
                let x1 = cell(box.maxLongitude, minX, scaleX, columns)
                let y0 = cell(box.minLatitude, minY, scaleY, rows)
                let y1 = cell(box.maxLatitude, minY, scaleY, rows)
                for y in y0...y1 {
                    for x in x0...x1 { body(y * columns + x, part) }
                }
            }
        }

        /// The column (or row) of `v`, clamped to the grid. Monotonic in `v`, so a point inside
        /// a box falls in a cell between those of the box's corners.
        @inline(__always)
        private static func cell(_ v: Double, _ origin: Double, _ scale: Double, _ count: Int) -> Int {
            let offset = (v - origin) * scale
            guard offset > 0 else { return 0 }
            return offset >= Double(count) ? count - 1 : Int(offset)
        }

        /// The cell's `(start, count)` for a point already known to be inside the extent.
        @inline(__always)
        func slot(x: Double, y: Double) -> SIMD2<Int32> {
            let column = Self.cell(x, minX, scaleX, columns)
            let row = Self.cell(y, minY, scaleY, rows)
            return cells[row &* columns &+ column]
        }

        var byteCount: Int { cells.count * MemoryLayout<SIMD2<Int32>>.stride + entryCount * 4 }

        func deallocate() {
            cells.deallocate()
            entries.deallocate()
        }
    }
}
