import Foundation
import GramgenCore
import GramgenImaging

/// The site's icons (`SiteIcons`) from `Site.iconSource`; a picture they cannot be made from is a
/// warning naming it (the site is still published, with the title's letter as its icon).
enum IconStage {
    static func icons(for site: Site, options: BuildOptions, digests: SourceDigests, diagnostics: inout Diagnostics) -> [String: [UInt8]] {
        guard let source = site.iconSource else { return [:] }
        do {
            let digest = try digests.digest(of: source.fileURL)
            return try SiteIcons.files(from: source.fileURL, digest: digest, settings: site.config.images,
                                       cacheFolder: options.cacheDirectory.appendingPathComponent("icons"))
        } catch let problem as ImageProblem {
            diagnostics.warning(SourceLocation(source.path), "the site's icons cannot be made from this picture: \(problem.message)",
                                hint: problem.hint)
        } catch {
            diagnostics.warning(SourceLocation(source.path), "the site's icons cannot be made from this picture: \(error.localizedDescription)",
                                hint: "check that the cache folder is writable")
        }
        return [:]
    }
}
