#ifndef PROFCTL_CSQLITE_SHIM_H
#define PROFCTL_CSQLITE_SHIM_H

#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast of -1 to a function pointer: a macro Swift cannot import.
/// Binding with it makes SQLite copy the text before the call returns.
static inline int profctl_sqlite3_bind_text_transient(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

/// sqlite3_db_config is variadic; Swift cannot call it directly.
static inline int profctl_sqlite3_disable_extension_loading(sqlite3 *db) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, (int *)0);
}

/// Double-quoted string literals are a legacy SQLite misfeature: "name" silently becomes
/// a string when no such column exists. Turn it off so analysts' typos are errors.
static inline void profctl_sqlite3_disable_dqs(sqlite3 *db) {
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DDL, 0, (void *)0);
    sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (void *)0);
}

/// SQLite counts every allocation's size under a process-wide mutex unless told not to
/// (sqlite3_config is variadic). profctl reads none of those statistics; without them an
/// event's insert costs about 5 % fewer instructions (callgrind). Takes effect only
/// before SQLite's first use in the process; later it returns SQLITE_MISUSE and changes nothing.
static inline int profctl_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

#endif
