import Foundation

/// Why an import could not start or finish. Each case names the file at fault and says what to
/// do, because the person reading it holds an export they did not write and cannot inspect easily.
public enum ImportError: Error, Equatable, CustomStringConvertible {
    case exportNotFound(path: String)
    case notAnExport(path: String)
    /// A FIFO, socket or device given as the export (never opened).
    case notAFile(path: String, detail: String)
    case htmlExport(path: String)
    case unzipMissing(zip: String)
    case unzipFailed(zip: String, detail: String)
    case unreadableJSON(file: String, detail: String)
    case unexpectedJSON(file: String, expected: String)
    case noUsername(export: String)
    case badHandle(handle: String, problem: String, source: String)
    case noContentFolder(site: String)
    /// A folder of the site the import writes in is a link out of the site.
    case linkOutside(path: String)
    case damagedManifest(path: String)
    case writeFailed(path: String, detail: String)

    public var description: String {
        switch self {
        case .exportNotFound(let path):
            return "\(path): no such file or folder — pass the Instagram export as a folder or as the .zip you downloaded"
        case .notAnExport(let path):
            return "\(path): no posts_1.json found (looked in your_instagram_activity/content/, your_instagram_activity/media/ "
                + "and content/) — is this an Instagram data export? Download it from Accounts Center › Your information "
                + "and permissions › Download your information, choosing the JSON format"
        case .notAFile(let path, let detail):
            return "\(path): \(detail) — pass the Instagram export as a folder or as the .zip you downloaded"
        case .htmlExport(let path):
            return "\(path): this is the HTML version of the Instagram export, which gramgen cannot read — "
                + "request the download again and choose the JSON format"
        case .unzipMissing(let zip):
            return "\(zip): cannot open the .zip because the `unzip` program is missing — install it "
                + "(e.g. `apt-get install unzip`), or unzip the export yourself and pass the folder"
        case .unzipFailed(let zip, let detail):
            return "\(zip): unzip failed (\(detail)) — check that the download is complete, or unzip it yourself and pass the folder"
        case .unreadableJSON(let file, let detail):
            return "\(file): not valid JSON (\(detail)) — the export may be damaged; download it again"
        case .unexpectedJSON(let file, let expected):
            return "\(file): unexpected layout, expected \(expected) — the export format may have changed; please report this"
        case .noUsername(let export):
            return "\(export): the export has no username (personal_information.json is missing or empty) — "
                + "pass the handle to use with --handle NAME"
        case .badHandle(let handle, let problem, let source):
            return "'\(handle)' (from \(source)) cannot be a handle: \(problem) — pass a different one with --handle NAME"
        case .noContentFolder(let site):
            return "\(site): there is no content/ folder here — create a site with `gramgen init`, or pass --site DIR"
        case .linkOutside(let path):
            return "\(path): this is a link to a folder outside the site, and the import writes in it — "
                + "move the folder into the site instead of linking to it"
        case .damagedManifest(let path):
            return "\(path): the record of the last import is damaged — restore it (e.g. from version control); "
                + "deleting it makes the next import create every post again beside the existing ones"
        case .writeFailed(let path, let detail):
            return "\(path): could not write (\(detail)) — check that the folder is writable and the disk is not full"
        }
    }
}
