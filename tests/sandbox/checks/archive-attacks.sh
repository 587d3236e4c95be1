# Attacks on checkin-demo's saved state (issue 20), each watched succeeding on the code before the fix:
#   - an archive whose decoding exhausts memory must not crash the app at every relaunch: the
#     restoring mark is set before decoding, so the next launch discards it (crashed-during-restore);
#   - an archive over the 16 MiB limit is discarded as too-large;
#   - root, playing a scenario, never writes through a link the app's user put in the app's folder.
# Every check leaves the app running, ready and fresh. Uses the helpers of checkin-demo.sh; needs
# python3 (to forge an archive) and jq on the host.

# (checkin-demo.sh, whose DEMO_* these use, is loaded after this file: only functions may use them.)
ATTACK_LIMIT_DROPIN=/run/systemd/system/checkin-demo.service.d/90-archive-attack-limit.conf
ATTACK_GO_DROPIN=/run/systemd/system/checkin-demo.service.d/90-archive-attack-go.conf
ATTACK_CANARY=/var/lib/relaunch-canary
ATTACK_DISCARDED_ID=f90884042ed34e8e85a00a87182d6b03

# attack_forge FILE ITEMS: writes a format-3 archive of build 1 with the highest generation whose
# application state holds one list of ITEMS strings, each one byte: decoding it makes ITEMS strings
# (16 bytes each), 16 times the archive's size, linear but more than a small memory holds.
attack_forge() {
    command -v python3 >/dev/null || fail "python3 is missing on the host; apt-get install -y python3"
    python3 - "$@" <<'PY'
import struct, sys, zlib
path, items = sys.argv[1], int(sys.argv[2])
def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)
def short(text):
    return varint(len(text)) + text.encode()
payload = bytearray(struct.pack("<QQ", 1 << 40, 0) + short("1") + varint(0) + varint(1) + short("a"))
payload += varint(1) + varint(0) + bytes([5]) + varint(items) + b"\0" * items  # state: "a" = [a, a, ...]
payload += varint(0) + varint(0) + varint(0)  # no path nodes, controllers or objects
head = struct.pack("<HHI", 3, 0, len(payload))
with open(path, "wb") as out:
    out.write(b"RLRA" + head + struct.pack("<I", zlib.crc32(bytes(payload), zlib.crc32(head))) + bytes(payload))
PY
}

# attack_plant FILE: puts FILE in the app's folder as its archive, owned by the app's user (as if it wrote it).
attack_plant() {
    in_sandbox sh -c "cat >$DEMO_ARCHIVE.new && chown relaunch-checkin: $DEMO_ARCHIVE.new && mv $DEMO_ARCHIVE.new $DEMO_ARCHIVE" <"$1"
}

# attack_discards REASON: how many discards for REASON the app has logged. (journalctl 252 finds
# nothing with --after-cursor and field matches together, so checks count before and after.)
attack_discards() {
    in_sandbox journalctl --namespace='*' -u "$DEMO_UNIT" -o cat --no-pager MESSAGE_ID=$ATTACK_DISCARDED_ID REASON="$1" | wc -l
}

# attack_discarded_since COUNT REASON: the app logged more than COUNT discards for REASON.
attack_discarded_since() {
    [[ $(attack_discards "$2") -gt $1 ]]
}

# attack_assert_recovered REASON RESTARTS_BEFORE: active, fresh after discarding for REASON, no start limit hit.
attack_assert_recovered() {
    assert_eq discarded "$(demo_state .launch.outcome)" "launch.outcome"
    assert_eq "$1" "$(demo_state .launch.reason)" "launch.reason"
    assert_eq null "$(demo_state .modal)" "modal after the discard"
    assert_eq active "$(unit_prop "$DEMO_UNIT" ActiveState)" "ActiveState"
    assert_eq success "$(unit_prop "$DEMO_UNIT" Result)" "Result (start-limit-hit would end a crash loop)"
    in_sandbox test ! -e "$DEMO_ARCHIVE" || fail "$DEMO_ARCHIVE is still there after the discard"
    assert_eq 0 "$(unit_prop "$DEMO_UNIT" NFileDescriptorStore)" "fds in the unit's fd store after the discard"
    local restarts
    restarts=$(($(unit_prop "$DEMO_UNIT" NRestarts) - $2))
    [[ $restarts -le 3 ]] || fail "$restarts restarts to get over one bad archive"
    note "recovered after $restarts restarts"
}

