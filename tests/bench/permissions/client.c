/* client: one sd-bus client for benchmarking permissiond against xdg-permission-store.
 *
 * Every mode opens one connection to the bus at --address (default $DBUS_SYSTEM_BUS_ADDRESS) and
 * makes its calls one after another on it. A timed mode warms up first (--warmup calls, not
 * counted), then times each call's round trip with CLOCK_MONOTONIC and prints one line:
 *
 *     get-permissiond n=500 median=0.190 p90=0.230 p99=0.410 max=0.900 mean=0.200
 *
 * (milliseconds; percentiles by nearest rank). Every call has a timeout (--timeout-ms, default
 * 5000); any failed call aborts with one line on stderr and exit status 1.
 *
 * Modes:
 *   get-permissiond N      org.relaunch.Permissions1.Get(app, permission)
 *   set-permissiond N      ...Set(app, permission, state), state alternating allowed/denied
 *                          (starting from the opposite of the current state, so each call changes it)
 *   get-xdg N              org.freedesktop.impl.portal.PermissionStore.GetPermission(table, id, app)
 *   set-xdg N              ...SetPermission(table, true, id, app, [yes]/[no] alternating)
 *   get-bus N              org.freedesktop.DBus.GetConnectionUnixUser(own name): one round trip to
 *                          dbus-daemon itself, the floor under any call through the bus (and the
 *                          call sd-bus makes to learn a caller's uid)
 *   ping-permissiond N     org.freedesktop.DBus.Peer.Ping to permissiond, which sd-bus answers
 *                          itself on the bus thread: the floor of any call to that process
 *   ping-xdg N             the same to xdg-permission-store (GDBus answers it itself)
 *   reject-permissiond N   Get with an invalid app id: everything a Get does but read SQLite
 *                          (the InvalidArgs error it answers is the expected reply)
 *   toggle-permissiond S   load: set-permissiond in a loop for S seconds (or until SIGTERM/SIGINT);
 *                          prints "toggle-permissiond sets=N seconds=S" when it stops
 *   fake-systemd STATE S   serves a stand-in org.freedesktop.systemd1 for S seconds (or until
 *                          SIGTERM): GetUnit answers NoSuchUnit (STATE=not-loaded) or a unit that
 *                          is active with a main process (STATE=running), whose KillUnit succeeds
 *                          and gives it a new InvocationID, as a restart would; prints the calls
 *                          it answered when it stops
 *   wait S NAME...         returns once every NAME has an owner, or fails after S seconds
 *
 * Build: cc -O2 -o client client.c $(pkg-config --cflags --libs libsystemd)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>
#include <time.h>
#include <unistd.h>

#define PERMISSIONS_NAME "org.relaunch.Permissions1"
#define PERMISSIONS_PATH "/org/relaunch/Permissions1"
#define XDG_NAME "org.freedesktop.impl.portal.PermissionStore"
#define XDG_PATH "/org/freedesktop/impl/portal/PermissionStore"

static const char *opt_address;
static const char *opt_app = "checkin-demo";
static const char *opt_permission = "camera";
static const char *opt_table = "relaunch-bench";
static const char *opt_id = "camera";
static long opt_warmup = 50;
static uint64_t opt_timeout_usec = 5 * 1000000ULL;
static const char *mode;
static volatile sig_atomic_t stopping;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fprintf(stderr, "client: %s: ", mode ? mode : "usage");
    vfprintf(stderr, fmt, args);
    fputc('\n', stderr);
    va_end(args);
    exit(1);
}

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void on_stop_signal(int sig) {
    (void)sig;
    stopping = 1;
}

static sd_bus *connect_bus(void) {
    const char *address = opt_address ? opt_address : getenv("DBUS_SYSTEM_BUS_ADDRESS");
    if (!address || !*address) die("no bus address: pass --address ADDR or set DBUS_SYSTEM_BUS_ADDRESS");
    sd_bus *bus = NULL;
    int r = sd_bus_new(&bus);
    if (r >= 0) r = sd_bus_set_address(bus, address);
    if (r >= 0) r = sd_bus_set_bus_client(bus, 1);
    if (r >= 0) r = sd_bus_set_method_call_timeout(bus, opt_timeout_usec);
    if (r >= 0) r = sd_bus_start(bus);
    if (r < 0) die("cannot connect to %s: %s", address, strerror(-r));
    return bus;
}

/* One call's failure: the D-Bus error if there is one, else errno. */
static void die_call(const char *what, long index, int r, const sd_bus_error *error) {
    if (sd_bus_error_is_set(error))
        die("call %ld (%s) failed: %s: %s", index, what, error->name, error->message ? error->message : "");
    die("call %ld (%s) failed: %s", index, what, strerror(-r));
}

