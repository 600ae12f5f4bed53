import Testing
import WaymarkImport

@Suite struct ImportInputTests {
    @Test func linesAreSplitOnEitherTerminatorAndCounted() throws {
        let input = ImportInput(bytes: Array("a,b\r\nc\n\nlast".utf8), name: "t.csv")
        var lines: [String] = []
        while let line = try input.readLine() { lines.append(String(decoding: line, as: UTF8.self)) }
        #expect(lines == ["a,b", "c", "", "last"])
        #expect(input.lineNumber == 4)
        #expect(try input.isAtEnd())
    }

    @Test func aLineLongerThanTheBufferIsReadWhole() throws {
        let long = [UInt8](repeating: 0x41, count: ImportInput.chunkSize * 3 + 17)
        let input = ImportInput(bytes: long + [0x0A, 0x42], name: "long")
        #expect(try input.readLine()?.count == long.count)
        #expect(try input.readLine() == [0x42])
        #expect(try input.readLine() == nil)
    }

    @Test func exactReadsSayWhenTheInputEndsInsideABlock() throws {
        let input = ImportInput(bytes: [1, 2, 3, 4, 5], name: "f.fit")
        #expect(try input.read(exactly: 2) == [1, 2])
        #expect(input.offset == 2)
        #expect(throws: ImportError.self) { try input.read(exactly: 4) }
    }
}
