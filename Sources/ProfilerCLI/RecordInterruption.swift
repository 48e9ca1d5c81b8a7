import Foundation
import Profiler

/// Ctrl-C during `record`: instead of dying silently with 130, say what was kept. The
/// runs this process was recording are marked aborted, "interrupted" (RunInterruption),
/// each named on stderr with the events kept, and profctl exits 130 (ExitCodes).
enum RecordInterruption {
    /// Replaces SIGINT's default action (ending the process at once) for the rest of the
    /// process. The handler only writes a byte to a pipe (what a signal handler may do);
    /// a thread of its own reads it and does the work. A dispatch signal source lost
    /// Ctrl-Cs here: on Linux it reads a signalfd, and a SIGINT the kernel hands to a
    /// thread that does not block it is simply ignored.
    static func install(database path: String) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return }
        let readEnd = ends[0]
        interruptionPipe = ends[1]
        let waiter = Thread {
            var byte: UInt8 = 0
            while read(readEnd, &byte, 1) < 0 && errno == EINTR {}
            // It ends with _exit, not exit(): the measuring and writer threads are still
            // running, and atexit handlers and destructors run under them could crash.
            // Committed batches are in the database (its -wal, checkpointed by the next open).
            report(database: path)
        }
        waiter.start()
        signal(SIGINT) { _ in
            var byte: UInt8 = 1
            _ = write(interruptionPipe, &byte, 1)
        }
        // A parent may start profctl with SIGINT blocked (the mask is inherited: Swift
        // Testing's runner does); the threads this one starts from here inherit it unblocked.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    static func report(database path: String) -> Never {
        do {
            try RunInterruption.markInterrupted(database: path) { runs in
                if runs.isEmpty { Console.message("profctl: interrupted (Ctrl-C) before a run was started; nothing was recorded") }
                for run in runs {
                    Console.message("profctl: interrupted (Ctrl-C): run \(run.runID) (\(run.scenario)) kept \(run.eventsKept) events in \(path), "
                        + "marked aborted (interrupted): reports and check skip it. Delete it with: profctl prune --aborted --db \(path)")
                }
                _exit(ExitCodes.interrupted)
            }
        } catch {
            Console.message("profctl: interrupted (Ctrl-C); the run could not be marked (\(error)): the next profctl to open \(path) marks it aborted")
            _exit(ExitCodes.interrupted)
        }
    }
}

/// Where the SIGINT handler writes (a C function pointer captures nothing); set once,
/// before the handler is installed.
nonisolated(unsafe) private var interruptionPipe: Int32 = -1
