import CVipsShim
import Foundation
import GramgenCore
import Testing
@testable import GramgenImaging

/// A build processes several images at once. With many small photos libvips builds and frees
/// resizes constantly on every thread; with Orc's vector code on, Orc 0.4.33's unlocked code
/// allocator corrupted the heap ("double free or corruption", crashes in vips_resize). These run
/// real libvips on real small JPEGs from many threads at once.
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

    /// Small gradient JPEGs like a phone's old uploads: all below every configured width.
    static func smallPhotos(_ count: Int) throws -> [URL] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("small-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sizes = [(80, 96), (96, 72), (88, 88), (17, 13), (1, 1), (3, 40)]
        return try (0..<count).map { index in
            let (width, height) = sizes[index % sizes.count]
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

    @Test("libvips runs without Orc vector code, whose code allocator is not thread-safe")
    func noOrc() throws {
        try VipsImage.start()
        #expect(gg_vector_enabled() == 0)
    }

    @Test("resizes built and freed on many threads at once")
    func concurrentResizes() throws {
        let bytes = (0..<(80 * 96 * 3)).map { UInt8($0 * 7 % 256) }
        let source = try VipsImage.fromRGB(bytes, width: 80, height: 96)
        let failures = Failures()
        Self.onThreads(16) { _ in
            do {
                for _ in 0..<1_000 {
                    let small = try source.resized(scale: 16.0 / 96)
                    if small.width != 13 { failures.add("resized to \(small.width) wide") }
                }
            } catch {
                failures.add("\(error)")
            }
        }
        #expect(failures.all.isEmpty)
    }

    @Test("small photos processed on many threads at once give the same files as one at a time")
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
        let sizes = posts.prefix(6).map { "\($0.width)x\($0.height)" }
        #expect(sizes == ["80x96", "96x72", "88x88", "17x13", "1x1", "3x40"])
        for post in posts {
            #expect(post.variants.count == 2 && post.squares.count == 2)
            #expect(post.squares.allSatisfy { $0.width == min(post.width, post.height) && $0.width == $0.height })
        }
    }
}
