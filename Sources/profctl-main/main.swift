// Foundation is imported here, where release builds compile with -static-stdlib (Package.swift),
// so that this file names the static libraries Foundation's archives need (ICU, CoreFoundation).
import Foundation
import ProfctlCommands

// profctl: every command, without the PostgreSQL client (see ProfctlCommands.SharedStore).
ProfctlEntry.main(sharedStore: nil)
