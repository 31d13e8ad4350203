import Testing
@testable import GramgenRender

/// Every name the built-in templates use is a field some view model declares, so a misspelt
/// `{{captionHtml}}` fails here instead of printing nothing on every page.
struct TemplateFieldsTests {
    /// Every view model's field names; a new view model must be added here (its fields would
    /// otherwise show up as undeclared below).
    static let declared: Set<String> = {
        var names: Set<String> = ["items"] // a `Section`'s one field
        names.formUnion(Catalogue.en.keys) // `{{t.key}}`
        names.formUnion(UserView.fields.byName.keys)
        names.formUnion(PostView.fields.byName.keys)
        names.formUnion(PostActionsView.fields.byName.keys)
        names.formUnion(ExifPhotoView.fields.byName.keys)
        names.formUnion(ExifItemView.fields.byName.keys)
        names.formUnion(LikesView.fields.byName.keys)
        names.formUnion(CommentView.fields.byName.keys)
        names.formUnion(TagLinkView.fields.byName.keys)
        names.formUnion(PaginationView.fields.byName.keys)
        names.formUnion(FeedLinkView.fields.byName.keys)
        names.formUnion(ShareImageView.fields.byName.keys)
        names.formUnion(TabView.fields.byName.keys)
        names.formUnion(ActivityView.fields.byName.keys)
        names.formUnion(PostRefView.fields.byName.keys)
        names.formUnion(MasonryColumnView.fields.byName.keys)
        names.formUnion(MasonryItemView.fields.byName.keys)
        names.formUnion(PageView.fields.byName.keys)
        names.formUnion(ProfileHeaderView.fields.byName.keys)
        names.formUnion(RepostView.fields.byName.keys)
        names.formUnion(PersonView.fields.byName.keys)
        names.formUnion(PostLinkView.fields.byName.keys)
        names.formUnion(SourceView.fields.byName.keys)
        names.formUnion(ImageView.fields.byName.keys)
        names.formUnion(VideoView.fields.byName.keys)
        names.formUnion(VideoSourceView.fields.byName.keys)
        return names
    }()

    /// The field names a template looks up (each part of a dotted name), with the template's name.
    static func used(in nodes: [CompiledTemplate.Node], into names: inout Set<String>) {
        for node in nodes {
            switch node {
            case .variable(let path, _): names.formUnion(path.parts.map(\.text))
            case .section(let path, _, let body):
                names.formUnion(path.parts.map(\.text))
                used(in: body, into: &names)
            case .dynamicPartial(let path, _): names.formUnion(path.parts.map(\.text))
            case .text, .partial: break
            }
        }
    }

    @Test("every field a built-in template uses is declared by a view model", arguments: DefaultTheme.files.keys.filter { $0.hasSuffix(".mustache") }.sorted())
    func declared(_ template: String) throws {
        let compiled = try TemplateParser(try #require(DefaultTheme.files[template])).parse()
        var names = Set<String>()
        Self.used(in: compiled.nodes, into: &names)
        #expect(names.subtracting(Self.declared).sorted() == [], "\(template)")
    }

    @Test("the check finds a misspelt field")
    func catchesTypo() throws {
        var names = Set<String>()
        Self.used(in: try TemplateParser("{{#post}}{{captionHtml}}{{/post}}").parse().nodes, into: &names)
        #expect(names.subtracting(Self.declared) == ["captionHtml"])
    }
}
