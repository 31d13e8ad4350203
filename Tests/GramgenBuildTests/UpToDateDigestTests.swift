import Foundation
import GramgenCore
import Testing
@testable import GramgenBuild

/// The up-to-date check's digest of a folder's files: the same whatever order a walk lists them
/// in, different when any file's path, size or time is, or when one is added or removed.
struct UpToDateDigestTests {
    static func entry(_ path: String, _ size: Int64 = 10, _ modified: Int64 = 1_000) -> FolderWalk.Entry {
        FolderWalk.Entry(path: path, size: size, modified: modified, isRegular: true)
    }

    @Test("order does not count; path, size, time, an added, a removed and a repeated file do")
    func digest() {
        var random = SeededRandom.forTest("UpToDateDigestTests.digest")
        let files = (0..<200).map { Self.entry("users/u\($0 % 7)/posts/p\($0)/post.md", Int64($0), Int64($0) * 1_000) }
        let base = UpToDateCheck.digest(of: files)
        #expect(UpToDateCheck.digest(of: files.shuffled(using: &random)) == base)
        var seen: Set<String> = [base]
        func changed(_ edit: (inout [FolderWalk.Entry]) -> Void) {
            var edited = files
            edit(&edited)
            let digest = UpToDateCheck.digest(of: edited.shuffled(using: &random))
            #expect(seen.insert(digest).inserted, "an edit gave a digest already seen")
        }
        let pick = Int(random.next() % 200)
        changed { $0[pick].path += "x" }
        changed { $0[pick].size += 1 }
        changed { $0[pick].modified += 1 }
        changed { $0.append(Self.entry("new.md")) }
        changed { $0.remove(at: pick) }
        changed { $0.append($0[pick]) }
        // Two files trading their times: each file's own digest changes.
        changed { let time = $0[0].modified; $0[0].modified = $0[1].modified; $0[1].modified = time }
        #expect(UpToDateCheck.digest(of: []) != base)
    }
}