/* ---- the calls ---- */

static const char *permissiond_get(sd_bus *bus, long index) {
    static char state[64];
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(bus, PERMISSIONS_NAME, PERMISSIONS_PATH, PERMISSIONS_NAME, "Get", &error, &reply,
                               "ss", opt_app, opt_permission);
    if (r < 0) die_call("Get", index, r, &error);
    const char *value = NULL;
    r = sd_bus_message_read(reply, "s", &value);
    if (r < 0) die("call %ld (Get): bad reply: %s", index, strerror(-r));
    snprintf(state, sizeof state, "%s", value);
    sd_bus_message_unref(reply);
    return state;
}

static void permissiond_set(sd_bus *bus, long index, const char *state) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int r = sd_bus_call_method(bus, PERMISSIONS_NAME, PERMISSIONS_PATH, PERMISSIONS_NAME, "Set", &error, NULL,
                               "sss", opt_app, opt_permission, state);
    if (r == -EINTR && stopping) return; /* toggle-permissiond told to stop while waiting for a reply */
    if (r < 0) die_call("Set", index, r, &error);
}

static void xdg_get(sd_bus *bus, long index) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int r = sd_bus_call_method(bus, XDG_NAME, XDG_PATH, XDG_NAME, "GetPermission", &error, &reply, "sss",
                               opt_table, opt_id, opt_app);
    if (r < 0) die_call("GetPermission", index, r, &error);
    char **permissions = NULL;
    r = sd_bus_message_read_strv(reply, &permissions);
    if (r < 0) die("call %ld (GetPermission): bad reply: %s", index, strerror(-r));
    for (char **p = permissions; p && *p; p++) free(*p);
    free(permissions);
    sd_bus_message_unref(reply);
}

static void xdg_set(sd_bus *bus, long index, const char *value) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int r = sd_bus_call_method(bus, XDG_NAME, XDG_PATH, XDG_NAME, "SetPermission", &error, NULL, "sbssas",
                               opt_table, 1, opt_id, opt_app, 1, value);
    if (r < 0) die_call("SetPermission", index, r, &error);
}

static void bus_get_uid(sd_bus *bus, long index) {
    const char *unique = NULL;
    int r = sd_bus_get_unique_name(bus, &unique);
    if (r < 0) die("no unique name: %s", strerror(-r));
    sd_bus_error error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                           "GetConnectionUnixUser", &error, &reply, "s", unique);
    if (r < 0) die_call("GetConnectionUnixUser", index, r, &error);
    sd_bus_message_unref(reply);
}

static void ping(sd_bus *bus, long index, const char *destination, const char *path) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int r = sd_bus_call_method(bus, destination, path, "org.freedesktop.DBus.Peer", "Ping", &error, NULL, "");
    if (r < 0) die_call("Ping", index, r, &error);
}

static void permissiond_reject(sd_bus *bus, long index) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    int r = sd_bus_call_method(bus, PERMISSIONS_NAME, PERMISSIONS_PATH, PERMISSIONS_NAME, "Get", &error, NULL, "ss",
                               "-invalid-", opt_permission);
    if (r >= 0) die("call %ld (Get of an invalid app id) succeeded; expected InvalidArgs", index);
    if (!sd_bus_error_has_name(&error, SD_BUS_ERROR_INVALID_ARGS)) die_call("Get of an invalid app id", index, r, &error);
    sd_bus_error_free(&error);
}

/* ---- timing ---- */

static int compare_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples. */
static double percentile(const double *sorted, long n, double p) {
    long rank = (long)((p / 100.0) * n + 0.999999999);
    if (rank < 1) rank = 1;
    if (rank > n) rank = n;
    return sorted[rank - 1];
}

static void report(const char *name, double *samples, long n) {
    double sum = 0;
    for (long i = 0; i < n; i++) sum += samples[i];
    qsort(samples, n, sizeof *samples, compare_double);
    printf("%s n=%ld median=%.3f p90=%.3f p99=%.3f max=%.3f mean=%.3f\n", name, n, percentile(samples, n, 50),
           percentile(samples, n, 90), percentile(samples, n, 99), samples[n - 1], sum / n);
    fflush(stdout);
}

