import Foundation
import GramgenCore

/// Reading `content/` quickly, with the same answers as `FileManager` and `FileContainment`.
///
/// `FileContainment.isInside` resolves every link of both paths (an `lstat` per component of
/// each, and several URLs), for each of the 20,000 files of a large site. Resolving works
/// component by component, so a file reached from `content/` through entries that are not links
/// resolves to `content/`'s resolved path plus the same relative path: it is inside. The loaders
/// learn that from `lstat`, which they need anyway to tell files from folders; whenever a link
/// (or anything unusual) is on the way, they ask `FileContainment` as before.
enum ContentFolder {
    /// What `lstat` says about an entry, without following a link at its end.
    enum Entry: Equatable {
        case missing, file, folder, link, other
        /// The path is one to leave to Foundation (see `isUsablePath`).
        case unknown
    }

    static func entry(atPath path: String) -> Entry {
        guard isUsablePath(path) else { return .unknown }
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// A name that resolves as itself below a folder: not empty, `.` or `..`, no `/`, no NUL.
    /// (On the bytes in place: through `String.UTF8View` a byte at a time, every tag key of every
    /// kept post was looked at so at every build.)
    static func isPlainName(_ name: String) -> Bool {
        var name = name
        return name.withUTF8(isPlainName)
    }

    /// The same on bytes in place, each look a `memchr` or `memcmp` (through a generic iterator,
    /// a byte at a time, every tag key of 10,000 kept posts took 2 million instructions).
    static func isPlainName(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        !name.isEmpty && !name.hasSameBytes(as: ".") && !name.hasSameBytes(as: "..")
            && name.index(of: 0) == nil && name.index(of: UInt8(ascii: "/")) == nil
    }

    /// Paths near `PATH_MAX` or holding a NUL go the general way (Foundation's resolver gives up
    /// on long paths, and a C path ends at NUL).
    private static func isUsablePath(_ path: String) -> Bool {
        path.utf8.count < 900 && !path.hasByte(0)
    }

    /// A sub-folder found by `subfolders(of:)`.
    struct Subfolder: Sendable {
        var name: String
        /// The entry is a folder itself, not a link to one.
        var isPlain: Bool
    }

    /// An entry of a folder, as `readdir` lists it.
    struct Listed {
        var name: String
        var entry: Entry
    }

    /// The names `FileManager.contentsOfDirectory(atPath:)` gives, each with what `lstat` would say
    /// about it — taken from `readdir`, which knows it on most file systems (else `lstat` is asked).
    /// Nil when the folder cannot be read or holds a name that is not valid UTF-8 (Foundation
    /// repairs those; the callers then ask it).
    static func listing(ofFolderAtPath folderPath: String) -> [Listed]? {
        guard isUsablePath(folderPath), let folder = opendir(folderPath) else { return nil }
        defer { closedir(folder) }
        var listed: [Listed] = []
        while let item = readdir(folder) {
            let type = item.pointee.d_type
            let name: String? = withUnsafeBytes(of: &item.pointee.d_name) { raw in
                let bytes = raw.prefix(while: { $0 != 0 })
                return String(validating: bytes, as: UTF8.self)
            }
            guard let name else { return nil }
            if name == "." || name == ".." { continue }
            let entry: Entry
            switch Int32(type) {
            case Int32(DT_REG): entry = .file
            case Int32(DT_DIR): entry = .folder
            case Int32(DT_LNK): entry = .link
            case Int32(DT_UNKNOWN): entry = self.entry(atPath: folderPath + "/" + name)
            default: entry = .other
            }
            listed.append(Listed(name: name, entry: entry))
        }
        return listed
    }

    /// Visible sub-folders (links to folders included), sorted by name: the same list as
    /// `FileManager.fileExists(atPath:isDirectory:)` on every entry gives.
    static func subfolders(of folderPath: String) -> [Subfolder] {
        let listed = listing(ofFolderAtPath: folderPath)
            ?? ((try? FileManager.default.contentsOfDirectory(atPath: folderPath)) ?? []).map {
                Listed(name: $0, entry: .unknown)
            }
        var folders: [Subfolder] = []
        for item in listed where !item.name.hasPrefix(".") {
            let name = item.name
            // Made only for an entry whose type the listing did not give (most did: no path is
            // joined for each of a site's 10,000 post folders).
            var path: String { folderPath + "/" + name }
            if isPlainName(name) {
                switch item.entry == .unknown ? entry(atPath: path) : item.entry {
                case .folder:
                    folders.append(Subfolder(name: name, isPlain: true))
                    continue
                case .file, .other, .missing:  // when lstat fails, stat fails too
                    continue
                case .link, .unknown:
                    break
                }
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                folders.append(Subfolder(name: name, isPlain: false))
            }
        }
        return sortedByName(folders)
    }

    /// `folders` in the order of `String`'s `<` on their names. When every name is ASCII the two
    /// orders agree with the order of their bytes, so each is sorted by its first sixteen bytes as
    /// two numbers (names hold no zero byte: a shorter one comes first), the full names compared
    /// only where those are equal. String's own comparison, which orders by canonical
    /// equivalence, took a quarter of a million instructions a user's folder of 100 posts, 1.3% of
    /// a caption edit's at 10,000 posts.
    static func sortedByName(_ folders: [Subfolder]) -> [Subfolder] {
        var keys: [(UInt64, UInt64)] = []
        keys.reserveCapacity(folders.count)
        for folder in folders {
            var name = folder.name
            let key = name.withUTF8 { bytes -> (UInt64, UInt64)? in
                var any: UInt8 = 0
                for byte in bytes { any |= byte }
                guard any < 0x80 else { return nil }
                var words: (UInt64, UInt64) = (0, 0)
                withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.prefix(16)))) }
                return (UInt64(bigEndian: words.0), UInt64(bigEndian: words.1))
            }
            guard let key else { return folders.sorted { $0.name < $1.name } }
            keys.append(key)
        }
        return folders.indices.sorted { a, b in keys[a] != keys[b] ? keys[a] < keys[b] : folders[a].name < folders[b].name }
            .map { folders[$0] }
    }
}