check_archive_attack_decode_exhausting_memory_is_discarded_not_a_crash_loop() {
    demo_restart_fresh
    demo_open_modal "attack $$"
    demo_call Background >/dev/null
    # Memory as a small host has it. With one malloc arena (no 64 MiB reservation per thread), the
    # address space the app maps once it has run is about what it needs; it gets 64 MiB more.
    # Decoding the forged archive needs about 300 MiB: it aborts. Before the fix it aborted at every
    # relaunch (a crash loop, seen); now the mark set before decoding makes the next launch discard
    # the archive unread.
    local pid size_kb cursor discards restarts rc=0
    in_sandbox sh -c "mkdir -p $(dirname "$ATTACK_LIMIT_DROPIN") && printf '[Service]\nEnvironment=MALLOC_ARENA_MAX=1\n' >$ATTACK_LIMIT_DROPIN"
    in_sandbox systemctl daemon-reload
    (
        attack_forge "$CHECK_TMP/forged.archive" 16700000
        demo_kill_and_wait KILL
        demo_assert_restored "attack $$"
        pid=$(unit_prop "$DEMO_UNIT" MainPID)
        size_kb=$(in_sandbox awk '/^VmSize:/ { print $2 }' "/proc/$pid/status")
        [[ "$size_kb" =~ ^[0-9]+$ ]] || fail "cannot read the app's VmSize (got '$size_kb')"
        note "LimitAS: the app's VmSize $((size_kb / 1024)) MiB + 64 MiB"
        in_sandbox sh -c "printf '[Service]\nEnvironment=MALLOC_ARENA_MAX=1\nLimitAS=%s\n' $(((size_kb + 64 * 1024) * 1024)) >$ATTACK_LIMIT_DROPIN"
        in_sandbox systemctl daemon-reload
        # The limit takes effect from the next start: with it, a relaunch restores the real archive.
        demo_kill_and_wait KILL
        demo_assert_restored "attack $$"
        cursor=$(in_sandbox journalctl -n 0 --show-cursor --no-pager | sed -n 's/^-- cursor: //p')
        discards=$(attack_discards crashed-during-restore)
        restarts=$(unit_prop "$DEMO_UNIT" NRestarts)
        attack_plant "$CHECK_TMP/forged.archive"
        in_sandbox systemctl kill --signal=KILL "$DEMO_UNIT"
        wait_until 120 attack_discarded_since "$discards" crashed-during-restore
        demo_wait_ready
        attack_assert_recovered crashed-during-restore "$restarts"
        in_sandbox journalctl -o cat --no-pager --after-cursor="$cursor" |
            grep -E "^$DEMO_UNIT: Main process exited, code=(killed|dumped), status=[0-9]+/(ABRT|TRAP|ILL|SEGV|BUS)" >/dev/null ||
            fail "no instance died decoding the forged archive (did it fit in memory?)"
    ) || rc=$?
    # Stopped and the forged archive gone before the limit is lifted.
    in_sandbox systemctl stop "$DEMO_UNIT" || true
    in_sandbox rm -f "$DEMO_ARCHIVE" "$ATTACK_LIMIT_DROPIN"
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl reset-failed "$DEMO_UNIT" || true
    in_sandbox systemctl start "$DEMO_UNIT" || true
    [[ $rc -eq 0 ]] || fail "the app did not get over an archive whose decoding exhausts its memory"
    demo_restart_fresh
}

