# The review cannot be emptied by noise (CONTRACT.md, "Revocation cannot be starved"): a local user
# or an app that floods the journal removes no entry of permissiond or of an app from
# `relaunchctl journal`, a burst of another's entries makes journald drop none of them, and
# `relaunchctl journal` as root names any change of permissiond's history the journal lacks.
#
# The default journal gets a small size bound for the floods (FLOOD_BOUND), so that a flood of
# FLOOD_MIB proves the same rotation a stranger's gigabytes would cause on a host's default bound;
# a marker written to the default journal before each flood must be gone after it (else the flood
# proved nothing). The bound is taken back at the end of each check.

FLOOD_BOUND_CONF=/etc/systemd/journald.conf.d/90-relaunch-flood-check.conf
# 48 MiB of base64 lines (36 MiB of random bytes): about 36 MiB stored after zstd, over twice the bound.
FLOOD_MIB=48
FLOOD_CHANGED_ID=9b3f5994e16840eb93c15d94fb1674bd

FLOOD_KEEP=/var/lib/relaunch-flood-check-kept

# flood_bound_set: the default journal (not the namespaces, which read journald@NAMESPACE.conf) keeps
# at most 16 MiB in files of 2 MiB. Its files so far are set aside first and put back by
# flood_bound_unset: the checks after this one, and the post checks of the exported journal, read
# entries of the whole run (systemd's from the boot), which the flood is there to rotate away.
flood_bound_set() {
    in_sandbox journalctl --rotate
    in_sandbox sh -c "rm -rf $FLOOD_KEEP && mkdir -p $FLOOD_KEEP && cp -a /var/log/journal/\$(cat /etc/machine-id)/. $FLOOD_KEEP/ && rm -f $FLOOD_KEEP/system.journal"
    in_sandbox mkdir -p /etc/systemd/journald.conf.d
    in_sandbox sh -c "printf '[Journal]\nSystemMaxUse=16M\nSystemMaxFileSize=2M\n' >$FLOOD_BOUND_CONF"
    in_sandbox systemctl restart systemd-journald.service
}

flood_bound_unset() {
    in_sandbox rm -f "$FLOOD_BOUND_CONF"
    in_sandbox systemctl restart systemd-journald.service || true
    in_sandbox sh -c "[ ! -d $FLOOD_KEEP ] || { cp -an $FLOOD_KEEP/. /var/log/journal/\$(cat /etc/machine-id)/ && rm -rf $FLOOD_KEEP; }" || true
}

# flood_marker: logs a unique line to the default journal as root and prints it.
flood_marker() {
    local token
    token="before-the-flood-$(date +%s%N)"
    in_sandbox logger -t relaunch-flood-marker "$token"
    wait_until 30 sh -c "'$SANDBOX' exec -- journalctl -q -t relaunch-flood-marker -o cat | grep -qx '$token'"
    echo "$token"
}

# flood_marker_gone TOKEN: the flood rotated the default journal past the marker.
flood_marker_gone() {
    in_sandbox journalctl --sync
    if in_sandbox journalctl -q -t relaunch-flood-marker -o cat | grep -qx "$1"; then
        fail "the flood did not rotate the default journal past its marker $1 ($(in_sandbox journalctl --disk-usage)); it proves nothing"
    fi
}

# flood_lines: FLOOD_MIB MiB of 8000-character lines that do not compress below the bound.
flood_lines() {
    echo "head -c $((FLOOD_MIB * 3 / 4))M /dev/urandom | base64 -w 8000"
}

# flood_incident STATE: root sets checkin-demo's camera to STATE (a change that kills it under any
# policy) and waits for the relaunch.
flood_incident() {
    expect_exit 0 in_sandbox relaunchctl permission set checkin-demo camera "$1" --wait
    assert_contains "$EXPECT_OUTPUT" "killed"
    in_sandbox relaunchctl app wait-ready >/dev/null
}

# flood_start: checkin-demo runs with the camera allowed; prints the time to review from.
flood_start() {
    in_sandbox systemctl reset-failed checkin-demo.service >/dev/null 2>&1 || true
    in_sandbox systemctl start checkin-demo.service
    in_sandbox relaunchctl app wait-ready >/dev/null
    in_sandbox relaunchctl permission set checkin-demo camera allowed --wait >/dev/null
    in_sandbox relaunchctl app wait-ready >/dev/null
    date +%s.%N
}

# flood_review_has SINCE N WHAT: `relaunchctl journal` since SINCE shows N camera changes of
# checkin-demo by root, each with the kill and the relaunched app's launch entry, and names no change
# of permissiond's history as missing.
flood_review_has() {
    local since=$1 want=$2 what=$3 json
    journal_sync
    json=$(in_sandbox relaunchctl journal --since "@$since" --app checkin-demo --json)
    assert_eq "$want" "$(jq '[.incidents[] | select(.callerUID == "0" and .permission == "camera")] | length' <<<"$json")" \
        "root's camera changes of checkin-demo in relaunchctl journal after $what (the review: $(in_sandbox relaunchctl journal --since "@$since" --app checkin-demo | tail -n 5))"
    assert_eq "$want" "$(jq '[.incidents[] | select(.permission == "camera") | select(any(.events[]; .kind == "kill-sent"))
        | select(any(.events[]; .kind == "launched"))] | length' <<<"$json")" \
        "camera changes with their kill and the app's launch after $what"
    assert_eq "0" "$(jq '.summary.missingFromJournal // "absent"' <<<"$json")" \
        "summary.missingFromJournal after $what (relaunchctl journal runs as root)"
}

