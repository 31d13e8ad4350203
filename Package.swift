// swift-tools-version:6.0
import PackageDescription

// The targets form a DAG (drawn in the README, "Architecture"): GramgenCore depends on nothing;
// Markdown (cmark-gfm), Imaging (libvips, FFmpeg) and Render use Core; Content uses Markdown;
// Build uses Content, Imaging, Render and the allocator (jemalloc); Scaffold uses Imaging; Import uses Core; Serve uses
// Build; the gramgen command uses Build, Import, Scaffold and Serve.
let package = Package(
    name: "gramgen",
    products: [
        .executable(name: "gramgen", targets: ["gramgen"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.5.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    ],
    targets: [
        // libvips' headers only: the shim opens the library itself when the first image is
        // processed (Sources/CVipsShim/VipsCalls.h), so only glib and gobject are linked.
        .systemLibrary(name: "CVips", pkgConfig: "gobject-2.0", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .systemLibrary(
            name: "CCmarkGFM", pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]),
        .target(name: "CFileSwap"),
        // jemalloc, the allocator of every gramgen process (Sources/CAllocator/Allocator.c).
        .systemLibrary(name: "CJemalloc", pkgConfig: "jemalloc", providers: [.apt(["libjemalloc-dev"])]),
        .target(name: "CAllocator", dependencies: ["CJemalloc"]),
        .target(name: "GramgenCore"),
        .target(name: "GramgenMarkdown", dependencies: ["CCmarkGFM", "GramgenCore"]),
        .target(
            name: "GramgenImaging",
            dependencies: ["CVipsShim", "CFileSwap", "GramgenCore", .product(name: "Crypto", package: "swift-crypto")]),
        .target(
            name: "GramgenContent",
            dependencies: ["GramgenCore", "GramgenMarkdown", "Yams"]),
        .executableTarget(name: "ThemeEmbedder"),
        .plugin(name: "EmbedTheme", capability: .buildTool(), dependencies: ["ThemeEmbedder"]),
        .target(
            name: "GramgenRender",
            dependencies: ["GramgenCore"],
            plugins: ["EmbedTheme"]),
        .target(
            name: "GramgenBuild",
            dependencies: ["CAllocator", "CFileSwap", "GramgenCore", "GramgenContent", "GramgenImaging", "GramgenRender"]),
        .target(name: "GramgenScaffold", dependencies: ["GramgenCore", "GramgenImaging"]),
        .target(
            name: "GramgenServe",
            dependencies: ["GramgenBuild", .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")]),
        .target(name: "GramgenImport", dependencies: ["GramgenCore"]),
        .executableTarget(
            name: "gramgen",
            dependencies: ["GramgenBuild", "GramgenImport", "GramgenScaffold", "GramgenServe",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "GramgenCoreTests", dependencies: ["GramgenCore"]),
        .testTarget(name: "GramgenMarkdownTests", dependencies: ["GramgenMarkdown"]),
        .testTarget(name: "GramgenImagingTests", dependencies: ["GramgenImaging", "CVipsShim"],
                    linkerSettings: [.linkedLibrary("vips")]),  // tests set EXIF fields with libvips itself
        .testTarget(name: "GramgenContentTests", dependencies: ["GramgenContent"]),
        .testTarget(
            name: "GramgenRenderTests", dependencies: ["GramgenRender", "GramgenContent"],
            resources: [.copy("MustacheSpec")]),
        .testTarget(
            name: "GramgenBuildTests",
            dependencies: ["GramgenBuild", "GramgenServe", .product(name: "PropertyBased", package: "swift-property-based")],
            exclude: ["Fixtures", "Golden"]),
        .testTarget(name: "GramgenCLITests", dependencies: ["gramgen"]),
        .testTarget(
            name: "GramgenImportTests",
            dependencies: ["GramgenImport", "GramgenBuild", "GramgenScaffold", .product(name: "PropertyBased", package: "swift-property-based")], exclude: ["Fixtures"]),
        .testTarget(name: "GramgenScaffoldTests", dependencies: ["GramgenScaffold", "GramgenBuild"]),
        .testTarget(
            name: "GramgenServeTests",
            dependencies: ["GramgenServe", "gramgen", .product(name: "HummingbirdTesting", package: "hummingbird")]),
    ],
    swiftLanguageModes: [.v5]
)
