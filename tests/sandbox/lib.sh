# Helpers for sandbox checks (sourced by tests/sandbox/run into the bash that runs each check, with
# `set -euo pipefail` already on). A check is a function in tests/sandbox/checks/*.sh:
#   check_NAME   runs while the sandbox is up; passes when it returns 0, fails on the first failing
#                command or helper (errexit is on). Its output is shown only when it fails.
#   post_NAME    runs after `scripts/sandbox down`, to check what the sandbox left behind.
# Each check runs in a fresh bash (so a check cannot break the next one) under a timeout.
#
# Variables every check sees:
#   REPO            the repository root
#   SANDBOX         "$REPO/scripts/sandbox"
#   BIN_DIR         the directory of checkin-demo, permissiond and relaunchctl the sandbox runs
#   CHECK_TMP       a fresh scratch directory for this check (on the host, not under /tmp)
#   HOST_BEFORE     host snapshot taken before `up` (see host_snapshot); HOST_AFTER: after `down`
#   JOURNAL_OUT     where `down --journal-out` exported the sandbox's journal (post_* checks)
#   SANDBOX_PIDNS   the sandbox's PID namespace ("pid:[…]"), recorded after `up`

# wait_relaunched UNIT BUS OLD_PID: until UNIT's main process is another than OLD_PID (0: any) that answers
# Ready() on BUS finished in the unit's invocation: a restart (a new invocation) or a standby's take-over (the
# same invocation, another main process). Polled every 5 ms for 15 s at most, outside every measured phase of
# the benchmarks; says why and returns 1 when it did not happen.
wait_relaunched() {
    local unit=$1 bus=$2 old=$3 i pid invocation answer=""
    for ((i = 0; i < 3000; i++)); do
        pid=$(systemctl show -P MainPID "$unit")
        if [[ "$pid" != "$old" && "$pid" != 0 && "$(systemctl show -P ActiveState "$unit")" == active ]]; then
            invocation=$(systemctl show -P InvocationID "$unit")
            answer=$(busctl call --timeout=2 "$bus" /org/relaunch/App1 org.relaunch.App1 Ready 2>/dev/null) || answer=""
            [[ "$answer" == "(bs) true \"$invocation\"" ]] && return 0
        fi
        sleep 0.005
    done
    echo "$unit was not relaunched from pid $old within 15 s (last Ready(): ${answer:-none}; systemctl status $unit)" >&2
    return 1
}

# follow_launches UNIT: starts a follower of UNIT's journal (its LogNamespace=), read from descriptor
# $LAUNCHES_FD, its pid in $LAUNCHES_PID (a process substitution, not a coproc: a benchmark may already
# run one, and bash keeps one coproc at a time); wait_launched then blocks, spending nothing, until the
# app's next "launch timing" entry (logged right after READY=1, by a restart's process and a take-over's
# alike), 15 s at most. A benchmark waits with it instead of polling systemctl and busctl while the
# relaunch it times still runs beside the polls.
follow_launches() {
    local namespace
    namespace=$(systemctl show -P LogNamespace "$1")
    exec {LAUNCHES_FD}< <(exec journalctl ${namespace:+--namespace="$namespace"} -f -n 0 -o cat)
    LAUNCHES_PID=$!
}
# drain_launches: forgets what the follower has shown so far (launches that belong to no measured step).
drain_launches() {
    local line
    while read -r -t 0 -u "$LAUNCHES_FD"; do read -r -u "$LAUNCHES_FD" line || return 0; done
}
wait_launched() {
    local line
    while read -r -t 15 -u "$LAUNCHES_FD" line; do
        [[ "$line" == "launch timing:"* ]] && return 0
    done
    echo "no launch within 15 s" >&2
    return 1
}

