import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// The gate's promises (issue 10): missing is not passing, aborted and running runs are
/// never results, a pure improvement never fails, every name typed is checked.
@Suite("check: a gate CI can trust")
struct GateProcessTests {
    func sqlite(_ sql: String, in folder: TemporaryFolder) throws {
        let db = folder.url.appendingPathComponent("profile.sqlite")
        let result = try ProfctlProcess.run(executable: URL(fileURLWithPath: "/usr/bin/sqlite3"), [db.path, sql], in: folder.url)
        #expect(result.status == 0, "\(result.stderr)")
    }

    func runIDs(in folder: TemporaryFolder) throws -> [(id: String, status: String)] {
        try ProfctlProcess.run(["query", "SELECT run_id, status FROM runs ORDER BY started_at", "--format", "csv"], in: folder.url).stdout
            .split(whereSeparator: \.isNewline).dropFirst().map { line in
                let fields = line.split(separator: ",").map(String.init)
                return (fields[0], fields[1])
            }
    }

    @Test("a strategy left out is missing: exit 12 in every format, junit failures; --allow-missing passes")
    func missingFails() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5", "--strategies", "eager"], in: folder)
        for format in ["table", "markdown", "json", "github", "junit"] {
            let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", format], in: folder.url)
            #expect(check.status == 12, "\(format): \(check.stdout)\(check.stderr)")
        }
        let table = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
        #expect(table.stdout.contains(": MISSING"))
        #expect(table.stdout.contains("bytes_per_instance") && table.stdout.contains("lazy-realized") && table.stdout.contains("missing"))

        let junit = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", "junit"], in: folder.url)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(junit.stdout.utf8))
        parser.delegate = collector
        #expect(parser.parse())
        // Per component, lazy and lazy-realized each lack bytes and allocations per instance at least.
        #expect(collector.count("failure") >= 12)

        let json = try ProfctlProcess.run(["check", "--baseline", "previous", "--format", "json"], in: folder.url)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let check = try #require((object["checks"] as? [[String: Any]])?.first)
        #expect(check["outcome"] as? String == "missing")

