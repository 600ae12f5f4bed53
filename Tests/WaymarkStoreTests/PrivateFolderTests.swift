import Foundation
import Testing
import WaymarkStore
import WaymarkTestSupport

@Suite struct PrivateFolderTests {
    private func mode(_ path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    @Test func missingFoldersAndTheirParentsAreMadePrivate() throws {
        let directory = try TemporaryDirectory()
        let nested = directory.path("a/b/c")
        try PrivateFolder.create(nested)
        #expect(mode(directory.path("a")) == 0o700)
        #expect(mode(nested) == 0o700)
        try PrivateFolder.create(nested)  // again: nothing to do
    }

    @Test func existingFoldersKeepTheirMode() throws {
        let directory = try TemporaryDirectory()
        let shared = directory.path("shared")
        try FileManager.default.createDirectory(atPath: shared, withIntermediateDirectories: false)
        chmod(shared, 0o755)
        try PrivateFolder.create(shared + "/waymark")
        #expect(mode(shared) == 0o755)
    }

    @Test func aFileInTheWayIsNamed() throws {
        let directory = try TemporaryDirectory()
        let file = try directory.write("data", "not a folder")
        let error = #expect(throws: PrivateFolderError.self) { try PrivateFolder.create(file + "/waymark") }
        #expect(error?.description == "cannot use the folder \(file): it exists and is not a directory")
    }

    /// The shared runtime folder (`/tmp/waymark-UID`) may have been made by someone else first.
    @Test func aSharedRuntimeFolderMustBeOwnAndClosed() throws {
        let directory = try TemporaryDirectory()
        let open = directory.path("open")
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        chmod(open, 0o777)
        let error = #expect(throws: PrivateFolderError.self) { try PrivateFolder.create(open, mustBeOwnPrivate: true) }
        #expect(error?.reason.contains("777") == true)

        let target = directory.path("target")
        try PrivateFolder.create(target)
        let link = directory.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: PrivateFolderError.self) { try PrivateFolder.create(link, mustBeOwnPrivate: true) }

        try PrivateFolder.create(directory.path("mine"), mustBeOwnPrivate: true)
    }
}
