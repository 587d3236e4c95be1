/* The C floor for `relaunchctl journal --directory DIR`: open the folder with sd_journal, apply the
 * same matches (every MESSAGE_ID the timeline joins: Relaunch's eight and systemd's four unit ids),
 * step through every matched entry and read the fields the timeline uses, keeping nothing. It reads
 * an entry's fields in one walk (sd_journal_enumerate_data), which is faster than one
 * sd_journal_get_data per field: each of those walks the entry again. Prints how many entries and
 * field bytes it read, so that nothing is optimized away.
 *
 * Build: cc -O2 -o floor floor.c $(pkg-config --cflags --libs libsystemd)
 * Usage: floor DIR
 */
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <systemd/sd-journal.h>

/* The MESSAGE_IDs the timeline joins: Relaunch's eight (RelaunchContract.MessageID), then systemd's
 * four about units (ManagerMessageID). */
static const char *const ids[] = {
    "0c3ece682843457296ab0da296a09171", "7cff30b26abb44549eb0f7570b7c2ef9", "21ad727465684cd29e7b9bc1c3d456a7",
    "48683d587f3b40cbb9f326d7ea1ba7ea", "0c0151517edf47b1a988576b4b5e81e0", "f90884042ed34e8e85a00a87182d6b03",
    "9b3f5994e16840eb93c15d94fb1674bd", "cec8a90c402d4067a74cf3669006da0e",
    "98e322203f7a4ed290d09fe03c09fe15", "5eb03494b6584870a536b337290809b3", "39f53479d3a045ac8e11786248231fbf",
    "d9b373ed55a64feb8242e02dbe79a49c",
};
enum { ID_COUNT = sizeof ids / sizeof ids[0] };

/* Every field the timeline reads from an entry: what tells its kind, unit, invocation and sender, when
 * permissiond's events happened, and the fields each kind of step keeps. */
static const char *const fields[] = {
    "MESSAGE_ID", "UNIT", "_SYSTEMD_UNIT", "INVOCATION_ID", "_SYSTEMD_INVOCATION_ID", "_PID", "APP_ID",
    "PERMISSION", "OLD_STATE", "NEW_STATE", "CALLER_UID", "KILL", "CHANGED_USEC", "SIGNAL", "KILLED_USEC",
    "EXIT_CODE", "EXIT_STATUS", "MESSAGE", "N_RESTARTS", "UNIT_RESULT", "REASON", "RESTORATION_PATH",
    "RESTORED_VIA", "RESTORED_COUNT", "PRESENTED_PATH", "DURATION_USEC", "LAUNCH_OUTCOME", "BUILD_NUMBER",
};
enum { FIELD_COUNT = sizeof fields / sizeof fields[0] };
static size_t field_lengths[FIELD_COUNT];

/* The index in `fields` of the field `data` (NAME=value) holds, or -1. */
static int wanted(const char *data, size_t length) {
    const char *equals = memchr(data, '=', length);
    if (!equals) return -1;
    size_t name = (size_t)(equals - data);
    for (int f = 0; f < FIELD_COUNT; f++)
        if (field_lengths[f] == name && memcmp(data, fields[f], name) == 0) return f;
    return -1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    /* sd_journal keeps every file open: a fleet's folder holds one per host (relaunchctl raises its
     * limit the same way). */
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < limit.rlim_max) {
        limit.rlim_cur = limit.rlim_max;
        setrlimit(RLIMIT_NOFILE, &limit);
    }
    sd_journal *j;
    int r = sd_journal_open_directory(&j, argv[1], 0);
    if (r < 0) {
        fprintf(stderr, "floor: cannot open %s: %s\n", argv[1], strerror(-r));
        return 1;
    }
    sd_journal_set_data_threshold(j, 0);
    for (int f = 0; f < FIELD_COUNT; f++) field_lengths[f] = strlen(fields[f]);
    char match[64];
    for (int k = 0; k < ID_COUNT; k++) {
        snprintf(match, sizeof match, "MESSAGE_ID=%s", ids[k]);
        if ((r = sd_journal_add_match(j, match, 0)) < 0 || (r = sd_journal_add_disjunction(j)) < 0) {
            fprintf(stderr, "floor: cannot add match %s: %s\n", match, strerror(-r));
            return 1;
        }
    }
    if ((r = sd_journal_seek_head(j)) < 0) {
        fprintf(stderr, "floor: cannot seek: %s\n", strerror(-r));
        return 1;
    }
    unsigned long entries = 0;
    unsigned long long bytes = 0, time_sum = 0;
    while ((r = sd_journal_next(j)) > 0) {
        uint64_t usec;
        if ((r = sd_journal_get_realtime_usec(j, &usec)) < 0) break;
        time_sum += usec;
        /* One walk over the entry's data, as journalctl does; a field the timeline reads is "read"
         * by counting its bytes. */
        const void *data;
        size_t length;
        sd_journal_restart_data(j);
        while ((r = sd_journal_enumerate_data(j, &data, &length)) > 0)
            if (wanted(data, length) >= 0) bytes += length;
        if (r < 0) break;
        entries++;
    }
    if (r < 0) {
        fprintf(stderr, "floor: cannot read %s: %s\n", argv[1], strerror(-r));
        return 1;
    }
    printf("%lu entries, %llu field bytes, time sum %llu\n", entries, bytes, time_sum);
    sd_journal_close(j);
    return 0;
}
