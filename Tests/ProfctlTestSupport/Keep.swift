/// Keeps a value alive and opaque to the optimizer, so measured allocations are real and a
/// busy loop is not deleted (LLVM removes a malloc/free pair whose result does not escape).
@inline(never)
package func keep<T>(_ value: T) -> T { value }
