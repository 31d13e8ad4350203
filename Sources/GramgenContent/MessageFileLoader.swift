import Foundation
import GramgenCore
import Yams

/// Reads `content/i18n/<language>.yml`: the site's own texts for the theme, each `key: text` or,
/// for a text that depends on a count, `key:` with `one: …`, `other: …` (CLDR plural categories).
/// Which keys exist and which placeholders they take is the theme's to check (`Messages.problems`).
enum MessageFileLoader {
    /// The file for `language` (`ko-KR.yml`, else `ko.yml`), read into overrides with their lines.
    static func load(siteRoot: URL, language: String, diagnostics: inout Diagnostics) -> (path: String, overrides: [MessageOverride])? {
        let content = siteRoot.appendingPathComponent("content")
        let primary = String(language.split(separator: "-").first ?? Substring(language))
        guard let name = [language, primary].first(where: {
            FileManager.default.fileExists(atPath: content.appendingPathComponent("i18n/\($0).yml").path)
        }) else { return nil }
        let path = "content/i18n/\(name).yml"
        guard let text = TextFile.read(siteRoot.appendingPathComponent(path), path: path, required: true, within: content,
                                       diagnostics: &diagnostics) else { return nil }
        let node: Node?
        do {
            node = try Yams.compose(yaml: text, .default, .default, YAMLEncoding.default)
        } catch {
            diagnostics.append(YAMLErrorDescriber.diagnostic(for: error, path: path, lineOffset: 0, lineMap: YAMLLineMap(text)))
            return nil
        }
        guard let node else { return (path, []) }
        guard let mapping = node.mapping else {
            diagnostics.warning(SourceLocation(path, line: 1), "the file must be a list of `key: text` lines, so it is ignored",
                                hint: "see the README, \"Languages\", for the keys")
            return nil
        }
        let fields = FrontMatterFields(mapping: mapping, path: path, lineOffset: 0, lineMap: YAMLLineMap(text))
        var overrides: [MessageOverride] = []
        for (keyNode, value) in mapping {
            guard let key = keyNode.scalar?.string else { continue }
            let location = fields.location(of: keyNode)
            func add(_ message: Message) {
                overrides.append(MessageOverride(key: key, message: message, line: location.line ?? 1, column: location.column ?? 1))
            }
            if let scalar = value.scalar {
                add(.text(scalar.string))
            } else if let forms = value.mapping {
                var plural: [PluralCategory: String] = [:]
                for (formKey, formValue) in forms {
                    guard let name = formKey.scalar?.string, let category = PluralCategory(rawValue: name),
                          let text = formValue.scalar?.string else {
                        diagnostics.warning(fields.location(of: formKey), "'\(formKey.scalar?.string ?? "?")' of '\(key)' is not a plural form, so it is ignored",
                                            hint: "use zero, one, two, few, many or other, each with a text")
                        continue
                    }
                    plural[category] = text
                }
                guard plural[.other] != nil else {
                    diagnostics.warning(location, "'\(key)' has no `other:` form, so the theme's text is kept",
                                        hint: "add `other: …`, the form every language uses")
                    continue
                }
                add(.plural(plural))
            } else {
                diagnostics.warning(location, "'\(key)' must be a text, or `one:`/`other:` forms, so it is ignored",
                                    hint: "write `\(key): \"…\"`")
            }
        }
        return (path, overrides)
    }
}
