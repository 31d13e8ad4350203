import Foundation
import Testing
@testable import GramgenBuild
@testable import GramgenRender

/// In a process that keeps what each build leaves (`gramgen serve`), and in one-off builds from
/// the groups kept beside the output's manifest, the post and likes pages of a run of one
/// author's posts are taken over whole when nothing they read changed, and queued again
/// otherwise: edits at the edge of a run (whose neighbours show on the next run's pages), a new
/// post that shifts every run of its author, and a deleted one, each give a build from scratch's
/// files.
struct PageGroupTests {
    @Test("post pages are taken over a group at a time, and edits at a group's edge give a fresh build's files",
          arguments: [true, false])
    func groupsOfPostPages(serve: Bool) throws {
        let site = try IncrementalBuildTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        // Ana gets more posts than one group holds: two groups (newest first, index 0 the newest).
        let extra = PageSet.postGroupSize + 8 - 12
        for number in 1...extra {
            let day = String(format: "%02d", number)
            try IncrementalEditKindsTests.write(site, "content/users/ana/posts/2023-12-\(day)-old/post.md",
                                                "---\ndate: 2023-12-\(day)T10:00:00Z\n---\nOld \(number) by @ana #river\n")
            try IncrementalEditKindsTests.copyPhoto(site, to: "content/users/ana/posts/2023-12-\(day)-old/1.jpg")
        }
        let memory = serve ? BuildMemory() : nil
        func build() throws -> BuildReport {
            let report = try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = serve }
            #expect(report.published, "\(report.diagnostics.items)")
            return report
        }
        let first = try build()
        #expect(first.pageGroupsKept == 0)
        // Ana's posts, newest first: the 12 of 2024 (index 0 to 11), then 2023-12-28 down to -01.
        func anaPost(at index: Int) -> (path: String, date: String) {
            let date = index < 12 ? "2024-01-\(22 - index)" : "2023-12-\(String(format: "%02d", extra - (index - 12)))"
            return ("content/users/ana/posts/\(date)-\(index < 12 ? "walk" : "old")/post.md", date)
        }
        let edge = PageSet.postGroupSize
        // Four groups: ana's two, ben's and cleo's. An edit of the first post of ana's second
        // group changes what the last posts of her first group show too (and the other way
        // round); ben's and cleo's stay.
        // The last post of her second group is out of the first group's reach: three stay.
        for (step, (index, kept)) in [(edge, 2), (edge - 1, 2), (edge + 7, 3)].enumerated() {
            let post = anaPost(at: index)
            try IncrementalEditKindsTests.write(site, post.path, "---\ndate: \(post.date)T10:00:00Z\n---\nEdited \(step) #city\n")
            let report = try build()
            #expect(report.pageGroupsKept == kept, "edit of post \(index): \(report.pageGroupsKept) groups taken over")
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        }
        // A caption edit of ben's keeps ana's two groups and cleo's.
        try IncrementalEditKindsTests.write(site, "content/users/ben/posts/2024-02-15-walk/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nBen again #food\n")
        #expect(try build().pageGroupsKept == 3)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // A new post of ana's shifts both her groups; one deleted from the middle, too.
        try IncrementalEditKindsTests.write(site, "content/users/ana/posts/2024-05-01-new/post.md", "New #river\n")
        try IncrementalEditKindsTests.copyPhoto(site, to: "content/users/ana/posts/2024-05-01-new/1.jpg")
        #expect(try build().pageGroupsKept == 2)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        try FileManager.default.removeItem(at: site.appendingPathComponent(anaPost(at: 20).path).deletingLastPathComponent())
        #expect(try build().pageGroupsKept == 2)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // A site-wide change (a user's name shows on every page) queues every group.
        try IncrementalEditKindsTests.write(site, "content/users/cleo/profile.md", "---\nname: Cleo Renamed\nfollowing: [ana]\n---\nHello from cleo.\n")
        #expect(try build().pageGroupsKept == 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }

