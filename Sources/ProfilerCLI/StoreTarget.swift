import ArgumentParser

/// A PostgreSQL store as the user names it (`--store`, `push --to`): a `postgres://` or
/// `postgresql://` URL, or a libpq `key=value` string. Checked before profctl hands the
/// command to profctl-pg, so a typo is a usage error (64), not "profctl-pg missing" (25)
/// or a connection failure.
package enum StoreTarget {
    package static func validate(_ target: String?, flag: String) throws {
        guard let target else { return }
        let trimmed = target.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { throw ValidationError("\(flag) is empty: give a postgres:// URL or a libpq key=value string") }
        let isURL = trimmed.hasPrefix("postgres://") || trimmed.hasPrefix("postgresql://")
        // libpq's own parser judges a key=value string in full (it allows spaces around '=').
        let isKeyValue = trimmed.contains("=")
        guard isURL || isKeyValue else {
            throw ValidationError("\(flag) '\(target)' is not a PostgreSQL connection string: give a postgres://USER@HOST[:PORT]/DB URL "
                                  + "or libpq key=value pairs, for example 'host=db.example dbname=profctl user=ci'")
        }
    }
}
