import ArgumentParser

/// --allow-env-mismatch and --allow-param-mismatch: the commands that compare one run's
/// figures with another's (`check`, `sites --diff`) share the rule (Checker.requireComparable)
/// and so the flags that relax it.
struct MismatchAllowance: ParsableArguments {
    @Flag(help: "Compare even when the baseline's (sites --diff: run A's) Swift version, build configuration, OS or architecture differ.")
    var allowEnvMismatch = false

    @Flag(name: .customLong("allow-param-mismatch"),
          help: "Compare even when the baseline (sites --diff: run A) was recorded with other workload parameters (rows, instances, ...; not repeats or strategies).")
    var allowParameterMismatch = false
}
