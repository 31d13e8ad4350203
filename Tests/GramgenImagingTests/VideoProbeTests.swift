import Foundation
import Testing
@testable import GramgenImaging
import GramgenCore

/// What gramgen reads of ffprobe's answer, and what it asks FFmpeg to make.
struct VideoProbeTests {
    private func probe(_ json: String) throws -> VideoProbe { try VideoProbe.parse(Data(json.utf8)) }

    @Test("a phone's display matrix turns the size upright; an old rotate tag too")
    func rotation() throws {
        let matrix = try probe(#"{"streams":[{"codec_type":"video","width":1920,"height":1080,"side_data_list":[{"rotation":-90}]},{"codec_type":"audio"}],"format":{"duration":"12.5"}}"#)
        #expect(matrix == VideoProbe(width: 1080, height: 1920, duration: 12.5, hasAudio: true))
        let tag = try probe(#"{"streams":[{"codec_type":"video","width":640,"height":480,"tags":{"rotate":"270"}}],"format":{"duration":"3"}}"#)
        #expect(tag.width == 480 && tag.height == 640 && !tag.hasAudio)
        let upsideDown = try probe(#"{"streams":[{"codec_type":"video","width":640,"height":480,"side_data_list":[{"rotation":180}]}],"format":{"duration":"3"}}"#)
        #expect(upsideDown.width == 640 && upsideDown.height == 480)
    }

    @Test("non-square pixels are widened to their displayed shape")
    func pixelShape() throws {
        let anamorphic = try probe(#"{"streams":[{"codec_type":"video","width":720,"height":576,"sample_aspect_ratio":"16:11"}],"format":{"duration":"1"}}"#)
        #expect(anamorphic.width == 1047 && anamorphic.height == 576)
    }

    @Test("sound only, a cover picture only, no length, or not JSON: each its own failure")
    func failures() {
        #expect(throws: VideoProbe.Failure.noPicture) {
            try probe(#"{"streams":[{"codec_type":"audio"}],"format":{"duration":"3"}}"#)
        }
        #expect(throws: VideoProbe.Failure.noPicture) {
            try probe(#"{"streams":[{"codec_type":"audio"},{"codec_type":"video","width":600,"height":600,"disposition":{"attached_pic":1}}],"format":{"duration":"3"}}"#)
        }
        #expect(throws: VideoProbe.Failure.noDuration) {
            try probe(#"{"streams":[{"codec_type":"video","width":600,"height":600}],"format":{}}"#)
        }
        #expect(throws: VideoProbe.Failure.unreadable) { try probe("moov atom not found") }
        #expect(throws: VideoProbe.Failure.unreadable) { try probe(#"{"streams":[]}"#) }
    }

    @Test("outputs: long side from the settings, never upscaled, even, WebM first")
    func outputs() {
        var settings = VideoSettings()
        #expect(VideoProcessor.outputs(settings, width: 3840, height: 2160) == [.init(format: .mp4, width: 1080, height: 608)])
        #expect(VideoProcessor.outputs(settings, width: 1080, height: 1920) == [.init(format: .mp4, width: 608, height: 1080)])
        #expect(VideoProcessor.outputs(settings, width: 641, height: 359) == [.init(format: .mp4, width: 640, height: 358)])
        settings.sizes = [480, 1080]
        settings.webm = .av1
        #expect(VideoProcessor.outputs(settings, width: 640, height: 480) == [
            .init(format: .webm, width: 640, height: 480), .init(format: .webm, width: 480, height: 360),
            .init(format: .mp4, width: 640, height: 480), .init(format: .mp4, width: 480, height: 360),
        ])
    }

    @Test("every output drops metadata, extra tracks and the creation time")
    func privacyArguments() {
        let output = VideoProcessor.Output(format: .mp4, width: 640, height: 360)
        let arguments = VideoProcessor.transcodeArguments(input: "in.mov", outputs: [(output, "out.mp4")],
                                                          settings: VideoSettings(), hasAudio: true)
        let joined = arguments.joined(separator: " ")
        for required in ["-map [v0] -map 0:a:0", "-map_metadata -1", "-map_metadata:s -1", "-map_chapters -1", "-sn -dn",
                         "-fflags +bitexact", "-movflags +faststart", "-c:v libx264 -preset medium -crf 23"] {
            #expect(joined.contains(required), "\(required)")
        }
        #expect(arguments.last == "out.mp4")
    }

    @Test("a child over its time is killed; one over its memory fails; output is read back")
    func bounds() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("gramgen-bounded-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let slow = try BoundedProcess.run(URL(fileURLWithPath: "/bin/sleep"), ["30"],
                                          limits: .init(seconds: 0.3, memoryBytes: 1 << 30), workFolder: work)
        #expect(slow.timedOut && slow.status == nil)
        let hungry = try BoundedProcess.run(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", "x = bytearray(400 * 1024 * 1024)"],
                                            limits: .init(seconds: 30, memoryBytes: 200 << 20), workFolder: work)
        #expect(!hungry.timedOut && hungry.status != 0)
        #expect(hungry.errorTail.contains("MemoryError"))
        let fine = try BoundedProcess.run(URL(fileURLWithPath: "/bin/echo"), ["hello"],
                                          limits: .init(seconds: 30, memoryBytes: 1 << 30), workFolder: work)
        #expect(fine.status == 0 && String(decoding: fine.output, as: UTF8.self) == "hello\n")
    }
}
