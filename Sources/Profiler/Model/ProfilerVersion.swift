/// profctl's version, recorded with every run and named in exports.
package enum ProfilerVersion {
    /// The version of profctl and of the database format it writes.
    package static let current = "0.1.0"
}
