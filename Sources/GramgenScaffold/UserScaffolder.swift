import Foundation
import GramgenCore

/// `gramgen new user HANDLE`: a user folder with a profile.md to fill in. The handle is checked with
/// the same rule the build uses, so a user made here never fails the next build.
public struct UserScaffolder {
    public let siteRoot: URL
    public let handle: String
    public var name: String?

    public init(siteRoot: URL, handle: String, name: String? = nil) {
        self.siteRoot = siteRoot.standardizedFileURL
        self.handle = handle
        self.name = name
    }

    public func run() throws -> [URL] {
        if let problem = Handle.problem(with: handle) {
            throw ScaffoldError("'\(handle)' is not a valid handle: \(problem)",
                                hint: "handles look like alice, bob.kim or c_lee")
        }
        let users = try SiteFolders.users(in: siteRoot)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: users.path)) ?? []
        if let clash = existing.first(where: { $0.lowercased() == handle }) {
            throw ScaffoldError("the user '\(clash)' already exists in \(users.path)",
                                hint: clash == handle ? "edit its profile.md instead" : "handles are unique regardless of case")
        }
        var files = ScaffoldFiles()
        let folder = users.appendingPathComponent(handle)
        try files.makeNewFolder(folder)
        try files.makeFolder(folder.appendingPathComponent("posts"))
        try files.write(ScaffoldTexts.profile(name: name ?? handle), to: folder.appendingPathComponent("profile.md"))
        return files.created
    }
}