check_journal_flood_by_a_stranger_leaves_every_incident() {
    local since marker namespace socket user
    # Nobody but the unit itself writes to a Relaunch unit's journal namespace: not a local user,
    # not another app's user.
    for namespace in $(in_sandbox systemctl show -P LogNamespace permissiond.service checkin-demo.service | sort -u); do
        [[ -n "$namespace" ]] || fail "permissiond.service or checkin-demo.service has no LogNamespace="
        for socket in socket dev-log; do
            for user in nobody relaunch-banca; do
                expect_exit 1 in_sandbox setpriv --reuid="$user" --regid="$(in_sandbox id -g "$user")" --clear-groups python3 -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
try:
    s.sendto(b'MESSAGE=written into another namespace\n', '/run/systemd/journal.$namespace/$socket')
except PermissionError as error:
    print('refused:', error); sys.exit(1)
print('accepted'); sys.exit(0)"
                assert_contains "$EXPECT_OUTPUT" "refused" "$user writing to /run/systemd/journal.$namespace/$socket"
            done
        done
        expect_exit 1 in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups python3 -c "
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
try:
    s.connect('/run/systemd/journal.$namespace/stdout')
except PermissionError as error:
    print('refused:', error); sys.exit(1)
print('accepted'); sys.exit(0)"
    done

    since=$(flood_start)
    flood_bound_set
    trap flood_bound_unset EXIT
    flood_incident denied
    marker=$(flood_marker)
    # The stranger: uid 65534, no groups, writing through journald's stdout socket, as anyone may.
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups sh -c "$(flood_lines) | systemd-cat -t relaunch-flood"
    flood_marker_gone "$marker"
    flood_incident allowed
    flood_review_has "$since" 2 "a stranger's flood of $FLOOD_MIB MiB"
    note "a stranger's $FLOOD_MIB MiB flood rotated the default journal (bound 16 MiB: $(in_sandbox journalctl --disk-usage | grep -o '[0-9.]*[KMG]')); both incidents stayed"
}

check_journal_flood_by_an_app_leaves_the_others_entries() {
    local since marker props=() name value
    since=$(flood_start)
    flood_bound_set
    trap flood_bound_unset EXIT
    flood_incident denied
    marker=$(flood_marker)
    # An app gone rogue: a process of banca-demo.service's user, group and journal namespace (as the
    # unit says; none before namespaces existed) writing to its stdout, which PID 1 connects to the
    # journal.
    for name in User Group LogNamespace; do
        value=$(unit_prop banca-demo.service "$name")
        [[ -z "$value" ]] || props+=(-p "$name=$value")
    done
    in_sandbox systemd-run --wait --quiet -p DefaultDependencies=no "${props[@]}" sh -c "$(flood_lines)"
    # Without a namespace the flood lands in the default journal: the marker must be gone then. With
    # one, the default journal keeps it and banca-demo's namespace holds the flood.
    if [[ ${props[*]} == *LogNamespace=* ]]; then
        local namespace
        namespace=$(unit_prop banca-demo.service LogNamespace)
        in_sandbox journalctl --namespace="$namespace" --sync
        in_sandbox journalctl -q --namespace="$namespace" -o cat -u "run-*" -n 1 | grep -q . ||
            fail "banca-demo's namespace $namespace shows no line of the flood"
    else
        flood_marker_gone "$marker"
    fi
    flood_incident allowed
    flood_review_has "$since" 2 "banca-demo's flood of $FLOOD_MIB MiB"
}

check_journal_burst_makes_journald_drop_no_entry() {
    local since burst i
    since=$(flood_start)
    # A stranger keeps journald's socket queue full (net.unix.max_dgram_qlen is 10 on a host without
    # systemd's sysctl defaults): 16 processes sending 32 KiB native entries as fast as they can,
    # blocked in sendto while the queue is full and woken first whenever journald makes room.
    # permissiond's and the apps' writers wait a quarter of a second for room, then drop an entry.
    # It stops when the check leaves /run/relaunch-burst-stop, or after 5 minutes whatever happens.
    in_sandbox rm -f /run/relaunch-burst-stop
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups python3 -c "
import os, socket, time
BURST_PROCESSES, BURST_BYTES = ${BURST_PROCESSES:-16}, ${BURST_BYTES:-32768}
end = time.monotonic() + 300
for _ in range(BURST_PROCESSES - 1):
    if os.fork() == 0:
        break
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
line = b'MESSAGE=' + os.urandom(BURST_BYTES // 2).hex().encode() + b'\nSYSLOG_IDENTIFIER=relaunch-burst\n'
n = 0
while n % 64 or (time.monotonic() < end and not os.path.exists('/run/relaunch-burst-stop')):
    n += 1
    try:
        s.sendto(line, '/run/systemd/journal/socket')
    except OSError:
        pass
" &
    burst=$!
    trap 'in_sandbox touch /run/relaunch-burst-stop; wait 2>/dev/null || true' EXIT
    # It does fill the queue: a native entry of root's waits for room.
    wait_until 30 sh -c "'$SANDBOX' exec -- journalctl -q -t relaunch-burst -n 1 -o cat | grep -q ."
    for i in 1 2 3; do
        flood_incident denied
        flood_incident allowed
    done
    in_sandbox touch /run/relaunch-burst-stop
    wait "$burst" || true
    flood_review_has "$since" 6 "a stranger's burst of entries"
}
