/*
 * Runtime caches: blocks the Swift and dispatch runtimes make once and keep for the process,
 * on behalf of whichever task happens to need them first. A meter leaves them out
 * (meters.c, meter_allocated), counting them apart, because which test pays for them depends
 * on the order tests run in, not on what the test does (docs/testing.md, "Exactness"):
 *
 *   - type metadata and the caches behind it (generic instantiation, the metadata
 *     allocator's 16 KB pages, protocol conformance and witness table caches, mangled-name
 *     lookups): made on a type's first use in the process, by any test;
 *   - lazily initialized globals (swift_once, and every library's one-time initializers):
 *     made by the first test that touches one;
 *   - dispatch's continuations: an enqueue takes a 64 B block from its thread's cache, or
 *     from the heap when that cache is empty, which depends on what ran on that thread
 *     before; the block goes back to a thread's cache, kept for the thread's life;
 *   - the dynamic loader's: a thread's first touch of a library's thread-local storage
 *     (when it did not fit the static block), and dlopen's own bookkeeping.
 *
 * Told apart by where the allocation comes from: a frame-pointer walk of the allocating
 * thread's stack, looking for a return address inside one of those functions. Their ranges
 * are read once, when the first meter opens, from the symbol tables of the files the loaded
 * objects came from (many are local symbols, absent from the dynamic linker's). What
 * cannot be resolved (a stripped library, another runtime) is simply not left out: a figure
 * then includes it, which fails a limit rather than passes one.
 *
 * Platform-specific: it reads ELF symbol tables and glibc's loader (a Darwin port reads
 * Mach-O's instead: docs/hooks.md, "The files").
 *
 * A leaf: the hooks call it (meters.c, meter_scopes.c) and it calls nothing of theirs but
 * sites.c's stack walk.
 */
#define _GNU_SOURCE
#include "hooks_internal.h"
#include "sites.h"

#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sched.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* The functions whose allocations are caches kept for the process, by the start of their
 * symbol names (a prefix also takes a C++ template's every instantiation, and the exported
 * entry points that tail-call into static ones: their return addresses are never on a stack). */
