import ProfctlCommands

// profctl: every command, without the PostgreSQL client (see ProfctlCommands.SharedStore).
ProfctlEntry.main(sharedStore: nil)