check_archive_attack_too_large_is_discarded() {
    demo_restart_fresh
    demo_open_modal "too large $$"
    demo_call Background >/dev/null
    # A full stop drops the fd store's copy, so the file is the only one (a valid copy would win).
    in_sandbox systemctl stop "$DEMO_UNIT"
    local discards
    head -c $((16 * 1024 * 1024 + 1)) /dev/zero >"$CHECK_TMP/large.archive"
    discards=$(attack_discards too-large)
    attack_plant "$CHECK_TMP/large.archive"
    in_sandbox systemctl start "$DEMO_UNIT"
    wait_until 120 attack_discarded_since "$discards" too-large
    demo_wait_ready
    attack_assert_recovered too-large "$(unit_prop "$DEMO_UNIT" NRestarts)"
    demo_restart_fresh
}

check_archive_attack_root_never_writes_through_a_link() {
    demo_restart_fresh
    local scenario=$CHECK_TMP/link.scenario rc=0 status=0 before after started
    # The scenario stops the app and waits (expect unit) for the check to plant the link, then writes
    # the archive as root (corrupt-archive).
    cat >"$scenario" <<EOF
# root writes the archive only once the app's user has planted a link in its place
stop-app
expect unit Description archive-attack-go
corrupt-archive
EOF
    in_sandbox sh -c "printf 'canary of root %s, not an archive\n' $$ >$ATTACK_CANARY && chmod 0644 $ATTACK_CANARY"
    before=$(in_sandbox sha256sum "$ATTACK_CANARY")
    started=$(unit_prop "$DEMO_UNIT" ExecMainStartTimestampMonotonic)
    (
        code=0
        in_sandbox relaunchctl scenario run --timeout 30 "$scenario" >"$CHECK_TMP/scenario.out" 2>&1 || code=$?
        echo "$code" >"$CHECK_TMP/scenario.rc"
    ) &
    (
        # The scenario restarts the app fresh, then stops it: a new start, and inactive.
        wait_until 120 sh -c "[ \"\$('$SANDBOX' exec -- systemctl show -P ExecMainStartTimestampMonotonic $DEMO_UNIT)\" != '$started' ] &&
            [ \"\$('$SANDBOX' exec -- systemctl show -P ActiveState $DEMO_UNIT)\" = inactive ]"
        # The app's user, who owns its folder, replaces its archive with a link to a file of root's.
        in_sandbox rm -f "$DEMO_ARCHIVE"
        in_sandbox setpriv --reuid=relaunch-checkin --regid=relaunch-checkin --clear-groups ln -s "$ATTACK_CANARY" "$DEMO_ARCHIVE"
        in_sandbox sh -c "mkdir -p $(dirname "$ATTACK_GO_DROPIN") && printf '[Unit]\nDescription=archive-attack-go\n' >$ATTACK_GO_DROPIN"
        in_sandbox systemctl daemon-reload
        wait_until 120 test -s "$CHECK_TMP/scenario.rc"
    ) || rc=$?
    wait
    status=$(cat "$CHECK_TMP/scenario.rc" 2>/dev/null || echo none)
    after=$(in_sandbox sha256sum "$ATTACK_CANARY")
    in_sandbox rm -f "$ATTACK_GO_DROPIN" "$DEMO_ARCHIVE" "$ATTACK_CANARY"
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl start "$DEMO_UNIT" || true
    [[ $rc -eq 0 ]] || fail "the scenario did not get to corrupt-archive; it said: $(cat "$CHECK_TMP/scenario.out")"
    assert_eq "$before" "$after" "root's file behind the link, after the scenario's corrupt-archive"
    assert_eq 1 "$status" "exit status of the scenario (corrupt-archive must refuse the link)"
    assert_contains "$(cat "$CHECK_TMP/scenario.out")" "is a symbolic link" "the scenario's output"
    demo_restart_fresh
}