# wait_standby UNIT: until UNIT's main process has its standby (a child of it) and the standby has told
# permissiond it is there (its "standby ready" entry): from then on a kill is asked of it (15 s at most).
# The child is found through /proc: a booted host's /sys/fs/cgroup need not show the unit's cgroup where
# ControlGroup= says.
wait_standby() {
    local unit=$1 i main pid
    for ((i = 0; i < 3000; i++)); do
        main=$(systemctl show -P MainPID "$unit")
        pid=$(grep -ls "^PPid:[[:space:]]*$main\$" /proc/[0-9]*/status 2>/dev/null | head -n 1 | cut -d/ -f3 || true)
        if [[ "$main" != 0 && -n "$pid" ]] &&
            journalctl --namespace='*' -q -o cat _PID="$pid" 2>/dev/null | grep -q '^standby ready'; then
            return 0
        fi
        sleep 0.005
    done
    echo "no standby ready in $unit within 15 s (main process ${main:-none}, its child ${pid:-none})" >&2
    return 1
}

# in_sandbox CMD [ARG...]: runs CMD inside the sandbox; its exit status is CMD's.
in_sandbox() {
    "$SANDBOX" exec -- "$@"
}

# sync_every_journal: every journald where this runs has written what it was sent: the default one (PID
# 1's entries) and each namespace's (permissiond and every app log to one of their own, LogNamespace=).
# Read them together with `journalctl --namespace='*'`.
sync_every_journal() {
    local folder
    journalctl --sync
    for folder in /run/systemd/journal.*/; do
        [[ -S "${folder}io.systemd.journal" ]] || continue
        folder=${folder%/}
        journalctl --namespace="${folder#/run/systemd/journal.}" --sync
    done
}

# journal_sync: sync_every_journal inside the sandbox.
journal_sync() {
    in_sandbox bash -c "$(declare -f sync_every_journal); sync_every_journal"
}

# fail MESSAGE: ends the check as failed.
fail() {
    echo "FAIL: $*" >&2
    exit 1
}

# note MESSAGE: a line the runner prints even when the check passes (scores, timings).
note() {
    echo "note: $*"
}

# assert_eq EXPECTED ACTUAL [WHAT]
assert_eq() {
    [[ "$1" == "$2" ]] || fail "${3:-value}: expected '$1', got '$2'"
}

# assert_contains TEXT NEEDLE [WHAT]
assert_contains() {
    [[ "$1" == *"$2"* ]] || fail "${3:-output} does not contain '$2'; it was: $1"
}

# assert_not_contains TEXT NEEDLE [WHAT]
assert_not_contains() {
    [[ "$1" != *"$2"* ]] || fail "${3:-output} contains '$2'; it was: $1"
}

# expect_exit CODE CMD [ARG...]: runs CMD and fails unless it exits with CODE. CMD's output is kept
# in $EXPECT_OUTPUT (stdout and stderr together) for further asserts.
expect_exit() {
    local want=$1 got=0
    shift
    EXPECT_OUTPUT=$("$@" 2>&1) || got=$?
    [[ $got -eq $want ]] || fail "'$*' exited $got, expected $want; output: $EXPECT_OUTPUT"
}

# wait_until SECONDS CMD [ARG...]: polls CMD every 0.1 s until it succeeds; fails after SECONDS with
# what it waited for and what the last poll saw (CMD's exit status and output: a predicate that prints
# what it looked at, as the ones in the checks do, makes that line say why it was not there yet).
# Bounds are generous on purpose (a wait ends as soon as its state is reached): they only decide how
# long a broken run takes to say so.
wait_until() {
    local seconds=$1 deadline=$((SECONDS + $1)) seen status
    shift
    while true; do
        status=0
        seen=$("$@" 2>&1) || status=$?
        [[ $status -ne 0 ]] || return 0
        [[ $SECONDS -lt $deadline ]] ||
            fail "timed out after ${seconds}s waiting for: $*; last poll exited $status and said: ${seen:-(nothing)}"
        sleep 0.1
    done
}

