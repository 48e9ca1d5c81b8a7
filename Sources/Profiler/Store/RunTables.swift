/// What belongs to one run besides its events, by column name: what `merge` copies
/// between SQLite files and `push` copies into the PostgreSQL store. One list, so a
/// column added to a per-run table is copied by both or by neither.
package enum RunTables {
    /// The run row's columns (run_key is each database's own).
    package static let runColumns = ["run_id", "scenario", "status", "started_at", "ended_at", "git_commit", "branch", "ci_provider",
                                    "ci_job", "pull_request", "host", "os", "arch", "swift_version", "build_configuration",
                                    "tool_version", "baseline_strategy", "report", "parameters", "process_id", "error",
                                    "arc_counting", "arc_toolchain"]

    /// Tables copied per run, in dependency order, with their columns (run_key is
    /// remapped to the target's; the rest copied as is).
    package static let perRun: [(table: String, columns: [String])] = [
        ("steps", ["step", "name"]),
        ("samples", ["point", "repeat", "strategy", "component", "step", "live_requested_bytes", "live_usable_bytes",
                     "peak_requested_bytes", "elapsed_ns"]),
        ("metrics", ["repeat", "step", "strategy", "name", "value"]),
        ("rollups", ["component", "strategy", "ordinal", "instances", "repeats", "allocations", "requested_bytes", "usable_bytes",
                     "min_instance_requested", "max_instance_requested", "min_instance_usable", "max_instance_usable",
                     "released_requested_bytes", "released_usable_bytes", "retains", "releases", "peak_requested_bytes"]),
        ("step_rollups", ["step", "component", "strategy", "kind", "events", "instances", "requested_bytes", "usable_bytes",
                          "duration_ns_total", "duration_ns_median", "duration_ns_p90", "first_seq", "retains", "releases"]),
        ("latency_rollups", ["step", "component", "strategy", "kind", "repeat", "events", "duration_ns_median"]),
        // What each series' regions allocated, kept no longer than the region (temporaries),
        // and by size class (absent for runs recorded before version 8).
        ("lifetime_rollups", ["component", "strategy", "kind", "regions", "allocations", "requested_bytes", "usable_bytes",
                              "temporaries", "temporary_requested_bytes"]),
        ("size_class_rollups", ["component", "strategy", "kind", "size_class", "allocations", "requested_bytes", "usable_bytes"]),
        // The scenario's declaration as the run recorded it (absent for runs recorded before version 9).
        ("run_declarations", ["declaration"]),
    ]

    /// The counts of an `object_types` row (record --types), copied as they are; its keys
    /// (subject, kind, type name) are translated into the target's own ids.
    package static let objectTypeCounts = ["objects", "requested_bytes", "live_objects", "live_requested_bytes",
                                           "released_objects", "released_requested_bytes"]

    /// The columns of a run's `object_type_runs` row (a run recorded with --types), besides run_key.
    package static let objectTypeRunColumns = ["types", "dropped", "releases"]

    /// The counts of a `sites` row (record --sites), copied as they are. Sites are not in
    /// ``perRun``: their stacks and frames are renumbered into the target's by the merge
    /// (SiteMerge), and the PostgreSQL store has no sites tables yet, so `push` leaves them.
    package static let siteCounts = ["allocations", "frees", "requested_bytes", "usable_bytes",
                                    "live_requested_bytes", "live_usable_bytes"]
}
