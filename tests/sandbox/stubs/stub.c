/* Stand-ins for checkin-demo and permissiond, so the sandbox, the units and the D-Bus policies can be
 * tested before (or without) a Swift build. One source, two behaviours chosen by the program's name:
 *
 *   checkin-demo  READY=1, then WATCHDOG=1 at half the watchdog interval; owns org.relaunch.CheckInDemo1 and serves a little of org.relaunch.App1
 *                 after READY (as the real app does) with Screen/State/Ready (anyone) and Tap (root, by
 *                 the bus policy).
 *   permissiond   owns org.relaunch.Permissions1 with Get (anyone) and Set (root, by the bus policy);
 *                 Set(app, permission, state) calls systemd's KillUnit(app.service, "main", SIGKILL) the
 *                 way the real daemon does, so the unit's privileges are tested for real.
 *   relaunchctl   prints that it is a stub and exits 69 (daemon unreachable), so nobody mistakes it.
 *                 (So does any other name: tests/sandbox/measure-relaunch times exec → main() with it.)
 *
 * checkin-demo logs "launch timing" after READY=1 with LAUNCH_MAIN_USEC and LAUNCH_READY_USEC (wall clock,
 * as RelaunchHost does). With RELAUNCH_STUB_BUS_NAME=none it serves no bus name, so it can run beside the real app.
 *
 * Build: gcc -O2 -o DIR/checkin-demo stub.c -lsystemd  (tests/sandbox/build-stubs does all three). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>
#include <systemd/sd-journal.h>
#include <time.h>

static int screen(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    return sd_bus_reply_method_return(m, "s", "[stub checkin-demo]\n");
}

static int state(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    return sd_bus_reply_method_return(m, "s", "{\"stub\": true}");
}

static int ready(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const char *id = getenv("INVOCATION_ID");
    return sd_bus_reply_method_return(m, "(bs)", 1, id ? id : "");
}

static int tap(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const char *element;
    int r = sd_bus_message_read(m, "s", &element);
    if (r < 0) return r;
    sd_journal_send("MESSAGE=stub tap %s", element, NULL);
    return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable demo_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Screen", "", "s", screen, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("State", "", "s", state, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Ready", "", "(bs)", ready, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Tap", "s", "", tap, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END
};

static int get(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    return sd_bus_reply_method_return(m, "s", "not-determined");
}

static int set(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    const char *app, *permission, *value;
    char unit[256];
    sd_bus_error call_error = SD_BUS_ERROR_NULL;
    int r = sd_bus_message_read(m, "sss", &app, &permission, &value);
    if (r < 0) return r;
    snprintf(unit, sizeof unit, "%s.service", app);
    r = sd_bus_call_method(sd_bus_message_get_bus(m), "org.freedesktop.systemd1", "/org/freedesktop/systemd1",
                           "org.freedesktop.systemd1.Manager", "KillUnit", &call_error, NULL, "ssi",
                           unit, "main", SIGKILL);
    if (r < 0) {
        sd_journal_send("MESSAGE=stub KillUnit(%s) failed: %s", unit, call_error.message, NULL);
        r = sd_bus_error_setf(error, "org.relaunch.Permissions1.Error.Failed", "KillUnit(%s): %s: %s", unit,
                              call_error.name ? call_error.name : "?", call_error.message ? call_error.message : strerror(-r));
        sd_bus_error_free(&call_error);
        return r;
    }
    sd_journal_send("MESSAGE=stub killed %s for %s", unit, permission,
                    "MESSAGE_ID=cec8a90c402d4067a74cf3669006da0e", "APP_ID=%s", app, "UNIT=%s", unit,
                    "PERMISSION=%s", permission, "SIGNAL=9", NULL);
    return sd_bus_reply_method_return(m, "");
}

static const sd_bus_vtable perm_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("Get", "ss", "s", get, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_METHOD("Set", "sss", "", set, SD_BUS_VTABLE_UNPRIVILEGED),
    SD_BUS_VTABLE_END
};

/* Microseconds since the epoch: the journal's clock. */
static unsigned long long realtime_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (unsigned long long)now.tv_sec * 1000000ULL + (unsigned long long)now.tv_nsec / 1000ULL;
}

static int die(const char *what, int r) {
    fprintf(stderr, "stub: %s: %s\n", what, strerror(-r));
    return 1;
}

int main(int argc, char **argv) {
    unsigned long long main_usec = realtime_usec();
    const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
    int demo = strcmp(name, "checkin-demo") == 0;
    sd_event *event = NULL;
    sd_bus *bus = NULL;
    int r;

    if (!demo && strcmp(name, "permissiond") != 0) {
        fprintf(stderr, "%s: this is a stand-in built from tests/sandbox/stubs/stub.c, not the real program\n", name);
        return 69;
    }
    if ((r = sd_event_default(&event)) < 0) return die("sd_event_default", r);
    if ((r = sd_event_set_watchdog(event, 1)) < 0) return die("sd_event_set_watchdog", r);
    if ((r = sd_bus_open_system(&bus)) < 0) return die("sd_bus_open_system", r);
    if ((r = sd_bus_attach_event(bus, event, 0)) < 0) return die("sd_bus_attach_event", r);
    if (demo) {
        r = sd_bus_add_object_vtable(bus, NULL, "/org/relaunch/App1", "org.relaunch.App1", demo_vtable, NULL);
        if (r < 0) return die("add vtable", r);
        sd_journal_send("MESSAGE=stub checkin-demo launched", "MESSAGE_ID=0c3ece682843457296ab0da296a09171",
                        "LAUNCH_OUTCOME=fresh", "BUILD_NUMBER=0", NULL);
        sd_notify(0, "READY=1");
        unsigned long long ready_usec = realtime_usec();
        sd_journal_send("MESSAGE=launch timing", "LAUNCH_MAIN_USEC=%llu", main_usec, "LAUNCH_RESTORED_USEC=%llu", main_usec,
                        "LAUNCH_READY_USEC=%llu", ready_usec, NULL);
        const char *name_choice = getenv("RELAUNCH_STUB_BUS_NAME");
        if (!name_choice || strcmp(name_choice, "none") != 0)
            if ((r = sd_bus_request_name(bus, "org.relaunch.CheckInDemo1", 0)) < 0) return die("request name", r);
    } else {
        r = sd_bus_add_object_vtable(bus, NULL, "/org/relaunch/Permissions1", "org.relaunch.Permissions1", perm_vtable, NULL);
        if (r < 0) return die("add vtable", r);
        if ((r = sd_bus_request_name(bus, "org.relaunch.Permissions1", 0)) < 0) return die("request name", r);
        sd_notify(0, "READY=1");
    }
    r = sd_event_loop(event);
    return r < 0 ? die("event loop", r) : 0;
}