typedef void (*call_fn)(sd_bus *bus, long index);

static long toggle_index;
static const char *next_permissiond_state;

static void call_get_permissiond(sd_bus *bus, long index) { (void)permissiond_get(bus, index); }
static void call_get_xdg(sd_bus *bus, long index) { xdg_get(bus, index); }
static void call_get_bus(sd_bus *bus, long index) { bus_get_uid(bus, index); }
static void call_ping_permissiond(sd_bus *bus, long index) { ping(bus, index, PERMISSIONS_NAME, PERMISSIONS_PATH); }
static void call_ping_xdg(sd_bus *bus, long index) { ping(bus, index, XDG_NAME, XDG_PATH); }
static void call_reject_permissiond(sd_bus *bus, long index) { permissiond_reject(bus, index); }

static void call_set_permissiond(sd_bus *bus, long index) {
    permissiond_set(bus, index, next_permissiond_state);
    next_permissiond_state = strcmp(next_permissiond_state, "allowed") == 0 ? "denied" : "allowed";
}

static void call_set_xdg(sd_bus *bus, long index) {
    xdg_set(bus, index, (toggle_index++ % 2) ? "no" : "yes");
}

static void timed(sd_bus *bus, call_fn call, long n) {
    double *samples = calloc(n, sizeof *samples);
    if (!samples) die("out of memory");
    for (long i = 0; i < opt_warmup; i++) call(bus, -1 - i);
    for (long i = 0; i < n; i++) {
        double start = now_ms();
        call(bus, i);
        samples[i] = now_ms() - start;
    }
    report(mode, samples, n);
    free(samples);
}

/* Each Set changes the state: start from the opposite of the stored one. */
static void prepare_permissiond_set(sd_bus *bus) {
    next_permissiond_state = strcmp(permissiond_get(bus, 0), "allowed") == 0 ? "denied" : "allowed";
}

/* ---- toggle-permissiond ---- */

static void toggle(sd_bus *bus, double seconds) {
    struct sigaction action = {.sa_handler = on_stop_signal};
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    prepare_permissiond_set(bus);
    double deadline = now_ms() + seconds * 1e3, start = now_ms();
    long sets = 0;
    while (!stopping && now_ms() < deadline) call_set_permissiond(bus, sets++);
    printf("toggle-permissiond sets=%ld seconds=%.1f\n", sets, (now_ms() - start) / 1e3);
    fflush(stdout);
}

/* ---- wait ---- */

static void wait_names(sd_bus *bus, double seconds, char **names, int count) {
    double deadline = now_ms() + seconds * 1e3;
    for (int i = 0; i < count; i++) {
        for (;;) {
            sd_bus_error error = SD_BUS_ERROR_NULL;
            sd_bus_message *reply = NULL;
            int owned = 0;
            int r = sd_bus_call_method(bus, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "NameHasOwner", &error, &reply, "s", names[i]);
            if (r < 0) die_call("NameHasOwner", i, r, &error);
            r = sd_bus_message_read(reply, "b", &owned);
            sd_bus_message_unref(reply);
            if (r < 0) die("bad NameHasOwner reply: %s", strerror(-r));
            if (owned) break;
            if (now_ms() > deadline) die("%s has no owner after %.0f s; did its daemon start (see its log)?", names[i], seconds);
            usleep(20 * 1000);
        }
    }
}

/* ---- fake-systemd ---- */

#define UNIT_PATH "/org/freedesktop/systemd1/unit/relaunch_2dbench_2eservice"
static int fake_running;
static uint8_t invocation_id[16];
static long answered_get_unit, answered_kill_unit, answered_properties;

static void new_invocation_id(void) {
    for (size_t i = 0; i < sizeof invocation_id; i++) invocation_id[i] = (uint8_t)random();
}

static int method_get_unit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    const char *unit = NULL;
    int r = sd_bus_message_read(m, "s", &unit);
    if (r < 0) return r;
    answered_get_unit++;
    if (!fake_running)
        return sd_bus_error_setf(error, "org.freedesktop.systemd1.NoSuchUnit", "Unit %s not loaded.", unit);
    return sd_bus_reply_method_return(m, "o", UNIT_PATH);
}

/* GetUnitByPID: every process is in the benchmark app's unit (permissiond asks once per connection
 * that is not root, to learn which app it is). */
