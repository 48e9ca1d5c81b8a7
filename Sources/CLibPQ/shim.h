#ifndef PROFCTL_CLIBPQ_SHIM_H
#define PROFCTL_CLIBPQ_SHIM_H

// Debian's libpq-dev: the PostgreSQL client library (pkg-config libpq puts
// /usr/include/postgresql on the include path).
#include <libpq-fe.h>

#endif
