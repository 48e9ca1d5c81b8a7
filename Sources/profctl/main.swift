import Profiler
final class Three { var a: Int? = nil; var f: () -> Int = { 1 }; weak var p: AnyObject? }
let m = try AllocationScope.measure { Three() }
print(m.allocations, AllocationHooks.isActive, AllocationHooks.totals)
for _ in 0..<3 {
let l = try AllocationScope.measure { Label(text: "Hello, profctl") }
print("label", l.allocations.netLiveBytes, l.allocations.netLiveUsableBytes, l.allocations.allocations)
let b = try AllocationScope.measure { Button(title: "Send") }
print("button", b.allocations.netLiveBytes, b.allocations.allocations)
let i = try AllocationScope.measure { ImageView() }
print("imageview", i.allocations.netLiveBytes, i.allocations.allocations)
let c = try AllocationScope.measure { LazyContainer<Label, View> { Label(text: "x") } }
print("container", c.allocations.netLiveBytes)
let r = try AllocationScope.measure { _ = c.value.ensure(in: View()) }
print("realize", r.allocations.netLiveBytes)
}
