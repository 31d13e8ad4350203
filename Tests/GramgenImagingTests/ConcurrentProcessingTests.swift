import CVipsShim
import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// A build processes several images at once, and libvips builds and frees resizes constantly on
/// every thread. With Orc's vector code on and no lock, Orc 0.4.33's unlocked code allocator
/// corrupted the heap ("double free or corruption", crashes in vips_resize); the shim now builds
/// and frees such pipelines under one lock. These run real libvips on real JPEGs from many
/// threads at once, with vector code both off (small images) and on (large ones).
struct ConcurrentProcessingTests {
    /// Runs `body(thread)` on `threads` threads at once (more than the cores, so they interleave).
    static func onThreads(_ threads: Int, _ body: @escaping @Sendable (Int) -> Void) {
        let group = DispatchGroup()
        for index in 0..<threads {
            group.enter()
            let thread = Thread {
                body(index)
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
    }

    /// Gradient JPEGs like a phone's old uploads, most below every configured width; a quarter are
    /// large enough for libvips' vector code.
    static let sizes = [(80, 96), (96, 72), (88, 88), (17, 13), (1, 1), (3, 40), (420, 300), (300, 420)]

    static func smallPhotos(_ count: Int) throws -> [URL] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("small-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try (0..<count).map { index in
            let (width, height) = Self.sizes[index % Self.sizes.count]
            let from = SyntheticImage.RGB(UInt8(index * 37 % 256), UInt8(index * 11 % 256), 200)
            let to = SyntheticImage.RGB(20, UInt8(index * 53 % 256), UInt8(index * 7 % 256))
            let url = folder.appendingPathComponent("\(index).jpg")
            try SyntheticImage.gradientJPEG(width: width, height: height, from: from, to: to).write(to: url)
            return url
        }
    }

    /// Failures seen on the worker threads (swift-testing's expectations belong to the test's task).
    final class Failures: @unchecked Sendable {
        private let lock = NSLock()
        private var messages: [String] = []

        func add(_ message: String) { lock.withLock { messages.append(message) } }
        var all: [String] { lock.withLock { messages } }
    }

    var settings: ImageSettings {
        var s = ImageSettings()
        s.widths = [320, 640, 1080]
        s.formats = [.webp, .jpeg]
        s.thumbnail = 320
        return s
    }

    @Test("vector code is used for large images and not for small ones")
    func vectorChoice() throws {
        try VipsImage.start()
        #expect(gg_vector_used_for(3000, 4000) == 1)
        #expect(gg_vector_used_for(320, 427) == 1)
        #expect(gg_vector_used_for(96, 80) == 0)
        #expect(gg_vector_used_for(256, 256) == 0)
    }

    @Test("resizes built and freed on many threads at once, with and without vector code",
          arguments: [(80, 96, 1_000), (600, 500, 300)])
    func concurrentResizes(width: Int, height: Int, rounds: Int) throws {
        let bytes = (0..<(width * height * 3)).map { UInt8($0 * 7 % 256) }
        let source = try VipsImage.fromRGB(bytes, width: width, height: height)
        let scale = 16.0 / Double(height)
        let expected = Int((Double(width) * scale).rounded())
        let failures = Failures()
        Self.onThreads(16) { _ in
            do {
                for _ in 0..<rounds {
                    let small = try source.resized(scale: scale)
                    if small.width != expected { failures.add("resized to \(small.width) wide") }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
    }

    @Test("photos processed on many threads at once give the same files as one at a time")
    func concurrentSmallPhotos() throws {
        let photos = try Self.smallPhotos(48)
        defer { try? FileManager.default.removeItem(at: photos[0].deletingLastPathComponent()) }
        let processor = ImageProcessor(settings: settings)
        let posts = try photos.map { try processor.process($0, role: .post).0 }
        let avatars = try photos.map { try processor.process($0, role: .avatar).0 }
        let failures = Failures()
        Self.onThreads(8) { thread in
            for round in 0..<2 {
                for (index, photo) in photos.enumerated() where (index + thread + round) % 2 == 0 {
                    do {
                        let (post, files) = try processor.process(photo, role: .post)
                        if post != posts[index] { failures.add("\(photo.lastPathComponent) came out differently") }
                        if Set(post.files) != Set(files.keys) { failures.add("\(photo.lastPathComponent): files missing") }
                        let (avatar, _) = try processor.process(photo, role: .avatar)
                        if avatar != avatars[index] { failures.add("\(photo.lastPathComponent) avatar came out differently") }
                    } catch {
                        failures.add("\(photo.lastPathComponent): \(error)")
                    }
                }
            }
        }
        #expect(failures.all.isEmpty)
        let sizes = posts.prefix(8).map { "\($0.width)x\($0.height)" }
        #expect(sizes == ["80x96", "96x72", "88x88", "17x13", "1x1", "3x40", "320x229", "300x420"])
        for (index, post) in posts.enumerated() {
            let (width, height) = Self.sizes[index % Self.sizes.count]
            #expect(post.variants.count == 2 && post.squares.count == 2)
            #expect(post.squares.allSatisfy { $0.width == min(320, width, height) && $0.width == $0.height })
        }
    }

    /// libvips keeps one error buffer for the whole process, so a failure's message could be taken
    /// by another thread's failure. Many threads fail at once here, on files that are not images
    /// and on truncated JPEGs, between good photos; every failure must carry its own file's
    /// diagnostic, word for word. Seeded; the seed is printed.
    @Test("failures on many threads at once each get their own file's diagnostic")
    func concurrentFailures() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("failing-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = try SyntheticImage.gradientJPEG(width: 600, height: 500, from: .init(250, 20, 20), to: .init(20, 20, 250))
        var expected: [(URL, String?)] = []
        for index in 0..<24 {
            let url = folder.appendingPathComponent("\(index).jpg")
            switch index % 3 {
            case 0:
                try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(to: url)
                expected.append((url, "the file is not an image gramgen can read"))
            case 1:
                try whole.prefix(whole.count / 2).write(to: url)
                expected.append((url, "cannot decode the image: VipsJpeg: Premature end of input file"))
            default:
                try whole.write(to: url)
                expected.append((url, nil))
            }
        }
        var random = SeededRandom.forTest("ConcurrentProcessingTests.concurrentFailures")
        let orders = (0..<8).map { _ in expected.shuffled(using: &random) }
        let processor = ImageProcessor(settings: settings)
        let failures = Failures()
        Self.onThreads(8) { thread in
            for (url, message) in orders[thread] {
                do {
                    _ = try processor.process(url, role: .post)
                    if let message { failures.add("\(url.lastPathComponent): made, expected \"\(message)\"") }
                } catch let problem as ImageProblem {
                    if problem.message != message { failures.add("\(url.lastPathComponent): \"\(problem.message)\"") }
                } catch {
                    failures.add("\(url.lastPathComponent): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
    }
}