#define APP_UNIT_PATH "/org/freedesktop/systemd1/unit/checkin_2ddemo_2eservice"
static long answered_get_unit_by_pid;

static int method_get_unit_by_pid(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    (void)error;
    uint32_t pid = 0;
    int r = sd_bus_message_read(m, "u", &pid);
    if (r < 0) return r;
    answered_get_unit_by_pid++;
    return sd_bus_reply_method_return(m, "o", APP_UNIT_PATH);
}

static int method_kill_unit(sd_bus_message *m, void *userdata, sd_bus_error *error) {
    (void)userdata;
    const char *unit = NULL, *whom = NULL;
    int32_t sig = 0;
    int r = sd_bus_message_read(m, "ssi", &unit, &whom, &sig);
    if (r < 0) return r;
    answered_kill_unit++;
    if (!fake_running)
        return sd_bus_error_setf(error, "org.freedesktop.systemd1.NoSuchUnit", "Unit %s not loaded.", unit);
    new_invocation_id(); /* the killed instance is replaced by a new one, as Restart= would */
    return sd_bus_reply_method_return(m, "");
}

static int property_string(sd_bus *bus, const char *path, const char *interface, const char *property,
                           sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)error;
    answered_properties++;
    return sd_bus_message_append(reply, "s", (const char *)userdata);
}

static int property_invocation_id(sd_bus *bus, const char *path, const char *interface, const char *property,
                                  sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)userdata; (void)error;
    answered_properties++;
    return sd_bus_message_append_array(reply, 'y', invocation_id, sizeof invocation_id);
}

static int property_main_pid(sd_bus *bus, const char *path, const char *interface, const char *property,
                             sd_bus_message *reply, void *userdata, sd_bus_error *error) {
    (void)bus; (void)path; (void)interface; (void)property; (void)userdata; (void)error;
    answered_properties++;
    return sd_bus_message_append(reply, "u", (uint32_t)4242);
}

static const sd_bus_vtable manager_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_METHOD("GetUnit", "s", "o", method_get_unit, 0),
    SD_BUS_METHOD("KillUnit", "ssi", "", method_kill_unit, 0),
    SD_BUS_METHOD("GetUnitByPID", "u", "o", method_get_unit_by_pid, 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable unit_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("ActiveState", "s", property_string, 0, 0),
    SD_BUS_PROPERTY("InvocationID", "ay", property_invocation_id, 0, 0),
    SD_BUS_VTABLE_END,
};

static const sd_bus_vtable service_vtable[] = {
    SD_BUS_VTABLE_START(0),
    SD_BUS_PROPERTY("MainPID", "u", property_main_pid, 0, 0),
    SD_BUS_VTABLE_END,
};

static void fake_systemd(sd_bus *bus, const char *state, double seconds) {
    if (strcmp(state, "running") == 0) fake_running = 1;
    else if (strcmp(state, "not-loaded") != 0) die("state '%s' is not one of: not-loaded, running", state);
    srandom((unsigned)getpid());
    new_invocation_id();
    /* The Unit vtable's userdata is ActiveState's value (its property offset is 0). */
    static const char active[] = "active";
    int r = sd_bus_add_object_vtable(bus, NULL, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager",
                                     manager_vtable, NULL);
    if (r >= 0)
        r = sd_bus_add_object_vtable(bus, NULL, UNIT_PATH, "org.freedesktop.systemd1.Unit", unit_vtable,
                                     (void *)active);
    if (r >= 0)
        r = sd_bus_add_object_vtable(bus, NULL, UNIT_PATH, "org.freedesktop.systemd1.Service", service_vtable, NULL);
    if (r >= 0) r = sd_bus_request_name(bus, "org.freedesktop.systemd1", 0);
    if (r < 0) die("cannot serve org.freedesktop.systemd1: %s", strerror(-r));
    struct sigaction action = {.sa_handler = on_stop_signal};
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    double deadline = now_ms() + seconds * 1e3;
    while (!stopping && now_ms() < deadline) {
        r = sd_bus_process(bus, NULL);
        if (r < 0) die("bus: %s", strerror(-r));
        if (r > 0) continue;
        r = sd_bus_wait(bus, 200 * 1000);
        if (r < 0 && r != -EINTR) die("bus: %s", strerror(-r));
    }
    printf("fake-systemd state=%s GetUnitByPID=%ld GetUnit=%ld KillUnit=%ld properties=%ld\n", state, answered_get_unit_by_pid, answered_get_unit,
           answered_kill_unit, answered_properties);
    fflush(stdout);
}

