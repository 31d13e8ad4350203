import Mustache

/// How `{{value}}` is escaped in every template: `Escape.html`, one Unicode scalar at a time.
///
/// swift-mustache's own HTML escaping compares whole Characters, and a `"` followed by a combining
/// mark (`"\u{301}`) is one Character that is not `"`: it went out unescaped and closed the
/// attribute, so an alt text could add `onload=…` to an `<img>`. HTML parsers read code points,
/// so escaping has to look at code points too. Every template starts with the `CONTENT_TYPE`
/// pragma naming this type (see `Theme.load`); site overrides get it the same way.
struct ScalarHTMLContentType: MustacheContentType {
    static let name = "GRAMGEN_HTML"
    /// Put in front of each template; the pragma's own line is removed by the parser.
    static let pragma = "{{% CONTENT_TYPE: \(name) }}\n"

    /// Registers the type once per process, before the first template is parsed.
    static let registered: Void = MustacheContentTypes.register(ScalarHTMLContentType(), named: name)

    func escapeText(_ text: String) -> String { Escape.html(text) }
}
