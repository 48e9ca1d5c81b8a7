/* The module's umbrella header: every public header of the hooks, listed by name. With an
 * umbrella directory instead, clang's module cache kept a module built before a header was
 * added, and every existing build folder failed ("cannot find 'profctl_sites_enabled'")
 * until its ModuleCache was deleted; a new header must be added here, which rebuilds it. */
#include "allocation_hooks.h"
#include "allocation_sites.h"
#include "allocation_lifetimes.h"
#include "allocation_arc.h"
#include "allocation_types.h"
#include "allocation_meters.h"