/* ---- main ---- */

static void usage(FILE *out) {
    fprintf(out,
            "usage: client [options] MODE ARG...\n"
            "  get-permissiond N | set-permissiond N | get-xdg N | set-xdg N\n"
            "  get-bus N | ping-permissiond N | ping-xdg N | reject-permissiond N\n"
            "  toggle-permissiond SECONDS | fake-systemd not-loaded|running SECONDS | wait SECONDS NAME...\n"
            "options:\n"
            "  --address ADDR      bus address (default $DBUS_SYSTEM_BUS_ADDRESS)\n"
            "  --app APP           app id (default checkin-demo)\n"
            "  --permission P      permissiond permission (default camera)\n"
            "  --table T --id ID   xdg-permission-store table and id (default relaunch-bench, camera)\n"
            "  --warmup N          untimed calls first (default 50)\n"
            "  --timeout-ms MS     per-call timeout (default 5000)\n");
}

static long parse_count(const char *text, const char *what) {
    char *end = NULL;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (errno || !end || *end || value < 0) die("%s '%s' is not a non-negative integer", what, text);
    return value;
}

int main(int argc, char **argv) {
    int i = 1;
    for (; i < argc && strncmp(argv[i], "--", 2) == 0; i++) {
        const char *option = argv[i];
        if (strcmp(option, "--help") == 0) {
            usage(stdout);
            return 0;
        }
        if (i + 1 >= argc) die("%s needs a value", option);
        const char *value = argv[++i];
        if (strcmp(option, "--address") == 0) opt_address = value;
        else if (strcmp(option, "--app") == 0) opt_app = value;
        else if (strcmp(option, "--permission") == 0) opt_permission = value;
        else if (strcmp(option, "--table") == 0) opt_table = value;
        else if (strcmp(option, "--id") == 0) opt_id = value;
        else if (strcmp(option, "--warmup") == 0) opt_warmup = parse_count(value, "--warmup");
        else if (strcmp(option, "--timeout-ms") == 0) opt_timeout_usec = 1000ULL * parse_count(value, "--timeout-ms");
        else die("unknown option %s (see --help)", option);
    }
    if (i + 2 > argc) {
        usage(stderr);
        return 2;
    }
    mode = argv[i];
    const char *arg = argv[i + 1];
    sd_bus *bus = connect_bus();

    if (strcmp(mode, "get-permissiond") == 0) {
        timed(bus, call_get_permissiond, parse_count(arg, "N"));
    } else if (strcmp(mode, "set-permissiond") == 0) {
        prepare_permissiond_set(bus);
        timed(bus, call_set_permissiond, parse_count(arg, "N"));
    } else if (strcmp(mode, "get-xdg") == 0) {
        xdg_set(bus, 0, "yes"); /* GetPermission answers NotFound for an id never set */
        timed(bus, call_get_xdg, parse_count(arg, "N"));
    } else if (strcmp(mode, "set-xdg") == 0) {
        timed(bus, call_set_xdg, parse_count(arg, "N"));
    } else if (strcmp(mode, "get-bus") == 0) {
        timed(bus, call_get_bus, parse_count(arg, "N"));
    } else if (strcmp(mode, "ping-permissiond") == 0) {
        timed(bus, call_ping_permissiond, parse_count(arg, "N"));
    } else if (strcmp(mode, "ping-xdg") == 0) {
        timed(bus, call_ping_xdg, parse_count(arg, "N"));
    } else if (strcmp(mode, "reject-permissiond") == 0) {
        timed(bus, call_reject_permissiond, parse_count(arg, "N"));
    } else if (strcmp(mode, "toggle-permissiond") == 0) {
        toggle(bus, (double)parse_count(arg, "SECONDS"));
    } else if (strcmp(mode, "fake-systemd") == 0) {
        if (i + 3 > argc) die("needs STATE SECONDS");
        fake_systemd(bus, arg, (double)parse_count(argv[i + 2], "SECONDS"));
    } else if (strcmp(mode, "wait") == 0) {
        if (i + 3 > argc) die("needs SECONDS NAME...");
        wait_names(bus, (double)parse_count(arg, "SECONDS"), argv + i + 2, argc - i - 2);
    } else {
        die("unknown mode (see --help)");
    }
    sd_bus_flush_close_unref(bus);
    return 0;
}
