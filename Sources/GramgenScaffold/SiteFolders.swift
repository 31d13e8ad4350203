import Foundation
import GramgenCore

/// Finds the folders of an existing site, with an error that says how to make one when missing.
enum SiteFolders {
    static func users(in siteRoot: URL) throws -> URL {
        let content = siteRoot.appendingPathComponent("content")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ScaffoldError("\(siteRoot.path) has no content/ folder, so it is not a gramgen site",
                                hint: "run `gramgen init` there first, or pass --site with the site's folder")
        }
        try checkInside("content/users", siteRoot: siteRoot)
        return content.appendingPathComponent("users")
    }

    /// `new` writes below `relative`: a link on the way out of the site is refused, so a
    /// `content/` linked elsewhere never receives files.
    static func checkInside(_ relative: String, siteRoot: URL) throws {
        if let link = FileContainment.linkOutside(relative, root: siteRoot) {
            throw ScaffoldError("\(siteRoot.appendingPathComponent(link).path) is a link to a folder outside the site",
                                hint: "move the folder into the site instead of linking to it")
        }
    }
}
