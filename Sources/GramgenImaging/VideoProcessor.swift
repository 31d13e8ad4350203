import Foundation
import GramgenCore

/// Where FFmpeg's two programs are; a site without videos never looks.
public struct FFmpegTools: Sendable {
    public let ffmpeg: URL
    public let ffprobe: URL

    /// Looks both up in `searchPath` (a `PATH`-style list); nil when either is missing.
    public static func find(searchPath: String? = ProcessInfo.processInfo.environment["PATH"]) -> FFmpegTools? {
        let folders = (searchPath ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func locate(_ name: String) -> URL? {
            folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
                .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }
        guard let ffmpeg = locate("ffmpeg"), let ffprobe = locate("ffprobe") else { return nil }
        return FFmpegTools(ffmpeg: ffmpeg, ffprobe: ffprobe)
    }

    public static let missingMessage = "the site has videos, and FFmpeg (ffmpeg and ffprobe) is not installed"
    public static let missingHint = "install it (`sudo apt-get install ffmpeg` on Debian and Ubuntu), or remove the videos"
}

/// A transcoded file waiting in the cache's work folder, and the content name it is published under.
public struct VideoFile: Sendable {
    public var temporary: URL
    public var name: String
}

/// Stage 3 for one video: probe it, check it against the limits, make the poster frame (then
/// processed by the photo pipeline: widths, formats, square tile, placeholder, colour) and
/// transcode it to every size and format in one FFmpeg run. FFmpeg is a child process with a
/// wall-time, processor-time and memory bound; nothing of the source's metadata is copied.
public struct VideoProcessor: Sendable {
    /// Bumped whenever the output for the same input and settings changes, so caches are rebuilt.
    public static let pipelineVersion = 1
    /// Address space FFmpeg may use (a 4K decode plus x264's look-ahead fit well within it).
    static let memoryBytes: UInt64 = 3 << 30

    public let settings: VideoSettings
    public let maxSeconds: Double
    public let maxMegapixels: Double
    public let tools: FFmpegTools
    public let images: ImageProcessor
    /// Told each FFmpeg command line before it runs (`--verbose` prints them; `bench/video.sh` replays them).
    public let log: (@Sendable (String) -> Void)?

    public init(settings: VideoSettings, maxSeconds: Double, maxMegapixels: Double, tools: FFmpegTools, images: ImageProcessor,
                log: (@Sendable (String) -> Void)? = nil) {
        self.settings = settings
        self.maxSeconds = maxSeconds
        self.maxMegapixels = maxMegapixels
        self.tools = tools
        self.images = images
        self.log = log
    }

    /// The length of a video in seconds, for progress lines; nil when ffprobe cannot tell.
    public func duration(of url: URL, workFolder: URL) -> Double? {
        try? probe(url, workFolder: workFolder).duration
    }

    /// Makes the poster's files (in memory, small) and the video files (on disk in `workFolder`).
    public func process(_ url: URL, workFolder: URL) throws -> (ProcessedImage, [String: Data], [VideoFile]) {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.intValue
        if size == 0 {
            throw ImageProblem(message: "the video file is empty", hint: "copy the video again, or remove the file")
        }
        let probed = try probe(url, workFolder: workFolder)
        if probed.duration > maxSeconds {
            throw ImageProblem(message: "the video is \(ProcessedVideo.clock(probed.duration)) long, over the limit of \(ProcessedVideo.clock(maxSeconds))",
                               hint: "trim it, or raise `max_video_seconds` in site.yml")
        }
        let megapixels = Double(probed.width) * Double(probed.height) / 1_000_000
        if megapixels > maxMegapixels {
            throw ImageProblem(
                message: String(format: "the video is %d×%d (%.3g megapixels), over the limit of %.3g",
                                probed.width, probed.height, megapixels, maxMegapixels),
                hint: "export it at a smaller size (4K or less), or raise `max_video_megapixels` in site.yml")
        }
        let outputs = Self.outputs(settings, width: probed.width, height: probed.height)
        guard let largest = outputs.first else {
            throw ImageProblem(message: "the video has no picture", hint: "use a video file with a picture track")
        }
        let poster = workFolder.appendingPathComponent("poster.png")
        try runFFmpeg(Self.posterArguments(input: url.path, output: poster.path, width: largest.width, height: largest.height,
                                           at: Self.posterTime(duration: probed.duration)),
                      seconds: 60, input: url, workFolder: workFolder)
        var (image, files) = try images.process(poster, role: .post)
        image.camera = nil
        var temporaries: [VideoFile] = []
        let targets = outputs.enumerated().map { index, output in
            (output, workFolder.appendingPathComponent("out\(index).\(output.format.fileExtension)"))
        }
        let seconds = 120 + 30 * probed.duration * Double(outputs.count)
        try runFFmpeg(Self.transcodeArguments(input: url.path, outputs: targets.map { ($0.0, $0.1.path) },
                                              settings: settings, hasAudio: probed.hasAudio),
                      seconds: seconds, input: url, workFolder: workFolder)
        var renditions: [VideoRendition] = []
        for (output, file) in targets {
            let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
            guard bytes > 0 else {
                throw ImageProblem(message: "FFmpeg made an empty video file", hint: "the video may be damaged; export it again")
            }
            let name = String(try MediaCache.digest(of: file).prefix(16)) + "." + output.format.fileExtension
            temporaries.append(VideoFile(temporary: file, name: name))
            renditions.append(VideoRendition(format: output.format, width: output.width, height: output.height,
                                             bytes: bytes, file: name))
        }
        image.video = ProcessedVideo(duration: (probed.duration * 1000).rounded() / 1000, hasAudio: probed.hasAudio,
                                     renditions: renditions)
        return (image, files, temporaries)
    }

