import Profiler
import ProfilerCLI

final class Avatar {
    let initials: String
    var pixels = [UInt8](repeating: 0, count: 32 * 32)
    init(initials: String) { self.initials = initials }
}

final class ProfileCard {
    var lines = ["Ada Lovelace", "Analyst", "London"]
    let avatar = Avatar(initials: "AL")
}

ProfilerMain.run(scenarios: [
    ComponentComparison(name: "profile", summary: "an avatar and a profile card, four ways", components: [
        .component("Avatar") { Avatar(initials: "PD") },
        .component("ProfileCard") { ProfileCard() },
    ]),
])