static const char *const cache_makers[] = {
    /* type metadata: instantiation, its caches, and the metadata allocator under them */
    "_ZL25_swift_getGenericMetadata", "swift_getGenericMetadata", "swift_getCanonicalSpecializedMetadata",
    "swift_getCanonicalPrespecializedGenericMetadata", "swift_getSingletonMetadata", "swift_getForeignTypeMetadata",
    "swift_getTupleTypeMetadata", "swift_getFunctionTypeMetadata", "swift_getExtendedFunctionTypeMetadata",
    "swift_getMetatypeMetadata", "swift_getExistentialTypeMetadata", "swift_getExistentialMetatypeMetadata",
    "swift_getExtendedExistentialType", "swift_getFixedArrayTypeMetadata", "swift_getOpaqueTypeMetadata",
    "swift_checkMetadataState", "_ZN5swift17MetadataAllocator", "_ZN5swift25ConcurrentReadableHashMap",
    "_ZN5swift38StableAddressConcurrentReadableHashMap", "_ZN5swift20LockingConcurrentMap",
    /* protocol conformances and witness tables */
    "swift_conformsToProtocol", "_ZL52swift_conformsToProtocolMaybeInstantiateSuperclasses",
    "swift_getWitnessTable", "swift_getAssociatedTypeWitness", "swift_getAssociatedConformanceWitness",
    "swift_getOpaqueTypeConformance",
    /* mangled-name lookups (the compiler's accessors for generic types call these) */
    "swift_getTypeByMangledName",
    /* lazily initialized globals: swift_once, and the slow path it tail-calls */
    "swift_once", "_ZN5swift14threading_impl9once_slow",
    /* dispatch's: an enqueue's continuation when its thread's cache is empty */
    "_dispatch_continuation_alloc_from_heap",
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Compared a byte at a time, stopping at the first that differs: nearly every name differs
 * from every prefix in its first bytes, and strlen and strncmp for each name and prefix were
 * most of the first meter's open (BENCHMARKS.md, "Leaving the runtimes' caches out"). */
static bool starts_with(const char *name, const char *prefix) {
    while (*prefix && *name == *prefix) { name++; prefix++; }
    return !*prefix;
}

/* A cache maker: one of the names above, or a one-time initializer of a global (the Swift
 * mangling's `WZ` suffix), in any library. The initializers are named one by one because
 * swift_once's slow path is missed by the walk when the initializer keeps no frame pointer
 * (libTesting's do not: Swift Testing's first #expect made a 64 B lock in whichever test got
 * there first); the initializer's own return address is on the stack all the same. */
static bool cache_maker(const char *name, size_t length) {
    if (length > 4 && name[0] == '$' && name[length - 2] == 'W' && name[length - 1] == 'Z') return true;
    if (name[0] != 's' && name[0] != '_') return false;
    for (size_t i = 0; i < COUNT(cache_makers); i++) {
        if (starts_with(name, cache_makers[i])) return true;
    }
    return false;
}

/* Functions told apart at most (template instantiations and initializers included): more
 * are not left out. */
#define MAX_RANGES 4096
/* Libraries with any (each a span for the quick test below). */
#define MAX_SPANS 64

typedef struct code_range { uintptr_t start, end; } code_range;

/* Sorted by start once resolved, and read-only from then on. */
static code_range ranges[MAX_RANGES];
static uint32_t range_count;
/* Each library's span of ranges: most return addresses (the test's own code) fall outside all. */
static code_range spans[MAX_SPANS];
static uint32_t span_count;
/* 0 not resolved, 1 resolving, 2 resolved. */
static _Atomic int resolved;

static void add_range(uintptr_t start, uintptr_t end, code_range *span) {
    if (range_count == MAX_RANGES || start >= end) return;
    ranges[range_count++] = (code_range){ start, end };
    if (!span->start || start < span->start) span->start = start;
    if (end > span->end) span->end = end;
}

/* The cache makers of one loaded object (a library, or the executable, which holds the
 * runtime when the standard library is linked statically), from the symbol table of the file
 * it was loaded from (.symtab, else .dynsym, which has the exported ones only): mapped, read
 * and unmapped, nothing allocated. */
static void add_cache_makers(const char *path, uintptr_t base) {
    if (span_count == MAX_SPANS) return;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st;
    void *file = fstat(fd, &st) == 0 && st.st_size > (off_t)sizeof(ElfW(Ehdr))
        ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (file == MAP_FAILED) return;
    const uint8_t *bytes = file;
    size_t length = (size_t)st.st_size;
    const ElfW(Ehdr) *header = file;
    const ElfW(Shdr) *table = NULL;
    if (memcmp(header->e_ident, ELFMAG, SELFMAG) == 0 && header->e_shentsize == sizeof(ElfW(Shdr))
        && header->e_shoff + (size_t)header->e_shnum * sizeof(ElfW(Shdr)) <= length) {
        const ElfW(Shdr) *sections = (const ElfW(Shdr) *)(bytes + header->e_shoff);
        for (uint32_t s = 0; s < header->e_shnum; s++) {
            bool usable = sections[s].sh_link < header->e_shnum && sections[s].sh_offset + sections[s].sh_size <= length
                && sections[sections[s].sh_link].sh_offset + sections[sections[s].sh_link].sh_size <= length;
            if (!usable) continue;
            if (sections[s].sh_type == SHT_SYMTAB) { table = &sections[s]; break; }
            if (sections[s].sh_type == SHT_DYNSYM) table = &sections[s];
        }
        if (table) {
            const ElfW(Shdr) *strings = &sections[table->sh_link];
            const ElfW(Sym) *symbols = (const ElfW(Sym) *)(bytes + table->sh_offset);
            const char *names = (const char *)(bytes + strings->sh_offset);
            size_t n = table->sh_size / sizeof(ElfW(Sym));
            code_range *span = &spans[span_count];
            *span = (code_range){ 0, 0 };
            for (size_t i = 0; i < n; i++) {
                const ElfW(Sym) *sym = &symbols[i];
                if (ELF64_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_value || !sym->st_size) continue;
                if (sym->st_name >= strings->sh_size) continue;
                const char *name = names + sym->st_name;
                const char *end = memchr(name, 0, strings->sh_size - sym->st_name);
                if (!end || !cache_maker(name, (size_t)(end - name))) continue;
                add_range(base + sym->st_value, base + sym->st_value + sym->st_size, span);
            }
            if (span->end) span_count++;
        }
    }
    munmap(file, length);
}

/* Each loaded object's cache makers; the loader's code whole (its own symbols are not in its
 * file): every allocation it makes is its own bookkeeping. */
static int add_object(struct dl_phdr_info *object, size_t size, void *loader_base) {
    (void)size;
    if (object->dlpi_addr == (ElfW(Addr))(uintptr_t)loader_base) {
        if (span_count == MAX_SPANS) return 0;
        code_range *span = &spans[span_count];
        *span = (code_range){ 0, 0 };
        for (ElfW(Half) i = 0; i < object->dlpi_phnum; i++) {
            const ElfW(Phdr) *segment = &object->dlpi_phdr[i];
            if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_X)) continue;
            uintptr_t start = object->dlpi_addr + segment->p_vaddr;
            add_range(start, start + segment->p_memsz, span);
        }
        if (span->end) span_count++;
        return 0;
    }
    /* The executable is the first object, with an empty name; the vDSO has no file. */
    const char *path = object->dlpi_name && object->dlpi_name[0] ? object->dlpi_name : "/proc/self/exe";
    if (object->dlpi_name && object->dlpi_name[0] && object->dlpi_name[0] != '/') return 0;
    add_cache_makers(path, object->dlpi_addr);
    return 0;
}

