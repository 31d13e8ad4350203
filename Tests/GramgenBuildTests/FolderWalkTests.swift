import Foundation
import GramgenCore
import Testing
@testable import GramgenBuild

struct FolderWalkTests {
    @Test("with listings kept, a walk reads again only the folders said to have changed, and those holding links")
    func listings() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for post in 0..<4 {
            let folder = root.appendingPathComponent("users/u/posts/p\(post)")
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("post \(post)".utf8).write(to: folder.appendingPathComponent("post.md"))
        }
        try fm.createDirectory(at: root.appendingPathComponent("shared"), withIntermediateDirectories: true)
        try Data("shared".utf8).write(to: root.appendingPathComponent("shared/photo.jpg"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("users/u/posts/p3/1.jpg").path, withDestinationPath: "../../../../shared/photo.jpg")
        // A hard link in p2 to a file outside the posts.
        try Data("outside".utf8).write(to: root.appendingPathComponent("shared/caption.md"))
        try fm.linkItem(at: root.appendingPathComponent("shared/caption.md"), to: root.appendingPathComponent("users/u/posts/p2/extra.md"))
        let listings = FolderWalk.Listings()
        func walk(changed: Set<String>?, threads: Int = 1) throws -> [String: Int64] {
            listings.begin(changed: changed)
            defer { listings.finish() }
            let entries = try #require(FolderWalk.entries(root.path, follow: true, threads: threads, listings: listings))
            return Dictionary(uniqueKeysWithValues: entries.map { ($0.path, $0.size) })
        }
        let full = try walk(changed: nil)
        #expect(full.count == 8 && listings.read == 9)
        // Nothing said to have changed: only p3, which holds a link, and p2 and shared/, which hold a file
        // with another name, are read.
        try Data("post 0, longer".utf8).write(to: root.appendingPathComponent("users/u/posts/p0/post.md"))
        try Data("shared, longer".utf8).write(to: root.appendingPathComponent("shared/photo.jpg"))
        let handle = try FileHandle(forWritingTo: root.appendingPathComponent("shared/caption.md"))
        try handle.write(contentsOf: Data("outside, written in place".utf8))
        try handle.close()
        let kept = try walk(changed: [], threads: 2)
        #expect(listings.read == 3)  // p3, p2 and shared/, which holds the other name
        #expect(kept["users/u/posts/p2/extra.md"] == 25, "the file written through its other name is seen")
        #expect(kept["users/u/posts/p0/post.md"] == 6, "the unreported edit is not seen: the listing was used")
        #expect(kept["users/u/posts/p3/1.jpg"] == 14, "the link's target is read every time")
        // Told: p0 is read again, and a new folder under a changed one is read whole.
        let added = root.appendingPathComponent("users/u/posts/p4")
        try fm.createDirectory(at: added, withIntermediateDirectories: true)
        try Data("new".utf8).write(to: added.appendingPathComponent("post.md"))
        let told = try walk(changed: ["users/u/posts/p0/", "users/u/posts/", "shared/"])
        #expect(told == (try #require(FolderWalk.entries(root.path, follow: true))).reduce(into: [:]) { $0[$1.path] = $1.size })
        #expect(told["users/u/posts/p0/post.md"] == 14 && told["users/u/posts/p4/post.md"] == 3)
        #expect(listings.read == 6)  // posts/, p0, p4, p3, p2 and shared/
        // A folder removed is gone from the next walk, with its listing.
        try fm.removeItem(at: added)
        let removed = try walk(changed: ["users/u/posts/"])
        #expect(removed["users/u/posts/p4/post.md"] == nil && removed.count == 8)
    }

