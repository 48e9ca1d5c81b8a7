// Compare two of your own types, each built eagerly, in a lazy container, in one realized, and from a cache.
import Profiler
import ProfilerCLI

final class Thumbnail {
    var pixels = [UInt8](repeating: 0, count: 64 * 64)
}

struct Caption {
    var text = "Harbour at dawn"
    var tags = ["sea", "morning"]
}

// Takes profctl record's options: `--db gallery.sqlite --instances 500`, `--strategies eager,lazy`.
ProfilerMain.run(scenarios: [
    ComponentComparison(name: "gallery", summary: "a thumbnail and a caption, four ways", components: [
        .component("Thumbnail") { Thumbnail() },
        .component("Caption") { Caption() },
    ]),
])
