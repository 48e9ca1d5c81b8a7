import Foundation

/// The object `--hook-loop arc-*` retains and releases.
final class ARCLoopObject: @unchecked Sendable {
    var value = 0
}

private final class WitnessNode {
    let child: WitnessNode?
    var label: String
    init(child: WitnessNode?, label: String) { self.child = child; self.label = label }
}

private struct WitnessItem: Codable {
    var name: String
    var tags: [String]
}

@inline(never)
private func touch(_ node: WitnessNode) -> Int { node.label.utf8.count }

/// The ARC witness's work (scripts/arc-witness): classes passed around, a closure capture,
/// copy-on-write array copies, small and heap strings and a JSONDecoder decode, `rounds`
/// times. Its symbol is fixed so that callgrind can collect inside it only
/// (`--toggle-collect=profctl_arc_witness_work`).
@inline(never)
@_silgen_name("profctl_arc_witness_work")
func arcWitnessWork(_ rounds: Int) {
    let data = Data(#"[{"name":"a","tags":["x","yz"]},{"name":"a longer name than fifteen","tags":[]}]"#.utf8)
    var total = 0
    for i in 0..<rounds {
        let leaf = WitnessNode(child: nil, label: "leaf")
        let root = WitnessNode(child: leaf, label: "a heap string, longer than fifteen bytes \(i)")
        total &+= touch(root) &+ touch(leaf)
        let capture = { root.label.count + i }
        total &+= capture()
        var numbers = [1, 2, 3, i]
        let copy = numbers
        numbers.append(i)
        total &+= copy.count &+ numbers.count
        let small = "k\(i % 10)"
        total &+= [small, small].count
        if let items = try? JSONDecoder().decode([WitnessItem].self, from: data) { total &+= items.count }
    }
    blackHole(total)
}

@inline(never)
private func blackHole(_ value: Int) { if value == Int.min { print(value) } }
