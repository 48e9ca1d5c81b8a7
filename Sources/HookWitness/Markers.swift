/// Sizes of the allocations that mark the measured window in heaptrack's record: nothing
/// else asks for exactly these.
public let witnessBeginMarker = 1_234_567
public let witnessEndMarker = 7_654_321
