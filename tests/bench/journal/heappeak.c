/* LD_PRELOAD library: the most heap a program held at once (bytes malloc_usable_size counts, over
 * malloc, calloc, realloc, the aligned allocators and free), written at exit to $HEAPPEAK_OUT.
 *
 * Peak RSS also counts the journal files sd_journal maps (the C floor's RSS is almost all that) and
 * the program's libraries; this counts only what the program allocates, so it shows whether memory
 * grows with the entries read or with the incidents printed.
 *
 * Build: cc -O2 -shared -fPIC -o heappeak.so heappeak.c
 * Usage: HEAPPEAK_OUT=FILE LD_PRELOAD=./heappeak.so PROGRAM...
 */
#define _GNU_SOURCE
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void __libc_free(void *);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static _Atomic long live, peak;

static void held(void *p) {
    if (!p) return;
    long size = (long)malloc_usable_size(p);
    long now = atomic_fetch_add(&live, size) + size;
    long seen = atomic_load(&peak);
    while (now > seen && !atomic_compare_exchange_weak(&peak, &seen, now)) {
    }
}

static void released(void *p) {
    if (p) atomic_fetch_sub(&live, (long)malloc_usable_size(p));
}

void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    held(p);
    return p;
}

void free(void *p) {
    released(p);
    __libc_free(p);
}

void *calloc(size_t count, size_t size) {
    void *p = __libc_calloc(count, size);
    held(p);
    return p;
}

void *realloc(void *old, size_t size) {
    long before = old ? (long)malloc_usable_size(old) : 0;
    void *p = __libc_realloc(old, size);
    if (p || size == 0) {  /* on failure the old block stays */
        atomic_fetch_sub(&live, before);
        held(p);
    }
    return p;
}

void *memalign(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    held(p);
    return p;
}

void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }

void *valloc(size_t size) { return memalign((size_t)sysconf(_SC_PAGESIZE), size); }

int posix_memalign(void **result, size_t alignment, size_t size) {
    void *p = memalign(alignment, size);
    if (!p) return ENOMEM;
    *result = p;
    return 0;
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("HEAPPEAK_OUT");
    FILE *out = path ? fopen(path, "w") : NULL;
    if (!out) return;
    fprintf(out, "%ld\n", atomic_load(&peak));
    fclose(out);
}
