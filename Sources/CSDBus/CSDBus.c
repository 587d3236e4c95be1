#include "CSDBus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* One export: the vtable built for it, the strings it points into, and Swift's hook. */
struct csdbus_export {
    csdbus_dispatch_fn dispatch;
    csdbus_release_fn release;
    void *context;
    char *interface;
    sd_bus_vtable *vtable;
    char **strings;
    size_t string_count;
};

static int csdbus_method(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    struct csdbus_export *e = userdata;
    return e->dispatch(m, e->context, ret_error);
}

static void csdbus_destroy(void *userdata) {
    struct csdbus_export *e = userdata;
    if (e->release) e->release(e->context);
    for (size_t i = 0; i < e->string_count; i++) free(e->strings[i]);
    free(e->strings);
    free(e->vtable);
    free(e->interface);
    free(e);
}

/* Keeps a copy of `length` bytes (NULs included) for the export's lifetime. */
static const char *csdbus_keep(struct csdbus_export *e, const char *text, size_t length) {
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, text, length);
    copy[length] = '\0';
    e->strings[e->string_count++] = copy;
    return copy;
}

int csdbus_add_object(sd_bus *bus, sd_bus_slot **ret_slot, const char *path, const char *interface,
                      const csdbus_member *members, size_t count,
                      csdbus_dispatch_fn dispatch, csdbus_release_fn release, void *context) {
    static const sd_bus_vtable start = SD_BUS_VTABLE_START(0);
    static const sd_bus_vtable end = SD_BUS_VTABLE_END;
    struct csdbus_export *e;
    sd_bus_slot *slot = NULL;
    int r;

    if (!dispatch || !interface || (count > 0 && !members)) {
        if (release) release(context);
        return -EINVAL;
    }
    e = calloc(1, sizeof *e);
    if (!e) {
        if (release) release(context);
        return -ENOMEM;
    }
    e->dispatch = dispatch;
    e->release = release;
    e->context = context;
    e->interface = strdup(interface);
    e->vtable = calloc(count + 2, sizeof(sd_bus_vtable));  /* unused union areas must be zero */
    e->strings = calloc(count * 4 + 1, sizeof(char *));
    if (!e->interface || !e->vtable || !e->strings) {
        csdbus_destroy(e);
        return -ENOMEM;
    }
    e->vtable[0] = start;
    for (size_t i = 0; i < count; i++) {
        const csdbus_member *d = &members[i];
        sd_bus_vtable *v = &e->vtable[i + 1];
        const char *member = csdbus_keep(e, d->member, strlen(d->member));
        const char *signature = csdbus_keep(e, d->signature, strlen(d->signature));
        const char *names = csdbus_keep(e, d->names ? d->names : "", d->names ? d->names_length : 0);
        if (!member || !signature || !names) {
            csdbus_destroy(e);
            return -ENOMEM;
        }
        if (d->kind == 'M') {
            const char *result = csdbus_keep(e, d->result ? d->result : "", d->result ? strlen(d->result) : 0);
            if (!result) {
                csdbus_destroy(e);
                return -ENOMEM;
            }
            v->type = _SD_BUS_VTABLE_METHOD;
            /* UNPRIVILEGED: without it sd-bus refuses callers lacking CAP_SYS_ADMIN before the handler
             * runs; the Swift handler decides who may call what. */
            v->flags = SD_BUS_VTABLE_UNPRIVILEGED;
            v->x.method.member = member;
            v->x.method.signature = signature;
            v->x.method.result = result;
            v->x.method.handler = csdbus_method;
            v->x.method.offset = 0;
            v->x.method.names = names;
        } else if (d->kind == 'S') {
            v->type = _SD_BUS_VTABLE_SIGNAL;
            v->flags = 0;
            v->x.signal.member = member;
            v->x.signal.signature = signature;
            v->x.signal.names = names;
        } else {
            csdbus_destroy(e);
            return -EINVAL;
        }
    }
    e->vtable[count + 1] = end;

    r = sd_bus_add_object_vtable(bus, &slot, path, e->interface, e->vtable, e);
    if (r < 0) {
        csdbus_destroy(e);
        return r;
    }
    sd_bus_slot_set_destroy_callback(slot, csdbus_destroy);
    *ret_slot = slot;
    return r;
}
