#include "CSDBus.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct csdbus_export {
    csdbus_dispatch_fn dispatch;
    csdbus_release_fn release;
    void *context;
};

static int csdbus_method(sd_bus_message *m, void *userdata, sd_bus_error *ret_error) {
    struct csdbus_export *e = userdata;
    return e->dispatch(m, e->context, ret_error);
}

static void csdbus_destroy(void *userdata) {
    struct csdbus_export *e = userdata;
    if (e->release) e->release(e->context);
    free(e);
}

/* Every method is UNPRIVILEGED: without the flag sd-bus itself refuses callers lacking
 * CAP_SYS_ADMIN before our handler runs; the Swift handler decides who may call what. */
#define M(member, in, in_names, out, out_names) \
    SD_BUS_METHOD_WITH_NAMES(member, in, in_names, out, out_names, csdbus_method, SD_BUS_VTABLE_UNPRIVILEGED)

static const sd_bus_vtable permissions1_vtable[] = {
    SD_BUS_VTABLE_START(0),
    M("Get", "ss", SD_BUS_PARAM(app) SD_BUS_PARAM(permission), "s", SD_BUS_PARAM(state)),
    M("List", "s", SD_BUS_PARAM(app), "a{ss}", SD_BUS_PARAM(states)),
    M("ListApps", "", "", "as", SD_BUS_PARAM(apps)),
    M("Set", "sss", SD_BUS_PARAM(app) SD_BUS_PARAM(permission) SD_BUS_PARAM(state), "", ""),
    M("Reset", "ss", SD_BUS_PARAM(app) SD_BUS_PARAM(permission), "", ""),
    M("LastKill", "s", SD_BUS_PARAM(app), "(sssst)", SD_BUS_PARAM(kill)),
    M("TestHook", "s", SD_BUS_PARAM(name), "", ""),
    SD_BUS_SIGNAL_WITH_NAMES("Changed", "ssssb",
        SD_BUS_PARAM(app) SD_BUS_PARAM(permission) SD_BUS_PARAM(old_state) SD_BUS_PARAM(new_state)
        SD_BUS_PARAM(killed), 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable checkindemo1_vtable[] = {
    SD_BUS_VTABLE_START(0),
    M("Tap", "s", SD_BUS_PARAM(element), "", ""),
    M("Type", "ss", SD_BUS_PARAM(field) SD_BUS_PARAM(text), "", ""),
    M("Background", "", "", "", ""),
    M("Foreground", "", "", "", ""),
    M("Quit", "b", SD_BUS_PARAM(force), "", ""),
    M("Screen", "", "", "s", SD_BUS_PARAM(screen)),
    M("State", "", "", "s", SD_BUS_PARAM(json)),
    M("Ready", "", "", "(bs)", SD_BUS_PARAM(ready)),
    M("TestHook", "s", SD_BUS_PARAM(name), "", ""),
    SD_BUS_VTABLE_END,
};

#undef M

static const sd_bus_vtable *csdbus_vtable(csdbus_interface which) {
    switch (which) {
    case CSDBUS_INTERFACE_PERMISSIONS1: return permissions1_vtable;
    case CSDBUS_INTERFACE_CHECKINDEMO1: return checkindemo1_vtable;
    }
    return NULL;
}

const char *csdbus_interface_name(csdbus_interface which) {
    switch (which) {
    case CSDBUS_INTERFACE_PERMISSIONS1: return "org.relaunch.Permissions1";
    case CSDBUS_INTERFACE_CHECKINDEMO1: return "org.relaunch.CheckInDemo1";
    }
    return NULL;
}

static const sd_bus_vtable *csdbus_find_method(csdbus_interface which, const char *member) {
    const sd_bus_vtable *v = csdbus_vtable(which);
    if (!v || !member) return NULL;
    for (; v->type != _SD_BUS_VTABLE_END; v++)
        if (v->type == _SD_BUS_VTABLE_METHOD && strcmp(v->x.method.member, member) == 0)
            return v;
    return NULL;
}

const char *csdbus_method_result(csdbus_interface which, const char *member) {
    const sd_bus_vtable *v = csdbus_find_method(which, member);
    return v ? v->x.method.result : NULL;
}

const char *csdbus_method_signature(csdbus_interface which, const char *member) {
    const sd_bus_vtable *v = csdbus_find_method(which, member);
    return v ? v->x.method.signature : NULL;
}

int csdbus_add_object(sd_bus *bus, sd_bus_slot **ret_slot, const char *path, csdbus_interface which,
                      csdbus_dispatch_fn dispatch, csdbus_release_fn release, void *context) {
    const sd_bus_vtable *vtable = csdbus_vtable(which);
    const char *interface = csdbus_interface_name(which);
    struct csdbus_export *e;
    sd_bus_slot *slot = NULL;
    int r;

    if (!vtable || !dispatch) {
        if (release) release(context);
        return -EINVAL;
    }
    e = malloc(sizeof *e);
    if (!e) {
        if (release) release(context);
        return -ENOMEM;
    }
    e->dispatch = dispatch;
    e->release = release;
    e->context = context;

    r = sd_bus_add_object_vtable(bus, &slot, path, interface, vtable, e);
    if (r < 0) {
        csdbus_destroy(e);
        return r;
    }
    sd_bus_slot_set_destroy_callback(slot, csdbus_destroy);
    *ret_slot = slot;
    return r;
}
