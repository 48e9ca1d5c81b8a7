import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Runs another program to its end and hands back what it printed: `posix_spawnp`, its
/// standard output read to end of file, then `waitpid`. Foundation's
/// `Process.waitUntilExit()` polls a run loop in 50 ms slices on Linux, which made two
/// `git rev-parse` calls (2.5 ms each) cost a `profctl record` about 100 ms of waiting.
package enum ChildProcess {
    /// How the program ended and what it wrote to standard output.
    package struct Outcome: Sendable {
        /// The exit status, or nil when a signal ended the program.
        package var status: Int32?
        package var output: [UInt8]

        package var succeeded: Bool { status == 0 }
    }

    /// Runs `program` (looked up on PATH when it holds no slash) with `arguments`,
    /// standard error discarded and `input` on standard input (an empty input when nil).
    /// Returns nil when the program could not be started (not installed, no pipe).
    package static func run(_ program: String, _ arguments: [String], input: [UInt8]? = nil) -> Outcome? {
        var outputPipe: [Int32] = [-1, -1]
        guard openPipe(&outputPipe) else { return nil }
        var inputPipe: [Int32] = [-1, -1]
        if input != nil, !openPipe(&inputPipe) {
            close(outputPipe[0]); close(outputPipe[1])
            return nil
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // dup2 clears close-on-exec on the copy: the child keeps exactly 0, 1 and 2.
        if input != nil {
            posix_spawn_file_actions_adddup2(&actions, inputPipe[0], 0)
        } else {
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, program, &actions, nil, argv, environ)
        close(outputPipe[1])
        if input != nil { close(inputPipe[0]) }
        guard spawned == 0 else {
            close(outputPipe[0])
            if input != nil { close(inputPipe[1]) }
            return nil
        }
        // Written from another thread while this one reads, so neither pipe fills up.
        // Not joined: the thread ends once its write is done or fails (EPIPE).
        if let input {
            let descriptor = inputPipe[1]
            Thread {
                writeAll(input, to: descriptor)
                close(descriptor)
            }.start()
        }
        let output = readToEnd(outputPipe[0])
        close(outputPipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return Outcome(status: nil, output: output) }
        }
        // WIFEXITED / WEXITSTATUS, which Swift does not import (they are macros).
        let exited = status & 0x7f == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : nil, output: output)
    }

    /// A pipe whose ends a program started later does not inherit (glibc's pipe2 is not
    /// imported into Swift): close-on-exec set at once, and each end given to the child
    /// only through the spawn's dup2.
    private static func openPipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return true
    }

    private static func readToEnd(_ descriptor: Int32) -> [UInt8] {
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno != EINTR {
                return output
            }
        }
    }

    /// Writes with SIGPIPE blocked on this (short-lived) thread: a program that exits
    /// without reading its input makes `write` fail with EPIPE instead of ending profctl.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &blocked, nil)
        var offset = 0
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let count = write(descriptor, buffer.baseAddress.map { $0 + offset }, buffer.count - offset)
                if count > 0 {
                    offset += count
                } else if count < 0, errno == EINTR {
                    continue
                } else {
                    return
                }
            }
        }
    }
}