    func probe(_ url: URL, workFolder: URL) throws -> VideoProbe {
        let outcome = try run(tools.ffprobe, VideoProbe.arguments(for: url.path), seconds: 30, workFolder: workFolder)
        if outcome.timedOut {
            throw ImageProblem(message: "ffprobe did not finish reading the video within 30 seconds",
                               hint: "the file may be damaged or hostile; export it again")
        }
        do {
            return try VideoProbe.parse(outcome.output)
        } catch VideoProbe.Failure.noPicture {
            throw ImageProblem(message: "the file has no moving picture (sound only, or a still image)",
                               hint: "use a video file with a picture track, or remove it")
        } catch VideoProbe.Failure.noDuration {
            throw ImageProblem(message: "the video has no length", hint: "the file may be truncated or damaged; export it again")
        } catch {
            let reason = Self.summary(outcome.errorTail, input: url)
            throw ImageProblem(message: "the file is not a video gramgen can read" + (reason.isEmpty ? "" : " (FFmpeg: \(reason))"),
                               hint: "use a complete \(MediaType.videoTypesText) file; a file cut short must be copied again")
        }
    }

    private func runFFmpeg(_ arguments: [String], seconds: Double, input: URL, workFolder: URL) throws {
        let outcome = try run(tools.ffmpeg, arguments, seconds: seconds, workFolder: workFolder)
        if outcome.timedOut {
            throw ImageProblem(message: "FFmpeg did not finish within \(Int(seconds)) seconds and was stopped",
                               hint: "the file may be damaged or hostile; export it again")
        }
        guard outcome.status == 0 else {
            let reason = Self.summary(outcome.errorTail, input: input)
            let how = outcome.status.map { "exit status \($0)" } ?? "killed, likely over its memory bound"
            throw ImageProblem(message: "FFmpeg could not convert the video (\(how))" + (reason.isEmpty ? "" : ": \(reason)"),
                               hint: "the file may be truncated or damaged; export it again")
        }
        // A file whose index is whole but whose data stops early converts "successfully" to a
        // shorter video; FFmpeg only says so in passing.
        if outcome.errorTail.contains("partial file") {
            throw ImageProblem(message: "the video file is cut short: its data ends before the length it declares",
                               hint: "copy the video again from where it was made")
        }
    }

    private func run(_ tool: URL, _ arguments: [String], seconds: Double, workFolder: URL) throws -> BoundedProcess.Outcome {
        log?(([tool.path] + arguments).map(Self.shellQuoted).joined(separator: " "))
        do {
            return try BoundedProcess.run(tool, arguments, limits: .init(seconds: seconds, memoryBytes: Self.memoryBytes),
                                          workFolder: workFolder)
        } catch {
            throw ImageProblem(message: "cannot run \(tool.lastPathComponent): \(error.localizedDescription)",
                               hint: "check that FFmpeg is installed and the cache folder is writable")
        }
    }

    // MARK: - What FFmpeg is asked to make

    struct Output: Equatable {
        var format: VideoFormat
        var width: Int
        var height: Int
    }

    /// Every file to make: each size (long side, never upscaled, even numbers as H.264 wants) in
    /// MP4 and, when configured, WebM; largest first within a format, WebM first.
    static func outputs(_ settings: VideoSettings, width: Int, height: Int) -> [Output] {
        let longSide = max(width, height)
        var sizes: [(Int, Int)] = []
        for size in settings.sizes.sorted(by: >) {
            let scale = min(1, Double(size) / Double(longSide))
            // The nearest even number (H.264 wants them), never above the source.
            let even = { (value: Int) in max(2, min(Int((Double(value) * scale / 2).rounded()) * 2, value / 2 * 2)) }
            let pair = (even(width), even(height))
            if !sizes.contains(where: { $0 == pair }) { sizes.append(pair) }
        }
        let formats: [VideoFormat] = settings.webm == nil ? [.mp4] : [.webm, .mp4]
        return formats.flatMap { format in sizes.map { Output(format: format, width: $0.0, height: $0.1) } }
    }

