import Foundation
import Testing
import WaymarkTestSupport

@testable import WaymarkStore

@Suite struct OpenErrorTests {
    @Test func missingFolderIsACannotOpenErrorNamingThePath() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("no/such/folder/regions.sqlite")
        let error = #expect(throws: StoreError.self) { try WaymarkStore(path: path, logger: quietLogger) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.path == path)
        #expect(error?.message.contains(path) == true)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func fileThatIsNotSQLiteIsACannotOpenErrorAndIsLeftAlone() throws {
        let folder = try TemporaryDirectory()
        let contents = String(repeating: "not a database, just some text\n", count: 64)
        let path = try folder.write("notes.sqlite", contents)
        let error = #expect(throws: StoreError.self) { try WaymarkStore(path: path, logger: quietLogger) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains(path) == true)
        #expect(error?.message.contains("not a database") == true)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == contents)
    }

    @Test func folderInPlaceOfTheFileIsACannotOpenError() throws {
        let folder = try TemporaryDirectory()
        let error = #expect(throws: StoreError.self) { try WaymarkStore(path: folder.url.path, logger: quietLogger) }
        #expect(error?.code == .cannotOpen)
        #expect(error?.message.contains(folder.url.path) == true)
    }

    @Test func missingSpatiaLiteTellsTheUserWhatToInstall() throws {
        let folder = try TemporaryDirectory()
        let path = folder.path("regions.sqlite")
        let error = #expect(throws: StoreError.self) {
            try WaymarkStore(path: path, logger: quietLogger, spatialiteModule: "mod_spatialite_that_is_not_installed")
        }
        #expect(error?.code == .spatialiteUnavailable)
        #expect(error?.message.contains("apt-get install libsqlite3-mod-spatialite") == true)
        #expect(error?.message.contains(path) == true)
    }
}
