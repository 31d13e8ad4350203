import Foundation
import GramgenCore
import GramgenMarkdown
import Yams

/// The `images:` of a post.md, or the folder's photos and videos in natural order.
extension PostLoader {
    func readImages(_ fields: FrontMatterFields, folder: PostFolder, folderPath: String, path: String,
                    diagnostics: inout Diagnostics) -> [ImageSource] {
        let errorsBefore = diagnostics.errorCount
        var images: [ImageSource] = []
        if let node = fields.node("images") {
            guard let sequence = node.sequence else {
                diagnostics.error(fields.location(of: node), "'images' must be a list",
                                  hint: "write one `- file: 1.jpg` line per image, with `alt:` below it")
                return []
            }
            for item in sequence {
                var file: String?
                var alt = ""
                let location = fields.location(of: item)
                if case .scalar(let scalar) = item {
                    file = scalar.string
                } else if let mapping = item.mapping {
                    let itemFields = fields.nested(mapping)
                    itemFields.warnUnknownKeys(known: ["file", "alt"], diagnostics: &diagnostics)
                    file = itemFields.string("file", diagnostics: &diagnostics)
                    alt = itemFields.string("alt", diagnostics: &diagnostics) ?? ""
                    if file == nil {
                        diagnostics.error(location, "an image has no `file:`", hint: "add `file: 1.jpg`")
                        continue
                    }
                } else {
                    diagnostics.error(location, "each image must be a file name or `file:` and `alt:`",
                                      hint: "write `- file: 1.jpg` and `alt: what the photo shows`")
                    continue
                }
                guard let name = file else { continue }
                if let problem = References.fileNameProblem(name) {
                    diagnostics.error(location, problem, hint: "name a file in the post's folder")
                    continue
                }
                guard ImageFiles.isMedia(name) else {
                    diagnostics.error(location, "'\(name)' is not a supported photo or video type",
                                      hint: "use photos (\(MediaType.photoTypesText)) or videos (\(MediaType.videoTypesText))")
                    continue
                }
                let (url, problem) = folder.image(name)
                if let problem {
                    diagnostics.error(location, "'\(name)': \(problem.message)", hint: problem.hint)
                    continue
                }
                images.append(ImageSource(path: "\(folderPath)/\(name)", fileURL: url, alt: alt))
            }
        } else {
            for (name, isPlainFile) in folder.imageFiles() {
                let (url, problem) = folder.image(name, isPlainFile: isPlainFile)
                if let problem {
                    diagnostics.error(SourceLocation("\(folderPath)/\(name)"), problem.message, hint: problem.hint)
                    continue
                }
                images.append(ImageSource(path: "\(folderPath)/\(name)", fileURL: url, alt: ""))
            }
            if images.isEmpty && diagnostics.errorCount == errorsBefore {
                diagnostics.error(SourceLocation(path), "the post has no images",
                                  hint: "put at least one photo (.jpg, .png, .heic …) or video (.mp4, .mov …) in \(folderPath)/")
            }
        }
        let limit = config.maxImagesPerPost
        if images.count > limit {
            diagnostics.error(fields.location(of: fields.node("images")),
                              "the post has \(images.count) images; at most \(limit) are allowed",
                              hint: "remove some, or raise `max_images_per_post` in site.yml")
        }
        if images.isEmpty, fields.node("images") != nil, diagnostics.errorCount == errorsBefore {
            diagnostics.error(fields.location(of: fields.node("images")), "the post has no images",
                              hint: "list at least one image under `images:`")
        }
        return images
    }
}
