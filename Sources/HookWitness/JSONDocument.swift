import Foundation

/// A fixed JSON document and the types it decodes into, for `hook-witness json-types`: the
/// Swift objects a JSONDecoder decode allocates, attributed to their types, against what
/// heaptrack sees allocated through swift_allocObject in the same stretch.
public struct WitnessOrder: Codable, Sendable {
    public var id: Int
    public var customer: String
    public var tags: [String]
    public var lines: [WitnessLine]
    public var notes: [String: String]
}

public struct WitnessLine: Codable, Sendable {
    public var sku: String
    public var quantity: Int
    public var price: Double
}

/// Twenty orders of three lines each, with strings long enough to need heap storage.
public let witnessJSONDocument: Data = {
    let orders = (0..<20).map { i in
        """
        {"id":\(i),"customer":"customer number \(i) with a long name","tags":["priority","region-\(i % 3)"],\
        "lines":[{"sku":"SKU-\(i)-A-0000000000","quantity":1,"price":9.5},{"sku":"SKU-\(i)-B","quantity":2,"price":19.25},\
        {"sku":"SKU-\(i)-C-with-a-longer-code","quantity":3,"price":0.75}],"notes":{"gift":"no","delivery":"leave at the door please"}}
        """
    }
    return Data(("[" + orders.joined(separator: ",") + "]").utf8)
}()

/// Decodes the document; the caller keeps the result alive.
@inline(never)
public func decodeWitnessDocument() throws -> [WitnessOrder] {
    try JSONDecoder().decode([WitnessOrder].self, from: witnessJSONDocument)
}
