#ifndef RELAUNCH_CSDBUS_H
#define RELAUNCH_CSDBUS_H
/* The C that cannot be Swift: an sd-bus vtable built at run time from a description that Swift
 * passes in (sd-bus's macros only build static tables), and a single dispatch hook that forwards
 * every method call to a function provided by Swift. No interface name or member lives here. */
#include <systemd/sd-bus.h>

/** One method or signal of an interface, as Swift describes it. */
typedef struct {
    /** 'M' for a method, 'S' for a signal. */
    char kind;
    const char *member;
    /** Input signature (methods) or the signal's signature. */
    const char *signature;
    /** Output signature of a method ("" for none); ignored for signals. */
    const char *result;
    /** Argument names: each NUL-terminated, inputs then outputs, in signature order. */
    const char *names;
    /** Length of `names` in bytes, NULs included. */
    size_t names_length;
} csdbus_member;

/** Called for every method call on an exported object; returns what an sd-bus method handler returns. */
typedef int (*csdbus_dispatch_fn)(sd_bus_message *m, void *context, sd_bus_error *ret_error);
/** Called once when the export goes away (slot unref or bus closed) so Swift can release context. */
typedef void (*csdbus_release_fn)(void *context);

/** Exports `interface` with `members` at `path` on `bus`; each method call goes to
 *  `dispatch(m, context, error)`. The description is copied. `release(context)` runs when the
 *  returned slot is freed, also when this fails. Returns -errno. */
int csdbus_add_object(sd_bus *bus, sd_bus_slot **ret_slot, const char *path, const char *interface,
                      const csdbus_member *members, size_t count,
                      csdbus_dispatch_fn dispatch, csdbus_release_fn release, void *context);

#endif