    /// Where the poster frame is taken: a second in (past a fade from black), or the middle of a shorter clip.
    static func posterTime(duration: Double) -> Double { min(1, duration / 2) }

    /// Arguments every FFmpeg run starts with: quiet, never reading the terminal, files overwritten.
    private static let common = ["-nostdin", "-hide_banner", "-nostats", "-loglevel", "error", "-y"]

    static func posterArguments(input: String, output: String, width: Int, height: Int, at seconds: Double) -> [String] {
        common + ["-ss", String(format: "%.3f", seconds), "-i", input, "-map", "0:v:0", "-frames:v", "1",
                  "-vf", "scale=\(width):\(height),setsar=1", "-map_metadata", "-1", "-f", "image2", "-c:v", "png", output]
    }

    /// One run that decodes once and writes every output. Only the first picture and sound
    /// tracks are mapped (no data, subtitle or timecode tracks, where GPS and device names
    /// travel); global, stream and chapter metadata are dropped; `+bitexact` writes no creation
    /// time and no encoder name; rotation is applied to the pixels (FFmpeg's autorotate), so the
    /// files carry no display matrix.
    static func transcodeArguments(input: String, outputs: [(Output, String)], settings: VideoSettings,
                                   hasAudio: Bool) -> [String] {
        var arguments = common + ["-i", input]
        let labels = outputs.indices.map { "[v\($0)]" }
        let split = outputs.count > 1 ? "split=\(outputs.count)" + outputs.indices.map { "[s\($0)]" }.joined() + ";" : ""
        let chains = outputs.enumerated().map { index, item in
            (outputs.count > 1 ? "[s\(index)]" : "") + "scale=\(item.0.width):\(item.0.height),setsar=1,format=yuv420p" + labels[index]
        }
        arguments += ["-filter_complex", "[0:v:0]" + split + chains.joined(separator: ";")]
        for (index, (output, path)) in outputs.enumerated() {
            arguments += ["-map", labels[index]]
            if hasAudio { arguments += ["-map", "0:a:0"] }
            switch output.format {
            case .mp4:
                arguments += ["-c:v", "libx264", "-preset", settings.preset, "-crf", String(settings.quality),
                              "-profile:v", "high"]
                if hasAudio { arguments += ["-c:a", "aac", "-b:a", "\(settings.audioBitrate)k", "-ac", "2"] }
                arguments += ["-movflags", "+faststart"]
            case .webm:
                switch settings.webm ?? .vp9 {
                case .vp9:
                    arguments += ["-c:v", "libvpx-vp9", "-crf", String(min(63, settings.quality + 10)), "-b:v", "0",
                                  "-row-mt", "1", "-deadline", "good", "-cpu-used", "4"]
                case .av1:
                    arguments += ["-c:v", "libsvtav1", "-crf", String(min(63, settings.quality + 12)), "-preset", "8"]
                }
                if hasAudio { arguments += ["-c:a", "libopus", "-b:a", "\(max(32, settings.audioBitrate * 3 / 4))k", "-ac", "2"] }
            }
            arguments += ["-map_metadata", "-1", "-map_metadata:s", "-1", "-map_chapters", "-1", "-sn", "-dn",
                          "-fflags", "+bitexact", "-flags:v", "+bitexact", "-flags:a", "+bitexact",
                          "-f", output.format == .mp4 ? "mp4" : "webm", path]
        }
        return arguments
    }

    // MARK: - Messages

    /// A word as a POSIX shell reads it back.
    static func shellQuoted(_ word: String) -> String {
        let plain = word.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_./:=+,@%".unicodeScalars.contains($0)) }
        return plain && !word.isEmpty ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// The first two distinct lines FFmpeg wrote, without the absolute path of the input.
    static func summary(_ errorText: String, input: URL) -> String {
        var seen: [String] = []
        for line in errorText.split(separator: "\n") {
            var text = line.trimmingCharacters(in: .whitespaces)
                .replacingOccurrences(of: input.path, with: input.lastPathComponent)
            if text.hasPrefix("[") , let close = text.firstIndex(of: "]") {
                text = String(text[text.index(after: close)...]).trimmingCharacters(in: .whitespaces)
            }
            if text.isEmpty || seen.contains(text) { continue }
            seen.append(String(text.prefix(200)))
            if seen.count == 2 { break }
        }
        return seen.joined(separator: "; ")
    }
}
