#ifndef RELAUNCH_CSDBUS_H
#define RELAUNCH_CSDBUS_H
/* The C that cannot be Swift: the two sd-bus vtables (built by macros into static tables) and a
 * single dispatch hook that forwards every method call to a function provided by Swift. */
#include <systemd/sd-bus.h>

/** Which of the project's D-Bus interfaces to export. */
typedef enum {
    CSDBUS_INTERFACE_PERMISSIONS1 = 0,   /* org.relaunch.Permissions1 */
    CSDBUS_INTERFACE_CHECKINDEMO1 = 1,   /* org.relaunch.CheckInDemo1 */
} csdbus_interface;

/** Called for every method call on an exported object; returns what an sd-bus method handler returns. */
typedef int (*csdbus_dispatch_fn)(sd_bus_message *m, void *context, sd_bus_error *ret_error);
/** Called once when the export goes away (slot unref or bus closed) so Swift can release context. */
typedef void (*csdbus_release_fn)(void *context);

/** The interface name of `which` (e.g. "org.relaunch.Permissions1"), or NULL. */
const char *csdbus_interface_name(csdbus_interface which);

/** The vtable's output signature of `member` on `which` ("" for none), or NULL if there is no such method. */
const char *csdbus_method_result(csdbus_interface which, const char *member);

/** The vtable's input signature of `member` on `which`, or NULL if there is no such method. */
const char *csdbus_method_signature(csdbus_interface which, const char *member);

/** Exports `which` at `path` on `bus`; each call goes to `dispatch(m, context, error)`.
 *  `release(context)` runs when the returned slot is freed, also when this fails. Returns -errno. */
int csdbus_add_object(sd_bus *bus, sd_bus_slot **ret_slot, const char *path, csdbus_interface which,
                      csdbus_dispatch_fn dispatch, csdbus_release_fn release, void *context);

#endif
