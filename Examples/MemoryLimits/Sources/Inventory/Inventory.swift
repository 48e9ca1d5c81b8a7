/// A small stock-keeping model: what the example's tests put limits on.
public struct Item: Sendable, Hashable {
    public let sku: Int
    public var count: Int

    public init(sku: Int, count: Int) {
        self.sku = sku
        self.count = count
    }
}

/// Items by SKU.
public final class Inventory {
    public private(set) var items: [Int: Item] = [:]

    public init() {}

    public func add(_ item: Item) { items[item.sku, default: Item(sku: item.sku, count: 0)].count += item.count }

    public func remove(sku: Int) { items[sku] = nil }

    public var total: Int { items.values.reduce(0) { $0 + $1.count } }
}

/// A sale's line amounts: a plain class, freed with its last reference.
public final class Receipt {
    public let lines: [Int]

    public init(lines: [Int]) { self.lines = lines }

    public var total: Int { lines.reduce(0, +) }
}

/// Labels built once per SKU and kept: a cache, which grows in the first round only.
public final class LabelCache: @unchecked Sendable {
    private var labels: [Int: String] = [:]

    public init() {}

    public func label(for sku: Int) -> String {
        if let label = labels[sku] { return label }
        let label = "SKU-\(sku)-" + String(repeating: "x", count: 40)
        labels[sku] = label
        return label
    }
}

/// An audit log that keeps every entry for ever: it grows on every call.
public final class AuditLog: @unchecked Sendable {
    public static let shared = AuditLog()
    private var entries: [String] = []

    public func record(_ event: String) { entries.append(event + String(repeating: " ", count: 40)) }
}
