import Foundation

/// Finds the folders of an existing site, with an error that says how to make one when missing.
enum SiteFolders {
    static func users(in siteRoot: URL) throws -> URL {
        let content = siteRoot.appendingPathComponent("content")
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: content.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ScaffoldError("\(siteRoot.path) has no content/ folder, so it is not a gramgen site",
                                hint: "run `gramgen init` there first, or pass --site with the site's folder")
        }
        return content.appendingPathComponent("users")
    }
}