    @Test("links are followed, but a folder that links to itself twice is listed once and the walk ends")
    func linkLoops() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("x".utf8).write(to: root.appendingPathComponent("sub/file.txt"))
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("sub/a").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("sub/b").path, withDestinationPath: "..")
        let followed = try #require(FolderWalk.entries(root.path, follow: true))
        #expect(followed.map(\.path) == ["sub/file.txt"])
        let listed = try #require(FolderWalk.entries(root.path, follow: false))
        #expect(Set(listed.map(\.path)) == ["sub/file.txt", "sub/a", "sub/b"])
        #expect(listed.filter(\.isRegular).map(\.path) == ["sub/file.txt"])
        #expect(FolderWalk.entries(root.appendingPathComponent("missing").path, follow: true) == nil)
    }

    @Test("a link out of the site below a path longer than the system's limit is not followed")
    func deepLinkOut() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let outside = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: outside) }
        try Data("far".utf8).write(to: outside.appendingPathComponent("far.txt"))
        // 17 folders of 251-byte names: a whole path of more than 4,096 bytes, which lstat and
        // realpath refuse, while the walk reaches it folder by folder.
        var folder = root.path
        let fd = open(root.path, O_RDONLY | O_DIRECTORY)
        var parent = fd
        for level in 0..<17 {
            let name = String(repeating: Character(String(level % 10)), count: 251)
            #expect(mkdirat(parent, name, 0o755) == 0)
            let next = openat(parent, name, O_RDONLY | O_DIRECTORY)
            if parent != fd { close(parent) }
            parent = next
            folder += "/" + name
        }
        #expect(symlinkat(outside.path, parent, "out") == 0)
        let file = openat(parent, "here.txt", O_WRONLY | O_CREAT, 0o644)
        close(file)
        close(parent)
        close(fd)
        #expect(folder.utf8.count > Int(PATH_MAX))
        let within = root.resolvingSymlinksInPath().path
        for threads in [1, 2] {
            let entries = try #require(FolderWalk.entries(root.path, follow: true, within: within, threads: threads))
            // The link could not be opened by its path: listed as a folder not read, nothing of what it leads to.
            let names = entries.map { ($0.path.split(separator: "/").last.map(String.init) ?? "", $0.unreadable) }
            #expect(names.count == 2 && names.contains { $0 == ("here.txt", false) } && names.contains { $0 == ("out", true) },
                    "threads \(threads): \(names)")
        }
    }

    @Test("a folder that many links lead to is listed once, under its own path, on one thread or two")
    func manyLinks() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        try fm.createDirectory(at: root.appendingPathComponent("z"), withIntermediateDirectories: true)
        for index in 0..<200 {
            try Data().write(to: root.appendingPathComponent("z/f\(index)"))
            try fm.createDirectory(at: root.appendingPathComponent("users/u\(index)"), withIntermediateDirectories: true)
            // "a" sorts before "z": the real folder is still listed under its own name.
            try fm.createSymbolicLink(atPath: root.appendingPathComponent("users/u\(index)/a").path, withDestinationPath: "../../z")
        }
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("a").path, withDestinationPath: "z")
        let within = root.resolvingSymlinksInPath().path
        for threads in [1, 2] {
            let entries = try #require(FolderWalk.entries(root.path, follow: true, within: within, threads: threads))
            #expect(entries.count == 200 && entries.allSatisfy { $0.path.hasPrefix("z/f") }, "threads \(threads): \(entries.count)")
        }
    }

    @Test("the walk stops 32 folders deep")
    func depth() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        var path = root
        for level in 0..<40 {
            path = path.appendingPathComponent("d\(level)")
            try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
            try Data().write(to: path.appendingPathComponent("f"))
        }
        let entries = try #require(FolderWalk.entries(root.path, follow: false))
        // The root is depth 0: files in the first 31 folders below it.
        #expect(entries.count == FolderWalk.maxDepth - 1)
    }

    @Test("a walk on two threads lists what one thread lists, link loops included, the same every time")
    func parallel() throws {
        let root = try TestSupport.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        for user in 0..<12 {
            for post in 0..<5 {
                let folder = root.appendingPathComponent("users/u\(user)/posts/p\(post)")
                try fm.createDirectory(at: folder, withIntermediateDirectories: true)
                try Data("post \(user) \(post)".utf8).write(to: folder.appendingPathComponent("post.md"))
            }
            try Data("profile".utf8).write(to: root.appendingPathComponent("users/u\(user)/profile.md"))
        }
        try Data("site".utf8).write(to: root.appendingPathComponent("site.yml"))
        try fm.createSymbolicLink(atPath: root.appendingPathComponent("users/u3/posts/p1/loop").path, withDestinationPath: "../..")
        let serial = try #require(FolderWalk.entries(root.path, follow: true))
        #expect(serial.count == 12 * 6 + 1)
        for _ in 0..<5 {
            let parallel = try #require(FolderWalk.entries(root.path, follow: true, threads: 2))
            #expect(parallel.map(\.path).sorted() == serial.map(\.path).sorted())
            #expect(Set(parallel.map(\.size)) == Set(serial.map(\.size)))
        }
        #expect(FolderWalk.entries(root.appendingPathComponent("missing").path, follow: true, threads: 2) == nil)
    }

    @Test("a random tree (seeded) is listed as a plain walk with lstat/stat lists it: folders, files, links inside and out, odd names")
    func randomTrees() throws {
        var random = SeededRandom.forTest("FolderWalkTests.randomTrees")
        for _ in 0..<4 {
            let root = try TestSupport.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: root) }
            let outside = try TestSupport.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: outside) }
            try Data("far".utf8).write(to: outside.appendingPathComponent("far.txt"))
            var folders = [root.path]
            var files: [String] = []
            for step in 0..<Int.random(in: 40...160, using: &random) {
                let parent = folders.randomElement(using: &random)!
                let name = ["a", "b b", "ü", "post-\(step)", ".hidden\(step)", "x.md"].randomElement(using: &random)! + "\(step)"
                let path = parent + "/" + name
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3:
                    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
                    folders.append(path)
                case 3..<8:
                    try Data(repeating: 7, count: Int.random(in: 0..<300, using: &random)).write(to: URL(fileURLWithPath: path))
                    files.append(path)
                case 8:
                    // A link to a file or a folder of the tree (followed), or outside it (not walked when a folder).
                    let target = Bool.random(using: &random) ? (files + folders).randomElement(using: &random)! : outside.path
                    try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
                default:
                    if let file = files.randomElement(using: &random) { try FileManager.default.linkItem(atPath: file, toPath: path) }
                }
            }
            let within = root.resolvingSymlinksInPath().path
            for follow in [false, true] {
                // What the walk must list: every non-folder below the root, each folder once: the
                // tree of real folders first (a folder's files before its subfolders, in listing
                // order), then the links to folders inside the root, round by round, sorted by path.
                var expected: [String: Int64] = [:]
                var seen: Set<[UInt64]> = []
                var links: [(path: String, prefix: String)] = []
                func identity(_ path: String) -> [UInt64]? {
                    var info = stat()
                    return (follow ? stat(path, &info) : lstat(path, &info)) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
                }
                func visit(_ folder: String, _ prefix: String, link: Bool) {
                    if link {
                        let real = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
                        guard real == within || real.hasPrefix(within + "/") else { return }
                    }
                    guard let id = identity(folder), seen.insert(id).inserted else { return }
                    var subfolders: [(String, String)] = []
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] {
                        let path = folder + "/" + name
                        var entry = stat(), own = stat()
                        guard lstat(path, &own) == 0, (follow ? stat(path, &entry) : lstat(path, &entry)) == 0 else { continue }
                        if entry.st_mode & S_IFMT == S_IFDIR {
                            if own.st_mode & S_IFMT == S_IFLNK { links.append((path, prefix + name + "/")) } else { subfolders.append((path, prefix + name + "/")) }
                        } else {
                            expected[prefix + name] = Int64(entry.st_size)
                        }
                    }
                    for (path, prefix) in subfolders { visit(path, prefix, link: false) }
                }
                visit(root.path, "", link: false)
                while !links.isEmpty {
                    let round = links.sorted { $0.prefix < $1.prefix }
                    links = []
                    for link in round { visit(link.path, link.prefix, link: true) }
                }
                let one = try #require(FolderWalk.entries(root.path, follow: follow, within: within))
                #expect(one.count == expected.count && Dictionary(one.map { ($0.path, $0.size) }, uniquingKeysWith: { a, _ in a }) == expected,
                        "follow \(follow)")
                // On two threads: the very same entries.
                let two = try #require(FolderWalk.entries(root.path, follow: follow, within: within, threads: 2))
                #expect(two.map(\.path).sorted() == one.map(\.path).sorted(), "follow \(follow), two threads")
            }
        }
    }
}
