# permissiond over the system bus: Permissions1's reads and writes, who may write, argument errors, the kill
# (journal entries, systemd's relaunch), both kill policies, the Changed signal, durability under SIGKILL,
# and the daemon's own start and stop. The app under test is checkin-demo.service (the real app or the C
# stand-in); the durability check registers apps without a unit (/run/relaunch/apps.d) so it never kills
# the app.

PD_DEST=org.relaunch.Permissions1
PD_PATH=/org/relaunch/Permissions1
PD_IFACE=org.relaunch.Permissions1
PD_APP=checkin-demo
PD_UNIT=checkin-demo.service
PD_KILLED_ID=cec8a90c402d4067a74cf3669006da0e
PD_CHANGED_ID=9b3f5994e16840eb93c15d94fb1674bd
PD_SYSTEMD_EXIT_ID=98e322203f7a4ed290d09fe03c09fe15 # systemd: "Main process exited"

# pd_call METHOD SIGNATURE ARG...: busctl call on Permissions1 inside the sandbox, as root.
pd_call() {
    in_sandbox busctl call "$PD_DEST" "$PD_PATH" "$PD_IFACE" "$@"
}

# pd_as_nobody CMD...: CMD inside the sandbox as uid/gid 65534.
pd_as_nobody() {
    in_sandbox setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
}

# pd_send METHOD ARG...: dbus-send, which prints the D-Bus error *name* (busctl prints only the message).
# Args as dbus-send takes them (string:camera). Output in $EXPECT_OUTPUT via expect_exit.
pd_send() {
    in_sandbox dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.$1" "${@:2}"
}