# wait_for_value SECONDS WANT CMD [ARG...]: polls CMD until its output is WANT; fails after SECONDS
# with what it waited for and the last output seen.
wait_for_value() {
    local seconds=$1 want=$2 deadline=$((SECONDS + $1)) seen
    shift 2
    while true; do
        seen=$("$@" 2>&1) || true
        [[ "$seen" != "$want" ]] || return 0
        [[ $SECONDS -lt $deadline ]] ||
            fail "timed out after ${seconds}s waiting for '$want' from: $*; last seen: '${seen}'"
        sleep 0.1
    done
}

# polkit_is_up: polkit.service is active and owns org.freedesktop.PolicyKit1 inside the sandbox, so a
# refusal that says polkit answered was polkit's; prints what it saw.
polkit_is_up() {
    local state owner
    state=$(in_sandbox systemctl is-active polkit.service 2>&1) || true
    owner=$(in_sandbox busctl status --no-pager org.freedesktop.PolicyKit1 2>&1 | sed -n 's/^PID=//p') || true
    echo "polkit.service is $state; org.freedesktop.PolicyKit1 owned by PID ${owner:-nobody}"
    [[ "$state" == active && -n "$owner" ]]
}

# assert_bus_policy_refused OUTPUT WHAT: dbus-daemon itself refused the message (its policy), before any
# service saw it.
assert_bus_policy_refused() {
    [[ "$1" == *"Rejected send message"* ]] ||
        fail "$2 was not refused by the bus policy (dbus-daemon says 'Rejected send message'); it said: $1"
}

# assert_service_refused OUTPUT WHAT: the call got through the bus policy and the service refused it
# itself, after asking polkit (its message says polkit did not authorize the caller, not that polkit
# could not be asked).
assert_service_refused() {
    [[ "$1" != *"Rejected send message"* ]] || fail "$2 was refused by the bus policy, not by the service: $1"
    [[ "$1" != *"could not be asked"* ]] || fail "$2 was refused because polkit did not answer: $1"
    [[ "$1" == *"not authorized for "* ]] || fail "$2 was not refused by the service after asking polkit; it said: $1"
}

# unit_prop UNIT PROPERTY: the value of a unit property inside the sandbox (systemctl show -P).
unit_prop() {
    in_sandbox systemctl show -P "$2" "$1"
}

# unit_is_active UNIT: true when the unit is active inside the sandbox; prints the state it saw.
unit_is_active() {
    local state
    state=$(in_sandbox systemctl is-active "$1" 2>/dev/null) || true
    echo "$1 is ${state:-unknown}"
    [[ "$state" == active ]]
}

# unit_service_props FILE: prints the [Service] settings of a unit file that sandbox a process
# (not Type=, ExecStart= and the like), one per line, for `systemd-run -p` stand-ins.
unit_service_props() {
    sed -n '/^\[Service\]/,/^\[/p' "$1" | grep -E '^[A-Z][A-Za-z]+=' |
        grep -vE '^(Type|BusName|NotifyAccess|Exec[A-Za-z]*|Restart|RestartSec|WatchdogSec|Timeout[A-Za-z]*|FileDescriptorStoreMax|StateDirectory[A-Za-z]*|ConfigurationDirectory[A-Za-z]*|Environment)='
}

# run_like UNITFILE CMD [ARG...]: runs CMD inside the sandbox as a transient service with the
# sandboxing of UNITFILE (its user, capabilities, namespaces, filters); stdout/stderr are piped back.
run_like() {
    local file=$1 line props=()
    shift
    while IFS= read -r line; do
        props+=(-p "$line")
    done < <(unit_service_props "$file")
    in_sandbox systemd-run --pipe --wait --quiet -p DefaultDependencies=no "${props[@]}" "$@"
}

