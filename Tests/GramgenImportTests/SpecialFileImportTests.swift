import Foundation
import Testing
@testable import GramgenImport

/// An export is someone else's files: a FIFO in it must not block the import, and a link in it
/// must not bring a file from elsewhere on the machine into the site.
struct SpecialFileImportTests {
    @Test("a FIFO and a link out of the export are reported and never read")
    func fifoAndLinkInExport() throws {
        let work = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let export = work.appendingPathComponent("export"), secret = work.appendingPathComponent("id_rsa")
        try FileManager.default.copyItem(at: ImportTestSupport.newLayout, to: export)
        try Data("secret\n".utf8).write(to: secret)
        let photos = export.appendingPathComponent("media/posts/202403")
        try FileManager.default.removeItem(at: photos.appendingPathComponent("429000222_18002_n.jpg"))
        try #require(mkfifo(photos.appendingPathComponent("429000222_18002_n.jpg").path, 0o644) == 0)
        try FileManager.default.removeItem(at: photos.appendingPathComponent("433000333_18003_n.jpg"))
        try FileManager.default.createSymbolicLink(at: photos.appendingPathComponent("433000333_18003_n.jpg"), withDestinationURL: secret)
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }

        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<ImportReport, Error>?
        Thread.detachNewThread {
            result = Result { try ImportTestSupport.runImport(export, into: site) }
            done.signal()
        }
        if done.wait(timeout: .now() + 60) == .timedOut {
            Issue.record("the import blocked on the FIFO")
            let fd = open(photos.appendingPathComponent("429000222_18002_n.jpg").path, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            done.wait()
        }
        let report = try #require(try result?.get())
        let reasons = Dictionary(report.skippedFiles.map { ($0.uri, $0.reason) }, uniquingKeysWith: { a, _ in a })
        #expect(reasons["media/posts/202403/429000222_18002_n.jpg"] == .notReadable("the file is a named pipe (FIFO), not a regular file"))
        #expect(reasons["media/posts/202403/433000333_18003_n.jpg"] == .missingFromExport)
        for file in ImportTestSupport.files(in: site) {
            let data = try Data(contentsOf: site.appendingPathComponent(file))
            #expect(data != Data("secret\n".utf8), "\(file) holds the file the link pointed at")
        }
    }

    @Test("a FIFO given as the export is refused without being opened")
    func fifoAsExport() throws {
        let work = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let fifo = work.appendingPathComponent("export.zip")
        try #require(mkfifo(fifo.path, 0o644) == 0)
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        #expect(throws: ImportError.notAFile(path: "export.zip", detail: "the file is a named pipe (FIFO), not a regular file")) {
            try ImportTestSupport.runImport(fifo, into: site)
        }
    }

    @Test("an import never writes through a content/users linked out of the site")
    func linkedContent() throws {
        let site = try ImportTestSupport.makeSite()
        defer { try? FileManager.default.removeItem(at: site) }
        let outside = try ImportTestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: outside) }
        let users = site.appendingPathComponent("content/users")
        try FileManager.default.moveItem(at: users, to: outside.appendingPathComponent("users"))
        try FileManager.default.createSymbolicLink(at: users, withDestinationURL: outside.appendingPathComponent("users"))
        #expect(throws: ImportError.linkOutside(path: "content/users")) {
            try ImportTestSupport.runImport(ImportTestSupport.newLayout, into: site)
        }
        #expect(!FileManager.default.fileExists(atPath: outside.appendingPathComponent("users/mina.kim").path))
    }
}