# pd_get APP PERMISSION: prints the state.
pd_get() {
    local out
    out=$(pd_call Get ss "$1" "$2")
    out=${out#s \"}
    echo "${out%\"}"
}

# pd_other STATE: a state different from STATE (so a Set is a change).
pd_other() {
    if [[ "$1" == allowed ]]; then echo denied; else echo allowed; fi
}

# pd_cursor: the journal's current position; pd_journal CURSOR ARG...: the entries after it.
pd_cursor() {
    in_sandbox journalctl --namespace='*' -q -n 0 --show-cursor | sed -n 's/^-- cursor: //p'
}
pd_journal() {
    local cursor=$1
    shift
    in_sandbox journalctl --namespace='*' --no-pager -q --after-cursor="$cursor" "$@"
}

# pd_entry_has CURSOR MESSAGE_ID FIELD=VALUE...: true when one entry after CURSOR has the id and every field.
pd_entry_has() {
    local cursor=$1 id=$2
    shift 2
    # No journalctl match here: with --after-cursor, systemd 252's journalctl can return nothing for one.
    pd_journal "$cursor" -o export | awk -v want="MESSAGE_ID=$id $*" '
        BEGIN { n = split(want, fields, " "); for (i = 1; i <= n; i++) need[fields[i]] = 1 }
        /^$/ { if (hits == n) found = 1; hits = 0; split("", got); next }
        ($0 in need) && !($0 in got) { got[$0] = 1; hits++ }
        END { if (hits == n) found = 1; exit !found }'
}

# pd_register APP...: registers test apps without a running unit (never killed) in /run/relaunch/apps.d
# and reloads permissiond; returns once it serves them all. pd_unregister PATTERN removes them again.
pd_register() {
    local app script=""
    for app in "$@"; do
        script+="printf '[App]\\nUnit=relaunch-check-none.service\\n' >/run/relaunch/apps.d/$app.conf; "
    done
    in_sandbox sh -c "mkdir -p /run/relaunch/apps.d && $script"
    in_sandbox systemctl reload permissiond.service
    wait_until 60 sh -c "'$SANDBOX' exec -- busctl call $PD_DEST $PD_PATH $PD_IFACE ListApps | grep -q '\"${*: -1}\"'"
}
pd_unregister() {
    in_sandbox sh -c "rm -f /run/relaunch/apps.d/$1.conf"
    in_sandbox systemctl reload permissiond.service
}

# pd_journal_barrier CURSOR: returns once permissiond has logged a change made after everything before:
# its effects are performed in order, so anything it was going to log for earlier calls is in the journal.
pd_journal_barrier() {
    local app=pd-barrier new
    pd_call Get ss "$app" camera >/dev/null 2>&1 || pd_register "$app"
    new=$(pd_other "$(pd_get "$app" camera)")
    pd_call Set sss "$app" camera "$new"
    wait_until 60 pd_entry_has "$1" "$PD_CHANGED_ID" "APP_ID=$app" "NEW_STATE=$new"
}

# pd_app_ready: the app's unit is active and, with the real app, has finished launching.
pd_app_ready() {
    wait_until 60 unit_is_active "$PD_UNIT"
}

# pd_daemon_ready: permissiond is active (Type=dbus: its name is on the bus).
pd_daemon_ready() {
    wait_until 60 unit_is_active permissiond.service
}

# pd_restarts_reach N: NRestarts of the app is N.
pd_restarts_reach() {
    local n
    n=$(unit_prop "$PD_UNIT" NRestarts)
    echo "$PD_UNIT NRestarts=$n"
    [[ "$n" == "$1" ]]
}

# pd_set_settled APP PERMISSION STATE: a Set that may kill the app; returns once a kill it caused is over
# (systemd restarted the app and it is active again), so the next step starts from a settled app.
pd_set_settled() {
    local kill restarts
    kill=$(pd_call LastKill s "$1")
    restarts=$(unit_prop "$PD_UNIT" NRestarts)
    pd_call Set sss "$@"
    if [[ "$(pd_call LastKill s "$1")" != "$kill" ]]; then
        wait_until 60 pd_restarts_reach $((restarts + 1))
    fi
    pd_app_ready
}

# pd_drop_in_dir: where a runtime drop-in for permissiond.service takes effect.
# On a real host and a sandbox whose unit path has /run/systemd/system, that is the runtime drop-in
# directory; otherwise the sandbox's own unit directory (its first UnitPath entry), with a note.
pd_drop_in_dir() {
    local path
    path=$(in_sandbox systemctl show -P UnitPath)
    if [[ " $path " == *" /run/systemd/system "* ]]; then
        echo /run/systemd/system/permissiond.service.d
    else
        echo "${path%% *}/permissiond.service.d"
    fi
}

# pd_set_policy ios|android|default: switches permissiond's kill policy with a drop-in setting
# RELAUNCH_KILL_POLICY (as the scenario runner does), then restarts it and waits for its name. The
# drop-in's name sorts after the runner's (50-relaunch-scenario-policy.conf, which a scenario played
# earlier in the run leaves at ios), so the check's policy is the one in force.
pd_set_policy() {
    local dir
    dir=$(pd_drop_in_dir)
    [[ "$dir" == /run/* ]] || note "the sandbox's unit path lacks /run/systemd/system: the kill-policy drop-in went to $dir"
    if [[ "$1" == default ]]; then
        in_sandbox rm -f "$dir/90-relaunch-check-kill-policy.conf"
    else
        in_sandbox sh -c "mkdir -p '$dir' && printf '[Service]\nEnvironment=RELAUNCH_KILL_POLICY=%s\n' '$1' \
            >'$dir/90-relaunch-check-kill-policy.conf'"
    fi
    in_sandbox systemctl daemon-reload
    in_sandbox systemctl restart permissiond.service
    pd_daemon_ready
    if [[ "$1" != default ]]; then
        assert_contains "$(unit_prop permissiond.service Environment)" "RELAUNCH_KILL_POLICY=$1" \
            "permissiond's environment (drop-in in $dir)"
    fi
}

# pd_expect_kill CURSOR PERMISSION RESTARTS INVOCATION: the app was killed for PERMISSION after CURSOR
# (our entry, systemd's exit entry with status 9) and relaunched (NRestarts = RESTARTS + 1).
pd_expect_kill() {
    local cursor=$1 permission=$2 restarts=$3 invocation=$4
    wait_until 60 pd_restarts_reach $((restarts + 1))
    pd_app_ready
    wait_until 60 pd_entry_has "$cursor" "$PD_KILLED_ID" "APP_ID=$PD_APP" "UNIT=$PD_UNIT" \
        "PERMISSION=$permission" "SIGNAL=KILL" "SYSLOG_IDENTIFIER=permissiond" "KILLED_INVOCATION_ID=$invocation"
    wait_until 60 pd_entry_has "$cursor" "$PD_SYSTEMD_EXIT_ID" "UNIT=$PD_UNIT" "EXIT_CODE=killed" "EXIT_STATUS=9"
    local kill
    kill=$(pd_call LastKill s "$PD_APP")
    assert_contains "$kill" "\"$invocation\" \"$permission\"" "LastKill after the kill"
    [[ "$(unit_prop "$PD_UNIT" InvocationID)" != "$invocation" ]] || fail "the app's InvocationID did not change"
}

# pd_expect_no_kill CURSOR PERMISSION NEW LASTKILL: PERMISSION changed to NEW after CURSOR, logged with
# KILL=false, and the app was not killed: LastKill is still LASTKILL (a kill is recorded before the Set is
# answered) and no kill entry was logged.
pd_expect_no_kill() {
    local cursor=$1 permission=$2 new=$3 last_kill=$4
    assert_eq "$last_kill" "$(pd_call LastKill s "$PD_APP")" "LastKill (the app must not have been killed)"
    wait_until 60 pd_entry_has "$cursor" "$PD_CHANGED_ID" "APP_ID=$PD_APP" "PERMISSION=$permission" \
        "NEW_STATE=$new" "KILL=false" "CALLER_UID=0"
    pd_journal_barrier "$cursor"
    ! pd_entry_has "$cursor" "$PD_KILLED_ID" "APP_ID=$PD_APP" || fail "permissiond logged a kill for $permission"
}

check_permissiond_reads() {
    local out app=pd-never-set-$$
    pd_register "$app"
    assert_eq not-determined "$(pd_get "$app" camera)" "Get of a never-set permission"
    out=$(pd_call List s "$app")
    assert_contains "$out" "a{ss} 7 " "List"  # every permission, notifications included
    local permission
    for permission in camera microphone photos contacts calendars location; do
        assert_contains "$out" "\"$permission\" \"not-determined\"" "List"
    done
    assert_contains "$(pd_call ListApps)" "\"$PD_APP\"" "ListApps (configured apps)"
    assert_eq '(sssst) "" "" "" "" 0' "$(pd_call LastKill s "$app")" "LastKill of an app never killed"
    # Reads are private (SecurityChecks tries them all): not for uid 65534.
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.Get" \
        "string:$PD_APP" string:camera
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read" "Get by uid 65534"
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.LastKill" \
        "string:$PD_APP"
    assert_contains "$EXPECT_OUTPUT" "org.relaunch.permissions.read" "LastKill by uid 65534"
}

check_permissiond_set_kills_the_running_app() {
    pd_daemon_ready
    pd_app_ready
    local old new cursor restarts invocation
    old=$(pd_get "$PD_APP" camera)
    new=$(pd_other "$old")
    restarts=$(unit_prop "$PD_UNIT" NRestarts)
    invocation=$(unit_prop "$PD_UNIT" InvocationID)
    cursor=$(pd_cursor)
    pd_call Set sss "$PD_APP" camera "$new"
    # Committed before it was answered.
    assert_eq "$new" "$(pd_get "$PD_APP" camera)" "Get right after Set"
    pd_expect_kill "$cursor" camera "$restarts" "$invocation"
    wait_until 60 pd_entry_has "$cursor" "$PD_CHANGED_ID" "APP_ID=$PD_APP" "PERMISSION=camera" \
        "OLD_STATE=$old" "NEW_STATE=$new" "CALLER_UID=0" "KILL=true" "SYSLOG_IDENTIFIER=permissiond"
    assert_contains "$(pd_call LastKill s "$PD_APP")" "\"$old\" \"$new\"" "LastKill old and new state"
}

check_permissiond_set_same_state_changes_nothing() {
    pd_app_ready
    local state kill cursor
    state=$(pd_get "$PD_APP" photos)
    kill=$(pd_call LastKill s "$PD_APP")
    cursor=$(pd_cursor)
    pd_call Set sss "$PD_APP" photos "$state"
    assert_eq "$kill" "$(pd_call LastKill s "$PD_APP")" "LastKill after a no-op Set"
    pd_journal_barrier "$cursor"
    ! pd_entry_has "$cursor" "$PD_CHANGED_ID" "APP_ID=$PD_APP" "PERMISSION=photos" || fail "a no-op Set was logged"
}

check_permissiond_location_does_not_kill_under_ios() {
    pd_app_ready
    local new kill cursor
    new=$(pd_other "$(pd_get "$PD_APP" location)")
    kill=$(pd_call LastKill s "$PD_APP")
    cursor=$(pd_cursor)
    pd_call Set sss "$PD_APP" location "$new"
    pd_expect_no_kill "$cursor" location "$new" "$kill"
}

check_permissiond_android_policy_kills_only_on_revoke() {
    trap 'pd_set_policy default' EXIT
    pd_set_policy android
    pd_app_ready
    # contacts starts denied (that Set may kill: a revoke), then a grant (no kill), then a revoke (kill).
    pd_set_settled "$PD_APP" contacts denied
    local kill cursor restarts invocation
    kill=$(pd_call LastKill s "$PD_APP")
    cursor=$(pd_cursor)
    pd_call Set sss "$PD_APP" contacts allowed
    pd_expect_no_kill "$cursor" contacts allowed "$kill"
    restarts=$(unit_prop "$PD_UNIT" NRestarts)
    invocation=$(unit_prop "$PD_UNIT" InvocationID)
    cursor=$(pd_cursor)
    pd_call Set sss "$PD_APP" contacts denied
    pd_expect_kill "$cursor" contacts "$restarts" "$invocation"
    trap - EXIT
    pd_set_policy default
    assert_contains "$(in_sandbox journalctl --namespace='*' -u permissiond.service -o cat -n 20 --no-pager)" "kill policy ios" \
        "permissiond's policy once the drop-in is gone"
}

check_permissiond_refuses_non_root_writers() {
    local before cursor
    before=$(pd_get "$PD_APP" calendars)
    cursor=$(pd_cursor)
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.Set" \
        string:"$PD_APP" string:calendars string:"$(pd_other "$before")"
    assert_contains "$EXPECT_OUTPUT" "org.freedesktop.DBus.Error.AccessDenied" "Set by uid 65534"
    assert_service_refused "$EXPECT_OUTPUT" "Set by uid 65534"
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.Reset" \
        string:"$PD_APP" string:
    assert_service_refused "$EXPECT_OUTPUT" "Reset by uid 65534"
    polkit_is_up >/dev/null || fail "polkit is not up after the refusals: $(polkit_is_up)"
    assert_eq "$before" "$(pd_get "$PD_APP" calendars)" "calendars after refused writes"

    # The bus policy is the first fence; open it for a moment so the call reaches permissiond, which must
    # refuse by the caller's uid itself. (/etc inside the sandbox is a throwaway overlay.)
    local policy=/etc/dbus-1/system.d/zz-relaunch-check-open-permissions.conf
    trap "in_sandbox rm -f $policy; in_sandbox busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig || true" EXIT
    in_sandbox sh -c "cat >$policy" <<EOF
<busconfig>
  <policy context="default">
    <allow send_destination="$PD_DEST" send_interface="$PD_IFACE"/>
  </policy>
</busconfig>
EOF
    in_sandbox busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.Set" \
        string:"$PD_APP" string:calendars string:"$(pd_other "$before")"
    assert_contains "$EXPECT_OUTPUT" "org.freedesktop.DBus.Error.AccessDenied" "Set by uid 65534 (policy open)"
    assert_contains "$EXPECT_OUTPUT" "uid 65534" "permissiond's own refusal"
    expect_exit 1 pd_as_nobody dbus-send --system --print-reply --dest="$PD_DEST" "$PD_PATH" "$PD_IFACE.Reset" \
        string:"$PD_APP" string:
    assert_contains "$EXPECT_OUTPUT" "org.freedesktop.DBus.Error.AccessDenied" "Reset by uid 65534 (policy open)"
    in_sandbox rm -f "$policy"
    in_sandbox busctl call org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus ReloadConfig
    trap - EXIT

    assert_eq "$before" "$(pd_get "$PD_APP" calendars)" "calendars after refused writes"
    ! pd_entry_has "$cursor" "$PD_CHANGED_ID" "APP_ID=$PD_APP" "PERMISSION=calendars" ||
        fail "a refused write was logged as a change"
}

check_permissiond_rejects_bad_arguments() {
    local invalid=org.freedesktop.DBus.Error.InvalidArgs
    expect_exit 1 pd_send Set string:"$PD_APP" string:bluetooth string:allowed
    assert_contains "$EXPECT_OUTPUT" "$invalid" "Set with an unknown permission"
    assert_contains "$EXPECT_OUTPUT" "camera, microphone, photos, contacts, calendars, location" "its message"
    expect_exit 1 pd_send Set string:"$PD_APP" string:camera string:maybe
    assert_contains "$EXPECT_OUTPUT" "$invalid" "Set with an unknown state"
    assert_contains "$EXPECT_OUTPUT" "not-determined, denied, allowed" "its message"
    expect_exit 1 pd_send Get string:"No Such App!" string:camera
    assert_contains "$EXPECT_OUTPUT" "$invalid" "Get with a malformed app id"
    assert_contains "$EXPECT_OUTPUT" "[a-z0-9]" "its message"
    expect_exit 1 pd_send Reset string:"$PD_APP" string:bluetooth
    assert_contains "$EXPECT_OUTPUT" "$invalid" "Reset with an unknown permission"
    # busctl shows the same message.
    expect_exit 1 pd_call Get ss "$PD_APP" bluetooth
    assert_contains "$EXPECT_OUTPUT" "accepted: camera, microphone" "busctl Get with an unknown permission"
    # Wrong argument types never reach the daemon's logic (sd-bus checks the signature).
    expect_exit 1 pd_call Get s "$PD_APP"
}

check_permissiond_emits_changed() {
    local app=pd-signal-$$ out=/tmp/pd-changed-$$.json
    pd_register "$app"
    # busctl monitor in the background inside the sandbox, ready once it has seen a probe call of ours;
    # it runs until this check ends it (the trap below) or the sandbox goes down: no time budget.
    in_sandbox sh -c "echo \$\$ >$out.pid; exec busctl monitor --json=short \
        --match \"interface='$PD_IFACE'\" >$out 2>/dev/null" &
    trap "in_sandbox sh -c 'kill \$(cat $out.pid) 2>/dev/null; rm -f $out $out.pid' || true" EXIT
    probe() {
        pd_call Get ss "$app" camera >/dev/null
        in_sandbox grep -q "\"$app\",\"camera\"\]" "$out"
    }
    wait_until 60 probe
    pd_call Set sss "$app" camera denied
    pd_call Set sss "$app" camera allowed
    pd_call Reset ss "$app" ""
    changed() {
        in_sandbox grep -q "\"member\":\"Changed\".*\"data\":\[\"$app\",\"camera\",\"$1\",\"$2\",false\]" "$out"
    }
    wait_until 60 changed not-determined denied
    wait_until 60 changed denied allowed
    wait_until 60 changed allowed not-determined
    # The configured app's signal says it was killed.
    pd_app_ready
    local new
    new=$(pd_other "$(pd_get "$PD_APP" photos)")
    pd_set_settled "$PD_APP" photos "$new"
    wait_until 60 in_sandbox grep -q "\"member\":\"Changed\".*\"data\":\[\"$PD_APP\",\"photos\",\"[a-z-]*\",\"$new\",true\]" "$out"
    pd_app_ready
    in_sandbox sh -c "kill \$(cat $out.pid); rm -f $out $out.pid"
    trap - EXIT
}

# The durability check's apps are registered by its writer as it needs them, PD_DURABLE_BATCH apps
# (6 one-shot slots each) at a time: however fast the machine, the writer never runs out of slots.
PD_DURABLE_BATCH=50

# pd_durable_writer ACKED STOP PREFIX NEXT (runs inside the sandbox, script on stdin): for slot N = NEXT,
# NEXT+1, ... sets permission N%6 of app PREFIX-(N/6) to allowed (a slot is set once only, so an
# acknowledged Set has exactly one right answer), until STOP exists, appending "APP PERMISSION" to ACKED
# for each acknowledged Set and keeping the next free slot in ACKED.next. Before it uses the first slot
# of an app not yet registered, it registers the next batch (apps.d files, then a reload; a permissiond
# restarted by a SIGKILL meanwhile reads them at its start) and waits until permissiond serves it,
# keeping the number of registered apps in ACKED.registered.
pd_durable_writer() {
    in_sandbox sh -s -- "$@" "$PD_DURABLE_BATCH" <<'EOF'
acked=$1 stop=$2 prefix=$3 i=$4 batch=$5
registered=$(cat "$acked.registered" 2>/dev/null || echo 0)
call() {
    busctl --timeout=5 call org.relaunch.Permissions1 /org/relaunch/Permissions1 org.relaunch.Permissions1 "$@"
}
while [ ! -e "$stop" ]; do
    if [ $((i / 6)) -ge "$registered" ]; then
        n=$registered
        mkdir -p /run/relaunch/apps.d
        while [ $n -lt $((registered + batch)) ]; do
            printf '[App]\nUnit=relaunch-check-none.service\n' >"/run/relaunch/apps.d/$(printf '%s-%04d' "$prefix" $n).conf"
            n=$((n + 1))
        done
        last=$(printf '%s-%04d' "$prefix" $((n - 1)))
        tries=0
        until [ -e "$stop" ] || call Get ss "$last" camera >/dev/null 2>&1; do
            # A reload now and then: one sent while permissiond was restarting may have gone nowhere.
            [ $((tries % 20)) -ne 0 ] || systemctl reload permissiond.service >/dev/null 2>&1 || true
            tries=$((tries + 1))
            sleep 0.1
        done
        [ ! -e "$stop" ] || break
        registered=$n
        echo "$registered" >"$acked.registered"
    fi
    app=$(printf '%s-%04d' "$prefix" $((i / 6)))
    case $((i % 6)) in
    0) permission=camera ;; 1) permission=microphone ;; 2) permission=photos ;;
    3) permission=contacts ;; 4) permission=calendars ;; *) permission=location ;;
    esac
    i=$((i + 1))
    echo $i >"$acked.next"
    call Set sss "$app" "$permission" allowed >/dev/null 2>&1 && echo "$app $permission" >>"$acked"
done
EOF
}

# pd_durable_verify ACKED (inside the sandbox): every Set in ACKED reads back allowed. One process and
# one bus connection for all of them (python3-dbus): the list grows to over a thousand Sets, read
# again after every round, and a busctl process per Get made this check most of the stage's time.
pd_durable_verify() {
    in_sandbox /usr/bin/python3 - "$@" <<'EOF'
import sys
import dbus
bus = dbus.SystemBus()
store = dbus.Interface(bus.get_object("org.relaunch.Permissions1", "/org/relaunch/Permissions1"),
                       "org.relaunch.Permissions1")
bad = 0
with open(sys.argv[1]) as acked:
    for line in acked:
        app, permission = line.split()
        try:
            got = str(store.Get(app, permission, timeout=25))
        except dbus.DBusException as error:
            print(f"Get {app} {permission} failed: {error.get_dbus_name()}")
            sys.exit(1)
        if got != "allowed":
            print(f'lost acknowledged Set: {app} {permission} is s "{got}"')
            bad = 1
sys.exit(bad)
EOF
}

check_permissiond_durable_under_sigkill() {
    # Rounds of: a writer doing Sets in a loop (each to a fresh app id without a unit, so an acknowledged
    # Set has exactly one right answer and never kills the app), SIGKILL to permissiond while it writes,
    # systemd restarts it, the writer gets through to the new instance; then every Set acknowledged so far
    # (busctl exit 0) must read back. Unacknowledged Sets may or may not have been committed.
    # RELAUNCH_DURABLE_ROUNDS sets the number of rounds (default 20).
    local rounds=${RELAUNCH_DURABLE_ROUNDS:-20} round acked=/tmp/pd-acked-$$ stop=/tmp/pd-stop-$$ restarts writer count verdict
    local prefix=pd-durable-$$
    trap "in_sandbox touch $stop; in_sandbox rm -f $acked $acked.next $acked.registered; pd_unregister '$prefix-*'" EXIT
    in_sandbox rm -f "$acked" "$stop" "$acked.registered"
    in_sandbox touch "$acked"
    in_sandbox sh -c "echo 0 >$acked.next"
    acks() { in_sandbox sh -c "wc -l <$acked"; }
    # acks_above N: more than N Sets acknowledged; says how many, and how far the writer got.
    acks_above() {
        local n
        n=$(acks)
        echo "$n acknowledged Sets, next slot $(in_sandbox cat "$acked.next"), $(in_sandbox cat "$acked.registered" 2>/dev/null || echo 0) apps registered, permissiond $(unit_prop permissiond.service ActiveState)"
        [[ $n -gt $1 ]]
    }
    daemon_restarts_above() {
        local n
        n=$(unit_prop permissiond.service NRestarts)
        echo "permissiond NRestarts=$n"
        [[ $n -gt $1 ]]
    }
    for round in $(seq 1 "$rounds"); do
        pd_daemon_ready
        count=$(acks)
        pd_durable_writer "$acked" "$stop" "$prefix" "$(in_sandbox cat "$acked.next")" &
        writer=$!
        wait_until 120 acks_above "$((count + 2))"
        restarts=$(unit_prop permissiond.service NRestarts)
        in_sandbox systemctl kill -s KILL permissiond.service
        wait_until 60 daemon_restarts_above "$restarts"
        pd_daemon_ready
        count=$(acks)
        wait_until 120 acks_above "$count"
        in_sandbox touch "$stop"
        wait "$writer"
        in_sandbox rm -f "$stop"
        # A lost Set is named by the verifier; any other failure (a Get that fails, the sandbox gone)
        # is not a lost Set and says what it was.
        if ! verdict=$(pd_durable_verify "$acked" 2>&1); then
            if grep -q '^lost acknowledged Set' <<<"$verdict"; then
                fail "round $round: an acknowledged Set was lost after SIGKILL: $(grep -m 3 '^lost' <<<"$verdict" | tr '\n' ';')"
            fi
            fail "round $round: could not read the acknowledged Sets back: $(tail -n 3 <<<"$verdict" | tr '\n' ' ')"
        fi
    done
    note "permissiond durability: $(acks) acknowledged Sets to $(in_sandbox cat "$acked.registered") registered apps across $rounds SIGKILLs, none lost"
    trap - EXIT
    in_sandbox rm -f "$acked" "$acked.next" "$acked.registered"
    pd_unregister "$prefix-*"
}

check_permissiond_stops_cleanly_and_refuses_bad_settings() {
    pd_daemon_ready
    in_sandbox systemctl stop permissiond.service
    trap 'in_sandbox systemctl start permissiond.service || true' EXIT
    assert_eq success "$(unit_prop permissiond.service Result)" "permissiond's Result after SIGTERM"
    assert_eq 0 "$(unit_prop permissiond.service ExecMainStatus)" "permissiond's exit status after SIGTERM"
    in_sandbox systemctl start permissiond.service
    trap - EXIT
    pd_daemon_ready

    # Bad settings: one line on stderr, exit 1, before touching the bus.
    local dir=/tmp/pd-settings-$$
    in_sandbox mkdir -p "$dir"
    in_sandbox sh -c "printf 'kill-policy = sometimes\n' >$dir/bad.conf"
    expect_exit 1 in_sandbox permissiond --config "$dir/bad.conf" --database "$dir/p.db"
    assert_contains "$EXPECT_OUTPUT" "$dir/bad.conf:1:" "bad configuration"
    assert_eq 1 "$(wc -l <<<"$EXPECT_OUTPUT")" "lines printed for a bad configuration"
    expect_exit 1 in_sandbox env RELAUNCH_KILL_POLICY=sometimes permissiond --database "$dir/p.db"
    assert_contains "$EXPECT_OUTPUT" "RELAUNCH_KILL_POLICY='sometimes' is not a kill policy; accepted: ios, android"
    expect_exit 1 in_sandbox permissiond --database "$dir/no/such/dir/p.db"
    assert_contains "$EXPECT_OUTPUT" "cannot open permission database $dir/no/such/dir/p.db"
    expect_exit 0 in_sandbox permissiond --print-example-config
    assert_contains "$EXPECT_OUTPUT" "kill-policy = ios"
    in_sandbox rm -rf "$dir"
}