# host_snapshot DIR: records what the sandbox must not change on the host.
host_snapshot() {
    local dir=$1
    mkdir -p "$dir"
    # All but one flag: `up` turns on the cgroup v2 hierarchy's favordynmods, deliberately and saying so
    # (scripts/cgroup-favordynmods); check_favordynmods_on sees to that one.
    findmnt -rn | sed 's/,favordynmods//' >"$dir/mounts"
    ls -A /run >"$dir/run"
    ls -A /run/systemd >"$dir/run-systemd" 2>/dev/null || true
    find /var/log/journal -maxdepth 2 -printf '%p %s %T@\n' 2>/dev/null | sort >"$dir/var-log-journal" || true
    ls -A /var/lib >"$dir/var-lib"
    ls -A /dev >"$dir/dev"
    find /sys/fs/cgroup -maxdepth 2 -type d | sort >"$dir/cgroups"
    sha256sum /etc/passwd /etc/group /etc/machine-id 2>/dev/null >"$dir/etc" || true
    ls -A /etc/dbus-1/system.d /usr/share/dbus-1/system.d /usr/lib/systemd/catalog >"$dir/etc-lists" 2>&1 || true
    hostname >"$dir/hostname"
    local key
    for key in net/unix/max_dgram_qlen fs/file-max fs/nr_open kernel/printk_devkmsg kernel/pid_max; do
        echo "$key $(cat "/proc/sys/$key" 2>/dev/null || echo -)"
    done >"$dir/sysctl"
    # Processes in this sandbox's cgroup (scripts/sandbox paths; relaunch-sandbox-* without one), by PID,
    # with their cgroup: not by name, which other work on a shared machine (a test's private
    # dbus-daemon, another named sandbox) shares.
    local pid group
    for pid in /proc/[0-9]*; do
        group=$(cut -d: -f3- "$pid/cgroup" 2>/dev/null | grep -m1 -F "${SANDBOX_CGROUP:-relaunch-sandbox-}") || continue
        echo "${pid#/proc/} $(cat "$pid/comm" 2>/dev/null) $group"
    done | sort >"$dir/processes"
}

# sandbox_names DIR: records, while the sandbox is up, the names it has in its own /run, /run/systemd,
# /dev and /var/lib, its journal folder and its cgroup: what it could leave on the host if a mount
# were missing. The host comparisons below look only at those, so unrelated activity on a shared
# machine (another user's file in /run, a device coming and going) does not fail them.
sandbox_names() {
    local dir=$1
    mkdir -p "$dir"
    in_sandbox ls -A /run >"$dir/run" 2>/dev/null || true
    in_sandbox ls -A /run/systemd >"$dir/run-systemd" 2>/dev/null || true
    in_sandbox ls -A /dev >"$dir/dev" 2>/dev/null || true
    in_sandbox ls -A /var/lib >"$dir/var-lib" 2>/dev/null || true
    echo "/var/log/journal/$(in_sandbox cat /etc/machine-id 2>/dev/null)" >"$dir/var-log-journal"
    echo "${SANDBOX_CGROUP:-relaunch-sandbox-}" >"$dir/cgroups"
}

# assert_same_file NAME: the snapshot file NAME is the same before up and after down; for a snapshot
# of which sandbox_names recorded what the sandbox holds, only in those entries.
assert_same_file() {
    local name=$1 diff names=${SANDBOX_NAMES:-}/$1
    if [[ -n "${SANDBOX_NAMES:-}" && -s "$names" ]]; then
        case $name in
            var-log-journal | cgroups) # prefixes of paths
                diff=$(diff <(grep -F -f "$names" "$HOST_BEFORE/$name" || true) <(grep -F -f "$names" "$HOST_AFTER/$name" || true)) ;;
            *) # whole names
                diff=$(diff <(grep -Fx -f "$names" "$HOST_BEFORE/$name" || true) <(grep -Fx -f "$names" "$HOST_AFTER/$name" || true)) ;;
        esac
    else
        diff=$(diff "$HOST_BEFORE/$name" "$HOST_AFTER/$name")
    fi || fail "the host's $name changed where the sandbox could have touched it (< before, > after):
$diff"
}
