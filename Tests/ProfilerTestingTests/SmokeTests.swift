import Testing
import ProfilerTesting

@Suite struct Smoke {
    @Test func exactBytes() throws {
        let (_, f) = try TaskMeter.measure {
            let p = UnsafeMutableRawPointer.allocate(byteCount: 1000, alignment: 8)
            let q = UnsafeMutableRawPointer.allocate(byteCount: 3000, alignment: 8)
            q.deallocate()
            return p
        }
        print(f)
        #expect(f.bytes == 4000)
    }
}