    @Test("a user's profile pages, and each profile tab drawn as cards, are taken over whole when nothing their pages show changed, and queued again otherwise",
          arguments: [true, false])
    func profileGroups(serve: Bool) throws {
        let site = try IncrementalBuildTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        let memory = serve ? BuildMemory() : nil
        func build() throws -> BuildReport {
            let report = try TestSupport.build(site: site, output: output, cache: cache, memory: memory) { $0.publishInPlace = serve }
            #expect(report.published, "\(report.diagnostics.items)")
            return report
        }
        let first = try build()
        #expect(first.tabGroupsKept == 0 && first.profileGroupsKept == 0)
        // Three users, each with their profile pages and two tabs drawn as cards, their list and
        // their following feed (which shows their own posts too; cleo follows ana). Each step,
        // the groups that show what changed are queued, the others taken over.
        let steps: [(file: String, text: String, tabs: Int, profiles: Int, why: String)] = [
            ("content/users/ben/posts/2024-02-15-walk/post.md", "---\ndate: 2024-02-15T10:00:00Z\n---\nBen again #food\n", 4, 2,
             "ben's caption: his profile, list and feed"),
            ("content/users/ana/posts/2024-01-15-walk/post.md", "---\ndate: 2024-01-15T10:00:00Z\n---\nAna again #food\n", 3, 2,
             "ana's caption: her profile, list and feed, and cleo's feed"),
            ("content/users/cleo/profile.md", "---\nname: Cleo\nfollowing: [ana]\n---\nA new bio.\n", 4, 2,
             "cleo's bio: her profile and tabs"),
            ("content/users/ben/posts/2024-02-25-new/post.md", "---\ndate: 2024-02-25T10:00:00Z\n---\nBen's new one\n", 4, 2,
             "a new post of ben's: his profile and tabs"),
            ("content/users/ana/posts/2024-01-16-walk/post.md", "---\ndate: 2024-01-16T10:00:00Z\n---\nAna, for @ben #river\n", 3, 1,
             "ana's caption mentioning ben: her pages and cleo's feed, and ben's tagged tab"),
            ("content/users/ben/profile.md", "---\nname: Ben Renamed\n---\nHello from ben.\n", 0, 0,
             "a name shows on every page"),
        ]
        for step in steps {
            if step.file.hasSuffix("-new/post.md") { try IncrementalEditKindsTests.copyPhoto(site, to: step.file.replacingOccurrences(of: "post.md", with: "1.jpg")) }
            try IncrementalEditKindsTests.write(site, step.file, step.text)
            let report = try build()
            #expect(report.tabGroupsKept == step.tabs, "\(step.why): \(report.tabGroupsKept) tabs taken over")
            #expect(report.profileGroupsKept == step.profiles, "\(step.why): \(report.profileGroupsKept) profiles taken over")
            try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        }
    }

    @Test("a one-off build uses the groups kept with the manifest it reads only: with an older manifest's, a damaged file or none, every page is queued, and the files are a fresh build's")
    func groupsBoundToTheirManifest() throws {
        let site = try IncrementalBuildTests.makeSite(), output = try TestSupport.temporaryFolder(), cache = try TestSupport.temporaryFolder()
        defer { TestSupport.remove(site, output, cache) }
        func build() throws -> BuildReport {
            let report = try TestSupport.build(site: site, output: output, cache: cache)
            #expect(report.published, "\(report.diagnostics.items)")
            return report
        }
        func groupsFile() throws -> URL {
            let builds = cache.appendingPathComponent("builds")
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: builds.path).first { $0.hasSuffix(".groups") })
            return builds.appendingPathComponent(name)
        }
        func edit(_ step: Int) throws {
            try IncrementalEditKindsTests.write(site, "content/users/ben/posts/2024-02-15-walk/post.md",
                                                "---\ndate: 2024-02-15T10:00:00Z\n---\nBen, take \(step) #food\n")
        }
        #expect(try build().pageGroupsKept == 0)
        let older = try Data(contentsOf: groupsFile())
        try edit(1)
        #expect(try build().pageGroupsKept == 2, "ana's and cleo's groups")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        // The first build's groups put back: they go with the first manifest, not this one.
        try older.write(to: groupsFile())
        try edit(2)
        #expect(try build().pageGroupsKept == 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        var damaged = try Data(contentsOf: groupsFile())
        damaged.removeLast(3)
        try damaged.write(to: groupsFile())
        try edit(3)
        #expect(try build().pageGroupsKept == 0)
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
        try FileManager.default.removeItem(at: groupsFile())
        try edit(4)
        #expect(try build().pageGroupsKept == 0)
        try edit(5)
        #expect(try build().pageGroupsKept == 2, "written again by the build before")
        try IncrementalBuildTests.assertSameAsFreshBuild(site, output)
    }
}
