import GramgenCore

/// What makes the site installable as an app: its icons, the web app manifest and, with
/// `offline: true`, the service worker. Paths are relative to the output root.
public struct WebApp: Sendable {
    /// The icon files made from `Site.iconSource` (`SiteIcons`), by path; empty when the site has
    /// no logo and no avatar, and then an SVG with the title's first letter stands in.
    public var icons: [String: [UInt8]]
    /// Register the service worker: `offline: true`, and not a preview or a build with drafts
    /// (whose pages must never be kept in a reader's cache).
    public var offline: Bool

    public init(icons: [String: [UInt8]] = [:], offline: Bool = false) {
        self.icons = icons
        self.offline = offline
    }

    public static let manifest = SitePaths.webManifest
    /// At the root, so it may serve every page of the site.
    public static let serviceWorker = SitePaths.serviceWorker
    static let letterIcon = SitePaths.icons + "/icon.svg"
    /// The theme's surface colours (style.css: `--surface`), for the browser's bar and the
    /// splash screen.
    static let lightColor = "#ffffff", darkColor = "#121212", background = "#fafafa"

    /// The tab's icon: the 32 px PNG, or the letter.
    var faviconPath: String { icons[iconPath(32)] != nil ? iconPath(32) : Self.letterIcon }
    var faviconType: String { icons[iconPath(32)] != nil ? "image/png" : "image/svg+xml" }
    /// The logo beside the site's title in the top bar (1× and 2×), when the site has
    /// `content/logo.*` (an avatar only makes the icons).
    func headerLogo(_ config: SiteConfig) -> (String, String)? {
        guard config.logo != nil, icons[iconPath(32)] != nil, icons[iconPath(180)] != nil else { return nil }
        return (iconPath(32), iconPath(180))
    }

    /// Apple's home-screen icon, when there is a picture to make it from.
    var touchIconPath: String? { icons[iconPath(180)] != nil ? iconPath(180) : nil }

    private func iconPath(_ edge: Int) -> String { SitePaths.icon(edge) }

    /// The files besides the pages: icons (or the letter), the manifest and the service worker.
    func files(config: SiteConfig, messages: Messages, theme: Theme) -> [(String, [UInt8])] {
        var files = icons.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var manifestIcons: [JSONValue] = []
        for edge in [192, 512] where icons[iconPath(edge)] != nil {
            manifestIcons.append(.object(["src": .string(iconPath(edge)), "sizes": .string("\(edge)x\(edge)"),
                                          "type": .string("image/png"), "purpose": .string("any")]))
        }
        if icons.isEmpty {
            files.append((Self.letterIcon, Array(letterSVG(config.title).utf8)))
            manifestIcons.append(.object(["src": .string(Self.letterIcon), "sizes": .string("any"), "type": .string("image/svg+xml")]))
        }
        let manifest = JSONValue.object([
            "name": .string(config.title), "short_name": .string(config.title),
            "description": config.description.isEmpty ? nil : .string(config.description),
            "lang": .string(config.language), "dir": .string(messages.direction),
            "start_url": .string("./"), "scope": .string("./"), "display": .string("standalone"),
            "theme_color": .string(Self.lightColor), "background_color": .string(Self.background),
            "icons": .array(manifestIcons),
        ])
        var json: [UInt8] = []
        JSONWriter.write(manifest, into: &json)
        files.append((Self.manifest, json + [0x0A]))
        // A site that turned `offline` off, or a preview, still answers for the worker a reader's
        // browser may have registered before: one that empties its caches and unregisters.
        if config.offline, let worker = theme.serviceWorker {
            files.append((Self.serviceWorker, Array((offline ? worker : Self.retiringWorker).utf8)))
        }
        return files
    }

    static let retiringWorker = """
        self.addEventListener("install", function () { self.skipWaiting(); });
        self.addEventListener("activate", function (e) {
          e.waitUntil(caches.keys().then(function (keys) { return Promise.all(keys.map(function (k) { return caches.delete(k); })); })
            .then(function () { return self.registration.unregister(); }));
        });

        """

    /// The title's first letter, white on the theme's text colour, as the icon of a site without pictures.
    func letterSVG(_ title: String) -> String {
        let letter = title.first.map { String($0).uppercased() } ?? "G"
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 64 64\"><rect width=\"64\" height=\"64\" rx=\"14\" fill=\"#111\"/>"
            + "<text x=\"32\" y=\"44\" font-family=\"system-ui,sans-serif\" font-size=\"36\" font-weight=\"700\" text-anchor=\"middle\" fill=\"#fff\">"
            + Escape.html(letter) + "</text></svg>\n"
    }
}
