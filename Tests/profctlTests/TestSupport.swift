import ProfctlTestSupport

/// The helpers both test targets share (Tests/ProfctlTestSupport), named once for every
/// file of this target.
typealias ProfctlProcess = ProfctlTestSupport.ProfctlProcess
typealias TemporaryFolder = ProfctlTestSupport.TemporaryFolder
