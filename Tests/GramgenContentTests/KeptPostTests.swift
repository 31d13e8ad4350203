import Foundation
import GramgenCore
import Testing
@testable import GramgenContent

/// A post read back from the kept files (`PostMemo+Disk.swift`) is used only when it is something
/// a load of its folder could have made: a forged one could otherwise name files outside its
/// folder, a tag folder outside the output, or a date no page can show.
struct KeptPostTests {
    static func loaded(id: String = "2024-01-02-walk", author: String = "ana", images: [String] = ["1.jpg"],
                       tags: [String] = ["walk"], likedBy: [String] = ["ben"], date: Double = 726_000_000,
                       offset: Int = 3600) -> LoadedPost {
        let folder = "content/users/\(author)/posts/\(id)"
        let post = Post(id: id, author: author, date: PostDate(instant: Date(timeIntervalSinceReferenceDate: date), utcOffsetSeconds: offset),
                        location: nil, images: images.map { ImageSource(path: "\(folder)/\($0)", fileURL: URL(fileURLWithPath: "/x"), alt: "") },
                        caption: RichText(html: "<p>Walk</p>", plainText: "Walk", tags: tags, mentions: []), tagKeys: tags,
                        likedBy: likedBy, comments: [], isDraft: false, isSensitive: false, sourcePath: "\(folder)/post.md")
        return LoadedPost(post: post, tagSpellings: tags, references: [])
    }

    @Test("a post as a load makes it is used; one naming anything outside its folder or the rules is not")
    func plausible() {
        let folder = "users/ana/posts/2024-01-02-walk"
        #expect(PostMemo.isPlausible(Self.loaded(), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(), folder: "users/ben/posts/2024-01-02-walk"), "another folder's")
        #expect(!PostMemo.isPlausible(Self.loaded(images: ["../../../../etc/passwd"]), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(images: ["sub/1.jpg"]), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(tags: ["../../../../tmp/escape"]), folder: folder), "a tag folder outside the output")
        #expect(!PostMemo.isPlausible(Self.loaded(tags: [".."]), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(likedBy: ["../root"]), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(date: .nan), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(date: .infinity), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(offset: 100 * 3600), folder: folder))
        #expect(!PostMemo.isPlausible(Self.loaded(id: "../x"), folder: "users/ana/posts/../x"))
        #expect(!PostMemo.isPlausible(Self.loaded(), folder: folder + "x"), "a longer folder")
        #expect(!PostMemo.isPlausible(Self.loaded(), folder: String(folder.dropLast())), "a shorter folder")
        #expect(PostMemo.isJoined("users/ana", "users/", "ana") && PostMemo.isJoined("", "", ""))
        #expect(!PostMemo.isJoined("users/anna", "users/", "ana") && !PostMemo.isJoined("users/an", "users/", "ana"))
        #expect(!PostMemo.isJoined("users/ana/", "users/", "ana") && !PostMemo.isJoined("users/ana", "users", "ana"))
    }

    static func profile(handle: String = "ana", avatar: String? = "avatar.jpg", website: String? = "https://ana.example",
                        following: [String] = ["ben"], source: String? = nil) -> PostMemo.ProfileEntry {
        let profile = Profile(handle: handle, name: "Ana", bio: RichText(html: "<p>Hi</p>", plainText: "Hi", tags: [], mentions: []),
                              website: website, location: nil, following: following,
                              avatar: avatar.map { ImageSource(path: "content/users/\(handle)/\($0)", fileURL: URL(fileURLWithPath: "/x"), alt: "") },
                              sourcePath: source ?? "content/users/\(handle)/profile.md")
        return PostMemo.ProfileEntry(stamp: [1], profile: profile, following: [], diagnostics: [])
    }

    @Test("a profile as a load makes it is used; one naming another user's files, a link the loader refuses or a handle that is none is not")
    func plausibleProfile() {
        #expect(PostMemo.isPlausible(Self.profile(), folder: "users/ana"))
        #expect(PostMemo.isPlausible(Self.profile(avatar: nil, website: nil, following: []), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(), folder: "users/ben"), "another folder's")
        #expect(!PostMemo.isPlausible(Self.profile(avatar: "../ben/avatar.jpg"), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(avatar: "../../../../etc/passwd"), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(website: "javascript:alert(1)"), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(following: ["../root"]), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(source: "content/users/ben/profile.md"), folder: "users/ana"))
        #expect(!PostMemo.isPlausible(Self.profile(handle: "../x"), folder: "users/../x"))
    }

    @Test("a kept image's file path is content/'s own path and the rest of its path, byte for byte; a path outside content/ has none")
    func imageFilePaths() {
        #expect(PostMemo.imageFilePath("content/users/ana/posts/p/1.jpg", root: "/site/content") == "/site/content/users/ana/posts/p/1.jpg")
        #expect(PostMemo.imageFilePath("content/users/ana/posts/é-\u{301}/ç.jpg", root: "/sïte/content") == "/sïte/content/users/ana/posts/é-\u{301}/ç.jpg")
        #expect(PostMemo.imageFilePath("content/", root: "/r") == "/r/")
        for outside in ["contents/x.jpg", "content", "static/x.jpg", "", "/content/x.jpg", "Content/x.jpg"] {
            #expect(PostMemo.imageFilePath(outside, root: "/r") == nil, "\(outside)")
        }
    }
}
