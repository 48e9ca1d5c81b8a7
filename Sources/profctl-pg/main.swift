import ProfctlCommands

// profctl-pg: profctl's commands with the PostgreSQL client linked in, for --store, push
// and PostgreSQL URLs. profctl hands such command lines here (docs/fleet.md).
ProfctlEntry.main(sharedStore: PostgresSharedStore())
