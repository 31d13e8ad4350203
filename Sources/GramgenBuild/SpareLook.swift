import CFileSwap
import Foundation

/// The spare's files (`Spare`) looked at ahead of the render, on a thread of the lowest priority,
/// so the look at each kept page (`Publisher.takeOver`: one `fstatat` of each of 28,000 pages at
/// 10,000 posts, a sixth of a caption edit's CPU) runs where the build leaves a core idle (while
/// the site loads and resolves, most of the time only one of two cores is busy) instead of in
/// the render. What it finds is what `takeOver` would have found by looking at that moment:
/// whether the file at the path is still a regular file of the recorded inode, size and
/// modification time. A page the build writes anew is forgotten first (`forget`), and a path
/// not looked at yet is looked at by `takeOver` as before. The look is one more step ahead of
/// the swap (a file changed between it and the swap was already not seen before), and only of
/// gramgen's own spare: a folder opened without following a link, used only when it is the very
/// folder the build takes (`isFolder`) with the manifest read ahead.
final class SpareLook: @unchecked Sendable {
    private let descriptor: Int32
    private let folder: (device: UInt64, inode: UInt64)
    private let entries: OutputManifest.Table
    private let lock = NSLock()
    /// By the entries' positions (`OutputManifest.Table.position`): 0 not looked at yet, 1 as
    /// recorded, 2 not, 3 forgotten (never set again).
    private var states: [UInt8]
    private var stopped = false
    /// Every file was looked at, or the look was stopped.
    var finished: Bool { lock.withLock { ended } }
    private var ended = false

    /// Looks at the files `manifest` lists in the folder at `path`, on a thread of its own; nil
    /// when the folder cannot be opened as one (a link is not followed) or lists nothing.
    init?(folder path: String, manifest: OutputManifest) {
        guard manifest.entries.count > 0 else { return nil }
        let descriptor = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
        folder = (UInt64(info.st_dev), UInt64(info.st_ino))
        entries = manifest.entries
        states = [UInt8](repeating: 0, count: manifest.entries.positions)
        let thread = Thread { [self] in
            _ = gg_lower_thread_priority()
            look()
        }
        thread.name = "gramgen-spare-look"
        thread.start()
    }

    deinit { close(descriptor) }

    /// Whether the folder at `path` is the one looked in (the spare, renamed to be the build's folder).
    func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            && UInt64(info.st_dev) == folder.device && UInt64(info.st_ino) == folder.inode
    }

    /// Whether the file at `path` was found as `entry` records it; nil when it was not looked at
    /// (yet), or `entry` is not the one looked for.
    func intact(_ path: String, _ entry: OutputManifest.Entry) -> Bool? {
        guard let position = entries.position(of: path),
              entries.withEntry(at: position, { _, looked in looked == entry }) == true else { return nil }
        switch lock.withLock({ states[position] }) {
        case 1: return true
        case 2: return false
        default: return nil
        }
    }

    /// The file at `path` is being written anew: what was found of it no longer holds.
    func forget(_ path: String) {
        guard let position = entries.position(of: path) else { return }
        lock.withLock { states[position] = 3 }
    }

    /// No more looks (the render is over, or the build failed).
    func stop() {
        lock.withLock { stopped = true }
    }

    /// What `takeOver` found by looking itself, kept so this thread does not look again.
    func found(_ path: String, intact: Bool) {
        guard let position = entries.position(of: path) else { return }
        lock.withLock { if states[position] == 0 { states[position] = intact ? 1 : 2 } }
    }

    /// From the last entry to the first: the render takes the pages over in about the order the
    /// manifest lists them (the last build's), so the two meet once instead of looking at the same
    /// files side by side.
    private func look() {
        let chunk = 256
        var found = [UInt8](repeating: 0, count: chunk)
        var name = [CChar](repeating: 0, count: 256)
        var end = states.count
        while end > 0 {
            let start = max(0, end - chunk)
            let known: [UInt8] = lock.withLock { Array(states[start..<end]) }
            for position in start..<end {
                guard known[position - start] == 0 else {
                    found[position - start] = 0
                    continue
                }
                found[position - start] = entries.withEntry(at: position) { path, entry in
                    if name.count <= path.count { name = [CChar](repeating: 0, count: path.count + 1) }
                    name.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(path)) }
                    name[path.count] = 0
                    guard let identity = FileIdentity(in: descriptor, at: name) else { return 2 }
                    return entry.describes(identity) ? 1 : 2
                } ?? 2
            }
            let done: Bool = lock.withLock {
                defer { if stopped || start == 0 { ended = true } }
                // Not for a path forgotten meanwhile: its file may have been written anew since it was looked at.
                for position in start..<end where states[position] == 0 {
                    states[position] = found[position - start]
                }
                return stopped
            }
            if done { return }
            end = start
        }
    }
}
