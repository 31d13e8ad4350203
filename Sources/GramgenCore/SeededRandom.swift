import Foundation

/// A deterministic random number generator (SplitMix64). gramgen's randomised tests draw from it,
/// so every run is reproducible: the seed is printed, and `GRAMGEN_SEED=<n>` replays a run.
public struct SeededRandom: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The generator for the test `name`: the seed from `GRAMGEN_SEED`, else a new one each run;
    /// printed either way, so a failure can be replayed.
    public static func forTest(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> SeededRandom {
        let seed = environment["GRAMGEN_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 1...UInt64.max)
        print("\(name): seed \(seed) (replay with GRAMGEN_SEED=\(seed))")
        return SeededRandom(seed: seed)
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
