import ArgumentParser
import Foundation
import Profiler

/// Where `-o/--output` writes, checked before any work is done: a report or an export
/// never replaces a SQLite database (the one being read, or any other: `report -o
/// profile.sqlite` used to overwrite the runs with HTML and exit 0), and a folder that
/// does not exist is named instead of surfacing as a Foundation error.
public enum OutputPath {
    public static func validate(_ path: String?) throws {
        guard let path else { return }
        guard !path.isEmpty else {
            throw ValidationError("-o/--output is empty: give a file to write, or leave it out to print to stdout")
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

    /// Writes `data` to `path`: a regular file (or a new one) atomically, so that no reader
    /// sees half a report; anything else in place (/dev/stdout, /dev/null, a named pipe),
    /// which an atomic write would replace with a regular file (run as root, even /dev/null).
    public static func write(_ data: Data, to path: String) throws {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG else {
            return try data.write(to: URL(fileURLWithPath: path), options: .atomic)
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? handle.close() }
        try handle.write(contentsOf: data)
    }
}
