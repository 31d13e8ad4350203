import Foundation

/// What ffprobe says of a video file, as far as publishing it needs: the upright picture size
/// (rotation and pixel shape applied), the length, and whether it has sound.
struct VideoProbe: Equatable {
    var width: Int
    var height: Int
    var duration: Double
    var hasAudio: Bool

    enum Failure: Error, Equatable {
        /// Not JSON, or no streams at all: not a media file ffprobe understands.
        case unreadable
        /// Streams, but none is a moving picture (an audio file, or a still image in a video name).
        case noPicture
        /// A picture without a length.
        case noDuration
    }

    /// The arguments that make ffprobe print what `parse` reads.
    static func arguments(for path: String) -> [String] {
        ["-v", "error", "-hide_banner", "-print_format", "json", "-show_entries",
         "format=duration:stream=codec_type,width,height,duration,sample_aspect_ratio:stream_tags=rotate"
            + ":stream_side_data=rotation:stream_disposition=attached_pic",
         "--", path]
    }

    static func parse(_ data: Data) throws -> VideoProbe {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let streams = root["streams"] as? [[String: Any]], !streams.isEmpty else { throw Failure.unreadable }
        func isCover(_ stream: [String: Any]) -> Bool {
            ((stream["disposition"] as? [String: Any])?["attached_pic"] as? Int) == 1
        }
        guard let video = streams.first(where: { $0["codec_type"] as? String == "video" && !isCover($0) }),
              var width = video["width"] as? Int, var height = video["height"] as? Int, width > 0, height > 0
        else { throw Failure.noPicture }
        if let ratio = video["sample_aspect_ratio"] as? String {
            let parts = ratio.split(separator: ":").compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0, parts[0] != parts[1] {
                width = max(1, Int((Double(width) * parts[0] / parts[1]).rounded()))
            }
        }
        if quarterTurns(video) % 2 == 1 { swap(&width, &height) }
        let format = root["format"] as? [String: Any]
        let duration = number(format?["duration"]) ?? number(video["duration"])
        guard let duration, duration > 0, duration.isFinite else { throw Failure.noDuration }
        let hasAudio = streams.contains { $0["codec_type"] as? String == "audio" }
        return VideoProbe(width: width, height: height, duration: duration, hasAudio: hasAudio)
    }

    /// Quarter turns the player applies: from the display matrix (phones) or an old `rotate` tag.
    private static func quarterTurns(_ stream: [String: Any]) -> Int {
        var degrees: Double?
        if let sideData = stream["side_data_list"] as? [[String: Any]] {
            degrees = sideData.lazy.compactMap { number($0["rotation"]) }.first
        }
        if degrees == nil { degrees = number((stream["tags"] as? [String: Any])?["rotate"]) }
        guard let degrees, degrees.isFinite else { return 0 }
        let turns = Int((degrees / 90).rounded()) % 4
        return (turns + 4) % 4
    }

    /// ffprobe writes some numbers as strings ("12.345000").
    private static func number(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text) }
        if let number = value as? NSNumber { return number.doubleValue }
        return nil
    }
}
