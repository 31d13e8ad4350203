import Foundation

/// The browser half of live reload. Only the preview server knows it: it is injected into HTML
/// responses on the way out, so `gramgen build` output never contains it.
enum LiveReloadScript {
    static let path = "/_gramgen/live.js"
    static let eventsPath = "/_gramgen/events"
    static let tag = "<script src=\"\(path)\"></script>"

    /// Reloads on `reload`; shows build errors in an overlay (as text, never as HTML) on `error`.
    /// EventSource reconnects by itself after the server restarts.
    static let source = """
    (function () {
      "use strict";
      var overlay = null;
      function hide() { if (overlay) { overlay.remove(); overlay = null; } }
      function show(text) {
        hide();
        overlay = document.createElement("div");
        overlay.id = "gramgen-error-overlay";
        overlay.setAttribute("role", "alert");
        overlay.style.cssText = "position:fixed;inset:0;z-index:2147483647;overflow:auto;padding:24px;" +
          "background:rgba(20,20,24,.94);color:#fff;font:14px/1.5 ui-monospace,Menlo,Consolas,monospace";
        var title = document.createElement("div");
        title.textContent = "gramgen: the site has errors; the last good build is shown underneath";
        title.style.cssText = "font-weight:bold;color:#ff6b6b;margin-bottom:12px";
        var body = document.createElement("pre");
        body.textContent = text;
        body.style.cssText = "white-space:pre-wrap;margin:0";
        var close = document.createElement("button");
        close.textContent = "×";
        close.setAttribute("aria-label", "Hide");
        close.style.cssText = "position:absolute;top:8px;right:12px;font-size:24px;background:none;border:0;color:#fff;cursor:pointer";
        close.onclick = hide;
        overlay.appendChild(close);
        overlay.appendChild(title);
        overlay.appendChild(body);
        document.body.appendChild(overlay);
      }
      // The page tells which it is, so a rebuild draws it before the reload (fast render).
      var source = new EventSource("\(eventsPath)?page=" + encodeURIComponent(location.pathname));
      source.addEventListener("reload", function () { hide(); location.reload(); });
      source.addEventListener("error", function (event) {
        if (typeof event.data !== "string") { return; }  // a connection error, not a build error
        var text = event.data;
        try { text = JSON.parse(event.data); } catch (e) {}
        show(String(text));
      });
      source.addEventListener("ok", hide);
    })();

    """

    static let sourceData = Data(source.utf8)

    /// Puts the script tag right before the last `</body>`, or at the end when there is none.
    static func inject(into html: Data) -> Data {
        let marker = Data("</body>".utf8), upper = Data("</BODY>".utf8)
        let tagData = Data(tag.utf8)
        guard let range = html.range(of: marker, options: .backwards) ?? html.range(of: upper, options: .backwards) else {
            return html + tagData
        }
        var result = Data(capacity: html.count + tagData.count)
        result.append(html[html.startIndex..<range.lowerBound])
        result.append(tagData)
        result.append(html[range.lowerBound...])
        return result
    }
}