        let allowed = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-missing"], in: folder.url)
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        #expect(allowed.stdout.contains("not in this run (allowed)"))
        #expect(table.stdout.contains("missing metrics fail the check"))
    }

    @Test("a regression together with missing metrics exits 2, not 12")
    func regressionWinsOverMissing() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["image-cache"], in: folder)
        try ProfctlProcess.record(["image-cache", "--set", "icon_side=40", "--strategies", "no-cache,strong-cache"], in: folder)
        let check = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch"], in: folder.url)
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("missing") && check.stdout.contains("regression"))
    }

    @Test("a budget that matches no metric of the run is missing, not a silent pass")
    func budgetMatchingNothing() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5", "--strategies", "eager"], in: folder)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        try """
            budgets:
              - scenario: lazy-container
                strategy: lazy
                metric: bytes_per_instance
                max: 100
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let check = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(check.status == 12, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("matches no metric of this run"))
        #expect(try ProfctlProcess.run(["check", "--budget", budgets.path, "--allow-missing"], in: folder.url).status == 0)

        // Checking every scenario: a budget for a scenario without a complete run checks nothing either.
        try """
            budgets:
              - scenario: image-cache
                metric: live_bytes_while_shown
                max: 100000000
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let unrecorded = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(unrecorded.status == 12, "\(unrecorded.stdout)\(unrecorded.stderr)")
        #expect(unrecorded.stderr.contains("no complete image-cache run to check"))
        // Asking for one scenario limits the check, and its budgets, to it: a file with no
        // budget for that scenario gates nothing, a usage mistake (the review's finding 4).
        let other = try ProfctlProcess.run(["check", "--budget", budgets.path, "--scenario", "lazy-container"], in: folder.url)
        #expect(other.status == 64 && other.stderr.contains("its budgets are for: image-cache"), "\(other.stderr)")
    }

    @Test("a budget whose scenario has no complete run fails in every format, as the exit code does")
    func runlessBudgetInEveryFormat() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let budgets = folder.url.appendingPathComponent("b.yaml")
        try "budgets: [{scenario: image-cache, metric: hit_ratio, min: 0.8}]".write(to: budgets, atomically: true, encoding: .utf8)
        func check(_ format: String, _ extra: [String] = []) throws -> ProfctlProcess.Result {
            try ProfctlProcess.run(["check", "--budget", budgets.path, "--format", format] + extra, in: folder.url)
        }
        let junit = try check("junit")
        #expect(junit.status == 12, "\(junit.stdout)\(junit.stderr)")
        #expect(junit.stdout.contains("<testcase classname=\"image-cache\" name=\"no-run\"><failure"), "\(junit.stdout)")
        #expect(junit.stdout.contains("failures=\"1\""))
        let json = try check("json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["outcome"] as? String == "missing", "\(json.stdout)")
        let unchecked = try #require(object["unchecked"] as? [[String: Any]])
        // lazy-container's run, which no budget names, is listed as not checked too (no-budget), not failing.
        let runless = try #require(unchecked.first { $0["scenario"] as? String == "image-cache" })
        #expect(runless["fails"] as? Bool == true)
        #expect(unchecked.contains { $0["scenario"] as? String == "lazy-container" && $0["status"] as? String == "no-budget" && $0["fails"] as? Bool == false })
        for format in ["table", "markdown"] {
            let text = try check(format)
            #expect(text.stdout.contains("not checked") && text.stdout.contains("image-cache"), "\(format): \(text.stdout)")
            #expect(text.stdout.contains("overall: MISSING") && !text.stdout.contains("overall: PASS"), "\(format): \(text.stdout)")
        }
        #expect(try check("github").stdout.contains("::error title=profctl check image-cache::"))
        // Allowed: exit 0, and every format says pass, still naming what was not checked.
        let allowed = try check("json", ["--allow-missing"])
        #expect(allowed.status == 0)
        let allowedObject = try #require(try JSONSerialization.jsonObject(with: Data(allowed.stdout.utf8)) as? [String: Any])
        #expect(allowedObject["outcome"] as? String == "pass")
        #expect((allowedObject["unchecked"] as? [[String: Any]])?.allSatisfy { $0["fails"] as? Bool == false } == true)
        #expect(try check("junit", ["--allow-missing"]).stdout.contains("name=\"no-run\"><skipped"))
    }

    @Test("a baseline recorded with other parameters is refused (exit 6); allowed, the difference is named in every format")
    func parameterDifferencesNamed() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--set", "items=5"], in: folder)
        try ProfctlProcess.record(["identity", "--set", "items=60"], in: folder)
        let refused = try ProfctlProcess.run(["check", "--baseline", "previous"], in: folder.url)
        #expect(refused.status == 6 && refused.stderr.contains("items 5 in "), "\(refused.stderr)")
        let note = "parameters differ from the baseline: items 5 in "
        let table = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch"], in: folder.url)
        #expect(table.status == 2, "\(table.stdout)\(table.stderr)")
        #expect(table.stdout.contains(note) && table.stdout.contains(" vs 60"), "\(table.stdout)")
        for format in ["markdown", "json", "junit", "github"] {
            let result = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch", "--format", format], in: folder.url)
            #expect(result.status == 2, "\(format)")
            #expect(result.stdout.contains(note), "\(format): \(result.stdout)")
        }
        // The same parameters: no note.
        try ProfctlProcess.record(["identity", "--set", "items=60"], in: folder)
        let same = try ProfctlProcess.run(["check", "--baseline", "previous", "--allow-param-mismatch"], in: folder.url)
        #expect(same.status == 0 && !same.stdout.contains("parameters differ"), "\(same.stdout)")
    }

    @Test("an aborted run, checked or as the baseline, is refused with exit 13 naming its status")
    func abortedRefused() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try sqlite("UPDATE runs SET status = 'aborted', error = 'killed' WHERE started_at = (SELECT max(started_at) FROM runs)", in: folder)
        let runs = try runIDs(in: folder)
        let (complete, aborted) = (runs[0].id, runs[1].id)
        let checked = try ProfctlProcess.run(["check", "--run", aborted, "--baseline", complete], in: folder.url)
        #expect(checked.status == 13, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stderr.contains("is aborted (killed)"))
        #expect(checked.stdout.isEmpty)
        let against = try ProfctlProcess.run(["check", "--run", complete, "--baseline", aborted], in: folder.url)
        #expect(against.status == 13)
        #expect(against.stderr.contains("the baseline, identity run \(aborted.prefix(8)), is aborted"))
        // A label cannot be put on it either.
        let label = try ProfctlProcess.run(["baseline", "set", "main", "--run", aborted], in: folder.url)
        #expect(label.status == 13)

        // report, export and compare show it when asked, and say on stderr it is no result.
        for command in [["report", "--run", aborted], ["export", "--run", aborted], ["compare", complete, aborted]] {
            let result = try ProfctlProcess.run(command, in: folder.url)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is aborted (killed): its figures are partial, not a result"), "\(command)")
        }
    }

    @Test("a running run (its recorder alive) is refused too")
    func runningRefused() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        // This test process is alive, on this host: the run stays `running`.
        try sqlite("""
            UPDATE runs SET status = 'running', process_id = \(ProcessInfo.processInfo.processIdentifier)
            WHERE started_at = (SELECT max(started_at) FROM runs)
            """, in: folder)
        let runs = try runIDs(in: folder)
        #expect(runs[1].status == "running")
        let check = try ProfctlProcess.run(["check", "--run", runs[1].id, "--baseline", runs[0].id], in: folder.url)
        #expect(check.status == 13)
        #expect(check.stderr.contains("is running"))
    }

    @Test("checking the newest runs, a scenario whose newest run is aborted is refused, not passed on the run before it")
    func newestAbortedRefused() throws {
        let folder = try TemporaryFolder()
        for _ in 0..<3 { try ProfctlProcess.record(["identity", "--instances", "5"], in: folder) }
        try sqlite("UPDATE runs SET status = 'aborted', error = 'killed' WHERE started_at = (SELECT max(started_at) FROM runs)", in: folder)
        for arguments in [["check", "--baseline", "previous"], ["check", "--baseline", "previous", "--scenario", "identity"]] {
            let check = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(check.status == 13, "\(arguments): \(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("the newest identity run, identity run"), "\(arguments)")
            #expect(check.stderr.contains("is aborted (killed)"), "\(arguments)")
        }
        // Named on purpose, the complete run before it is still checked.
        let runs = try runIDs(in: folder)
        let named = try ProfctlProcess.run(["check", "--run", runs[1].id, "--baseline", runs[0].id], in: folder.url)
        #expect(named.status == 0, "\(named.stdout)\(named.stderr)")
    }

    @Test("a scenario without a baseline does not hide another scenario's regression behind exit 5")
    func missingBaselineHidesNothing() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["image-cache"], in: folder)
        #expect(try ProfctlProcess.run(["baseline", "set", "main"], in: folder.url).status == 0)
        try ProfctlProcess.record(["image-cache", "--set", "icon_side=48"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)  // new here: main has no identity run
        let check = try ProfctlProcess.run(["check", "--baseline", "main", "--allow-param-mismatch"], in: folder.url)
        #expect(check.status == 2, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("image-cache run") && check.stdout.contains("regression"))
        #expect(check.stderr.contains("not checked, baseline not found: label 'main' has no identity run"))
        // With nothing worse elsewhere, the missing baseline decides: exit 5, the others still shown.
        try ProfctlProcess.record(["image-cache"], in: folder)
        let clean = try ProfctlProcess.run(["check", "--baseline", "main"], in: folder.url)
        #expect(clean.status == 5, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("image-cache run") && clean.stdout.contains(": PASS"))
        let json = try ProfctlProcess.run(["check", "--baseline", "main", "--format", "json"], in: folder.url)
        #expect(json.status == 5 && json.stdout.contains("\"outcome\": \"not-checked\""), "\(json.stdout)")
        #expect(json.stdout.contains("\"reason\": \"no-baseline\""))
    }

    @Test("an empty budgets list, or a budget with min above max, is a mistake in the file: exit 64")
    func budgetsThatGateNothing() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        try "budgets: []\n".write(to: budgets, atomically: true, encoding: .utf8)
        let empty = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(empty.status == 64, "\(empty.stdout)\(empty.stderr)")
        #expect(empty.stderr.contains("the budgets list is empty"))
        try """
            budgets:
              - scenario: lazy-container
                metric: bytes_per_instance
                min: 900
                max: 800
            """.write(to: budgets, atomically: true, encoding: .utf8)
        let contradictory = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
        #expect(contradictory.status == 64, "\(contradictory.stdout)\(contradictory.stderr)")
        #expect(contradictory.stderr.contains("budgets.yaml:2: min 900 is above max 800"))
    }

    @Test("a run id or latest as the baseline cannot be the run checked, nor a run of another scenario")
    func baselineMustBeComparable() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let runs = try runIDs(in: folder)
        let itself = try ProfctlProcess.run(["check", "--run", runs[1].id, "--baseline", "latest"], in: folder.url)
        #expect(itself.status == 64, "\(itself.stdout)\(itself.stderr)")
        #expect(itself.stderr.contains("a run cannot be its own baseline"))
        #expect(itself.stdout.isEmpty)
        let other = try ProfctlProcess.run(["check", "--run", runs[1].id, "--baseline", runs[0].id], in: folder.url)
        #expect(other.status == 64, "\(other.stdout)\(other.stderr)")
        #expect(other.stderr.contains("a baseline is a run of the same scenario"))
    }

    @Test("--scenario naming a scenario without a complete run says which, not that the database has no runs")
    func scenarioWithoutRuns() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        for arguments in [["check", "--baseline", "previous", "--scenario", "image-cache"], ["report", "--scenario", "image-cache"],
                          ["export", "--scenario", "image-cache", "-o", "trace.json"],
                          ["trend", "--scenario", "image-cache", "--metric", "hits"]] {
            let result = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(result.stderr.contains("holds no complete image-cache run yet; record one with: profctl record image-cache"),
                    "\(arguments): \(result.stderr)")
        }
    }

    @Test("a pure improvement passes: saved_bytes going down with every byte figure is context, not a regression")
    func improvementNeverFails() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["image-cache"], in: folder)
        #expect(try ProfctlProcess.run(["baseline", "set", "main"], in: folder.url).status == 0)
        try ProfctlProcess.record(["image-cache", "--set", "icon_side=24"], in: folder)
        let check = try ProfctlProcess.run(["check", "--baseline", "main", "--allow-param-mismatch", "--format", "json"], in: folder.url)
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any])
        let result = try #require((object["checks"] as? [[String: Any]])?.first)
        #expect(result["outcome"] as? String == "improvement")
        let verdicts = try #require(result["verdicts"] as? [[String: Any]])
        let saved = verdicts.filter { $0["metric"] as? String == "saved_bytes" && $0["strategy"] as? String == "strong-cache" }
        #expect(saved.count == 1)
        #expect(saved.first?["status"] as? String == "context")
        #expect(saved.first?["fails"] as? Bool == false)
        #expect((saved.first?["change"] as? Double ?? 0) < 0)
        #expect(!verdicts.contains { $0["fails"] as? Bool == true })
        let strict = try ProfctlProcess.run(["check", "--baseline", "main", "--allow-param-mismatch", "--fail-on-improvement"], in: folder.url)
        #expect(strict.status == 4)
    }

    @Test("latest, previous and median:N are refused as baseline labels")
    func reservedLabels() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        for name in ["latest", "previous", "median:3"] {
            let result = try ProfctlProcess.run(["baseline", "set", name], in: folder.url)
            #expect(result.status == 64, "\(name)")
            #expect(result.stderr.contains("cannot be a baseline label"))
        }
        let list = try ProfctlProcess.run(["baseline", "list", "--format", "csv"], in: folder.url)
        #expect(list.stdout.split(whereSeparator: \.isNewline).count <= 1)
    }

    @Test("compare says which run is A and which is B")
    func compareNamesRuns() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["identity", "--instances", "5"], in: folder)
        let runs = try runIDs(in: folder)
        let table = try ProfctlProcess.run(["compare", runs[0].id, runs[1].id], in: folder.url)
        #expect(table.stdout.hasPrefix("A (baseline): identity run \(runs[0].id.prefix(8))"))
        #expect(table.stdout.contains("\nB: identity run \(runs[1].id.prefix(8))"))
        let csv = try ProfctlProcess.run(["compare", runs[0].id, runs[1].id, "--format", "csv"], in: folder.url)
        #expect(csv.stdout.hasPrefix("metric,"))
        #expect(csv.stderr.contains("A (baseline): identity run \(runs[0].id.prefix(8))"))
    }

    @Test("a typo in a budgets file (scenario, metric, component, strategy) exits 64 naming the valid choices")
    func budgetNamesChecked() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let budgets = folder.url.appendingPathComponent("budgets.yaml")
        let cases: [(field: String, value: String, expected: String)] = [
            ("scenario", "lazy-contaner", "no scenario named 'lazy-contaner'; known: arc-calibration, composite-cell, identity, image-cache, lazy-container"),
            ("metric", "byte_per_instance", "no metric named 'byte_per_instance' in lazy-container; known: allocations_per_instance"),
            ("component", "Lable", "no component named 'Lable' in lazy-container; known: Button, ImageView, Label"),
            ("strategy", "eagr", "no strategy named 'eagr' in lazy-container; known: eager, lazy, lazy-realized"),
        ]
        for (field, value, expected) in cases {
            var fields = ["scenario": "lazy-container", "metric": "bytes_per_instance", "component": "Label", "strategy": "eager"]
            fields[field] = value
            try """
                budgets:
                  - scenario: \(fields["scenario"] ?? "")
                    component: \(fields["component"] ?? "")
                    strategy: \(fields["strategy"] ?? "")
                    metric: \(fields["metric"] ?? "")
                    max: 100000
                """.write(to: budgets, atomically: true, encoding: .utf8)
            let check = try ProfctlProcess.run(["check", "--budget", budgets.path], in: folder.url)
            #expect(check.status == 64, "\(field): \(check.stdout)\(check.stderr)")
            #expect(check.stderr.contains("budgets.yaml:2: " + expected), "\(check.stderr)")
            #expect(check.stdout.isEmpty)
        }
    }

    @Test("--tolerance, --scenario and trend's names are checked: exit 64 with the valid choices")
    func optionNamesChecked() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let tolerance = try ProfctlProcess.run(["check", "--baseline", "previous", "--tolerance", "bytes_per_instanc=2%"], in: folder.url)
        #expect(tolerance.status == 64)
        #expect(tolerance.stderr.contains("--tolerance bytes_per_instanc: no exact metric named 'bytes_per_instanc'; known: allocations_per_instance"),
                "the flag and the name as typed, no stray '=:': \(tolerance.stderr)")
        let derived = try ProfctlProcess.run(["check", "--baseline", "previous", "--tolerance", "saved_bytes=2%"], in: folder.url)
        #expect(derived.status == 64)
        #expect(derived.stderr.contains("saved_bytes is derived"))
        #expect(try ProfctlProcess.run(["check", "--baseline", "previous", "--tolerance", "bytes_per_instance=2%"], in: folder.url).status == 0)

        for command in [["check", "--baseline", "previous"], ["report"], ["export"]] {
            let typo = try ProfctlProcess.run(command + ["--scenario", "lazy-contaner"], in: folder.url)
            #expect(typo.status == 64, "\(command)")
            #expect(typo.stderr.contains("no scenario named 'lazy-contaner'; known: arc-calibration, composite-cell, identity, image-cache, lazy-container"))
        }
        // A built-in scenario never recorded here is known, but has no runs: a different message.
        let unrecorded = try ProfctlProcess.run(["report", "--scenario", "lazy-list"], in: folder.url)
        #expect(unrecorded.status == 1)

        let trendArguments = ["trend", "--scenario", "lazy-container", "--metric", "bytes_per_instance"]
        for (option, value, expected) in [("--metric", "byte_per_instance", "no metric named 'byte_per_instance' in lazy-container; known:"),
                                          ("--component", "Lable", "no component named 'Lable'"),
                                          ("--strategy", "eagr", "no strategy named 'eagr'"),
                                          ("--scenario", "lazy-contaner", "no scenario named 'lazy-contaner'")] {
            var arguments = trendArguments
            if let index = arguments.firstIndex(of: option) { arguments[index + 1] = value } else { arguments += [option, value] }
            let trend = try ProfctlProcess.run(arguments, in: folder.url)
            #expect(trend.status == 64, "\(option)")
            #expect(trend.stderr.contains(expected), "\(trend.stderr)")
        }
    }

    @Test("trend with several series shows every one, with its component and strategy, and names them")
    func trendShowsAllSeries() throws {
        let folder = try TemporaryFolder()
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        try ProfctlProcess.record(["lazy-container", "--instances", "5"], in: folder)
        let trend = try ProfctlProcess.run(["trend", "--scenario", "lazy-container", "--metric", "bytes_per_instance", "--format", "csv"], in: folder.url)
        #expect(trend.status == 0, "\(trend.stderr)")
        let rows = trend.stdout.split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count == 18)
        try #require(rows.allSatisfy { $0.count == 10 },
                     "started_at, run_id, git_commit, branch, component, strategy, value, shift_pct, before_median, after_median")
        let series = Set(rows.map { "\($0[4])/\($0[5])" })
        #expect(series.count == 9)
        #expect(series.contains("Label/lazy") && series.contains("ImageView/lazy-realized"))
        #expect(trend.stderr.contains("9 series of bytes_per_instance: Label / eager"))
        // One series asked for: one series shown.
        let one = try ProfctlProcess.run(["trend", "--scenario", "lazy-container", "--metric", "bytes_per_instance",
                                          "--component", "Label", "--strategy", "eager", "--format", "csv"], in: folder.url)
        #expect(one.stdout.split(whereSeparator: \.isNewline).count == 3)
        #expect(!one.stderr.contains("series"))
    }

    @Test("a scenario file cannot take a built-in name, nor a name holding runs of another kind; nothing is recorded")
    func scenarioFileNames() throws {
        let folder = try TemporaryFolder()
        let builtIn = folder.url.appendingPathComponent("builtin.yaml")
        try "scenario: lazy-list\nname: identity\n".write(to: builtIn, atomically: true, encoding: .utf8)
        let refused = try ProfctlProcess.run(["record", builtIn.path], in: folder.url)
        #expect(refused.status == 64)
        #expect(refused.stderr.contains("builtin.yaml:2:7: name 'identity' is the built-in scenario's name"))

        let feed = folder.url.appendingPathComponent("feed.yaml"), other = folder.url.appendingPathComponent("other.yaml")
        try "scenario: lazy-list\nname: feed\nparameters:\n  rows: 40\n".write(to: feed, atomically: true, encoding: .utf8)
        try "scenario: identity\nname: feed\nparameters:\n  items: 5\n".write(to: other, atomically: true, encoding: .utf8)
        let both = try ProfctlProcess.run(["record", feed.path, other.path], in: folder.url)
        #expect(both.status == 64)
        #expect(both.stderr.contains("the run name 'feed' is also taken by"))
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("profile.sqlite").path))

        try ProfctlProcess.record([feed.path], in: folder)
        let db = folder.url.appendingPathComponent("profile.sqlite")
        let before = try ProfctlProcess.run(["query", "SELECT count(*) FROM runs", "--format", "csv"], in: folder.url).stdout
        let later = try ProfctlProcess.run(["record", other.path], in: folder.url)
        #expect(later.status == 64)
        #expect(later.stderr.contains("already holds runs named 'feed' of kind lazy-list; this one is of kind identity"))
        #expect(try ProfctlProcess.run(["query", "SELECT count(*) FROM runs", "--format", "csv"], in: folder.url).stdout == before)
        #expect(FileManager.default.fileExists(atPath: db.path))
        // The same kind under the same name records fine.
        try ProfctlProcess.record([feed.path], in: folder)
    }
}