void runtime_caches_resolve(void) {
    int expected = 0;
    if (!atomic_compare_exchange_strong(&resolved, &expected, 1)) {
        /* Another thread is reading them: a meter opened meanwhile must not count what the
         * ranges will leave out, so every opener waits for them (once per process). */
        while (atomic_load_explicit(&resolved, memory_order_acquire) != 2) sched_yield();
        return;
    }
    uint8_t state = tls.state;
    tls.state = STATE_BUSY; /* the dynamic linker may allocate: forwarded, uncounted */
    void *tls_get_addr = dlsym(RTLD_DEFAULT, "__tls_get_addr");
    Dl_info info;
    struct link_map *loader = NULL;
    if (!tls_get_addr || !dladdr1(tls_get_addr, &info, (void **)&loader, RTLD_DL_LINKMAP)) loader = NULL;
    dl_iterate_phdr(add_object, (void *)(uintptr_t)(loader ? loader->l_addr : UINTPTR_MAX));
    tls.state = state;
    /* Sorted for the binary search (a few thousand at most: insertion sort, once). */
    for (uint32_t i = 1; i < range_count; i++) {
        code_range r = ranges[i];
        uint32_t j = i;
        while (j > 0 && ranges[j - 1].start > r.start) { ranges[j] = ranges[j - 1]; j--; }
        ranges[j] = r;
    }
    atomic_store_explicit(&resolved, 2, memory_order_release);
}

uint32_t profctl_meter_runtime_cache_functions(void) {
    return atomic_load_explicit(&resolved, memory_order_acquire) == 2 ? range_count : 0;
}

/* Whether return address `r` is inside one of the functions (a return address follows its
 * call, so it may equal a function's end, never its start). */
static bool in_cache_function(uintptr_t r) {
    bool spanned = false;
    for (uint32_t i = 0; i < span_count && !spanned; i++) spanned = r > spans[i].start && r <= spans[i].end;
    if (!spanned) return false;
    uint32_t low = 0, high = range_count;
    while (low < high) { /* the last range starting before r */
        uint32_t mid = (low + high) / 2;
        if (ranges[mid].start < r) low = mid + 1;
        else high = mid;
    }
    return low > 0 && r <= ranges[low - 1].end;
}

/* Frames walked: from the hooks' own (4 or 5) past the runtime's metadata instantiation
 * (about 15 frames), and past swift_once above a lazy global's whole initializer, which may
 * be deep: a configuration decoded with JSONDecoder allocates 40 to 60 frames under it in a
 * debug build, and 32 frames charged its blocks, kept for good, to whichever test touched it
 * first. The walk stops at the stack's end, so a shallow stack costs no more; an initializer
 * allocating deeper than this is counted, which fails a limit rather than passes one. */
#define WALK_DEPTH PROFCTL_SITES_MAX_DEPTH

/* Return addresses found in none of the functions, per thread: the same frames (the test's
 * own, swift_allocObject's and swift_slowAlloc's, the stdlib's Array and String) come back at
 * every allocation, and the ranges never change once resolved, so an address found outside
 * them once is outside them for good: remembered, it skips the spans' test and the search.
 * Direct-mapped. */
#define OUTSIDE_SLOTS 64
static TLS uintptr_t outside[OUTSIDE_SLOTS];

bool runtime_cache_allocation(void *frame) {
    if (atomic_load_explicit(&resolved, memory_order_acquire) != 2 || !range_count) return false;
    uintptr_t frames[WALK_DEPTH];
    uint32_t n = sites_frames_here(frame, frames, WALK_DEPTH);
    for (uint32_t f = 0; f < n; f++) {
        uintptr_t r = frames[f];
        uintptr_t *slot = &outside[(r * 0x9E3779B97F4A7C15ull) >> 58]; /* 64 slots: the top 6 bits of a Fibonacci hash */
        if (*slot == r) continue;
        if (in_cache_function(r)) return true;
        *slot = r;
    }
    return false;
}
