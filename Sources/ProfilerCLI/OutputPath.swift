import ArgumentParser
import Foundation
import Profiler

/// Where `-o/--output` writes, checked before any work is done: a report or an export
/// never replaces a SQLite database (the one being read, or any other: `report -o
/// profile.sqlite` used to overwrite the runs with HTML and exit 0), and a folder that
/// does not exist is named instead of surfacing as a Foundation error. A symbolic link is
/// written through: the file it leads to gets the output and the link stays (an atomic
/// write used to replace the link itself with a regular file); a link that leads to no
/// file, or loops, is refused.
package enum OutputPath {
    package static func validate(_ path: String?) throws {
        guard let path else { return }
        guard !path.isEmpty else {
            throw ValidationError("-o/--output is empty: give a file to write, or leave it out to print to stdout")
        }
        guard destination(of: path) != nil else {
            throw ValidationError("-o \(path) is a symbolic link that leads to no file, or loops; "
                                  + "point it at a file (ln -sf FILE \(path)) or give another path")
        }
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw ValidationError("-o \(path) is a folder: give a file inside it, for example \(path)/report.html")
            }
            // Read without opening a named pipe (that would wait for a writer): /dev/stdout stays an output.
            if ProfileStore.mayHoldDatabase(at: path) {
                throw ValidationError("-o \(path) is a SQLite database: profctl does not overwrite a database with its output; choose another file")
            }
            return
        }
        // The folder as the user wrote it (relative stays relative), "." for a bare name.
        let written = (path as NSString).deletingLastPathComponent
        let folder = written.isEmpty ? "." : written
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("-o \(path): the folder \(folder) does not exist; create it first (mkdir -p \(folder))")
        }
    }

    /// How `path` is written: replaced atomically (the path of the file itself), or in place.
    enum Destination: Equatable {
        case atomic(String)
        case inPlace(String)
    }

    /// A new file or a regular one is replaced atomically; a link to a regular file, the file
    /// it leads to (its real path, so that the link stays); anything else (/dev/stdout,
    /// /dev/null, a named pipe, and links into /dev or /proc such as /dev/stdout, which may
    /// lead to a terminal or a pipe) in place. Nil for a link that leads nowhere or loops.
    static func destination(of path: String) -> Destination? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .atomic(path) }
        guard info.st_mode & S_IFMT == S_IFLNK else {
            return info.st_mode & S_IFMT == S_IFREG ? .atomic(path) : .inPlace(path)
        }
        guard stat(path, &info) == 0 else { return nil }
        let system = path.hasPrefix("/dev/") || path.hasPrefix("/proc/")
        guard info.st_mode & S_IFMT == S_IFREG, !system, let real = realpath(path, nil) else { return .inPlace(path) }
        defer { free(real) }
        return .atomic(String(cString: real))
    }

    /// Writes `data` to `path`: a regular file (or a new one) atomically, so that no reader
    /// sees half a report; anything else in place (/dev/stdout, /dev/null, a named pipe),
    /// which an atomic write would replace with a regular file (run as root, even /dev/null).
    /// Through a symbolic link, the same to the file it leads to.
    package static func write(_ data: Data, to path: String) throws {
        switch destination(of: path) {
        case .atomic(let file): return try data.write(to: URL(fileURLWithPath: file), options: .atomic)
        case .inPlace: break
        case nil: throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
    }
}
