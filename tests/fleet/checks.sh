# tests/fleet/run's checks, run once every container is up. Sourced after fleet-lib.sh.

certs=/root/fleet-certs
# Not compared before install and after uninstall, besides what tests/host/run leaves out: apt's and
# dpkg's own records and caches, and ldconfig's (the package itself is checked with dpkg-query).
snapshot_prune=(/var/cache/apt /var/lib/apt /var/log/apt /var/log/dpkg.log /var/lib/dpkg /var/cache/debconf
    /var/cache/ldconfig)

# app_key APP KEY: the last KEY= of the app's registration in the checkout.
app_key() { sed -n "s/^[[:space:]]*$2[[:space:]]*=[[:space:]]*//p" "$repo/systemd/apps.d/$1.conf" | tail -n 1; }
# toggles: "app unit permission" of every app with a permission whose change kills it (not location).
toggles() {
    local app list perm
    # shellcheck source=../../scripts/lib/project-apps.sh
    source "$repo/scripts/lib/project-apps.sh"
    while read -r app; do
        list=$(app_key "$app" Permissions)
        [[ -n "$list" ]] || list="camera microphone photos contacts calendars location"
        for perm in $list; do
            [[ $perm == location ]] || { echo "$app $(app_key "$app" Unit) $perm"; break; }
        done
    done < <(project_apps "$repo")
}

# The toggle round a host runs: each app's permission denied, then allowed; each change kills the app
# (a new invocation, awaited 30 s) and systemd relaunches it (wait-ready, 60 s).
toggle_script='
while read -r app unit perm; do
    for state in denied allowed; do
        before=$(systemctl show -P InvocationID "$unit")
        relaunchctl permission set "$app" "$perm" "$state" || exit 1
        i=0
        while [ "$(systemctl show -P InvocationID "$unit")" = "$before" ]; do
            i=$((i + 1))
            [ $i -lt 300 ] || { echo "$app: still invocation $before 30 s after $perm $state"; exit 1; }
            sleep 0.1
        done
        relaunchctl app --app "$app" wait-ready --timeout 60 || exit 1
    done
done <<EOF
$0
EOF'

toggle_round() {
    local label=$1
    targets=("${hosts[@]}")
    in_each "$label" sh -c "$toggle_script" "$(toggles)"
}

# wait_units STATE SECONDS NAME UNIT...: until UNIT is STATE (is-active) in NAME; FAIL with what it was.
wait_unit_active() {
    local name=$1 unit=$2 deadline=$((SECONDS + $3)) state
    while :; do
        state=$(ct_exec "$name" systemctl is-active "$unit")
        [[ $state == active ]] && { pass "$name: $unit is active and $(ct_exec "$name" systemctl is-enabled "$unit")"; return 0; }
        [[ $SECONDS -lt $deadline ]] || break
        sleep 0.2
    done
    fail "$name: $unit is $state after $3 s:"
    ct_exec "$name" journalctl -q -n 10 --no-pager -u "$unit" | sed 's/^/    | /'
    return 1
}

# check_from_package NAME UNIT-OR-FILE...: in NAME, each unit's file (systemd's FragmentPath) and each
# file is one of the relaunch-fleet package's (dpkg -S), and no unit has a drop-in: the fleet's pieces
# are the package's, none copied by hand under /usr/local or /etc.
check_from_package() {
    local name=$1 out
    shift
    out=$(ct_exec "$name" sh -c '
        for item in "$@"; do
            case "$item" in
                /*) path=$item dropins="" ;;
                *) path=$(systemctl show -P FragmentPath "$item") dropins=$(systemctl show -P DropInPaths "$item") ;;
            esac
            # dpkg knows the path the package ships (/lib or /usr/lib: merged /usr makes them one).
            owner=""
            [ -z "$path" ] || owner=$(dpkg -S "$path" 2>/dev/null || dpkg -S "/usr$path" 2>/dev/null || dpkg -S "${path#/usr}" 2>/dev/null)
            owner=${owner%%:*}
            [ "$owner" = relaunch-fleet ] && [ -z "$dropins" ] ||
                echo "$item: ${path:-no unit file}, ${owner:-in no package}${dropins:+, drop-ins $dropins}"
        done' sh "$@" 2>&1)
    if [[ -z "$out" ]]; then
        pass "$name: the fleet's pieces are the relaunch-fleet package's (dpkg -S), no drop-in: $*"
    else
        fail "$name: fleet pieces that are not the relaunch-fleet package's:"
        sed 's/^/    | /' <<<"$out"
    fi
}

# check_fleet_upgrade NAME UNIT...: apt-get upgrades relaunch-fleet in NAME to the later version
# make_fleet_upgrade made; its role's UNITs stay enabled and active (the upgrade keeps the role).
check_fleet_upgrade() {
    local name=$1 log=$logs/fleet-upgrade-$1.log before after states unit
    shift
    before=$(ct_exec "$name" dpkg-query -W -f='${Version}' relaunch-fleet)
    ct_exec "$name" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$0"/relaunch-fleet_*_all.deb' \
        "$repo/.build/debs-fleet-upgrade" >"$log" 2>&1 || { fail "$name: upgrade of relaunch-fleet: apt-get install failed ($log)"; return; }
    after=$(ct_exec "$name" dpkg-query -W -f='${Version}' relaunch-fleet)
    states=""
    for unit in "$@"; do
        states+=" $unit $(ct_exec "$name" systemctl is-enabled "$unit") $(ct_exec "$name" systemctl is-active "$unit");"
    done
    if [[ "$after" == "$before+fleetup1" && "$(grep -o ' enabled active;' <<<"$states" | grep -c .)" -eq $# ]]; then
        pass "$name: upgrade of relaunch-fleet ($before -> $after) keeps the role: each unit enabled and active (${states# })"
    else
        fail "$name: upgrade of relaunch-fleet ($before -> $after) changed the role:${states%;}"
    fi
}

# check_fleet_remove NAME UNIT...: apt-get remove relaunch-fleet in NAME stops every fleet unit and
# keeps the configuration; installing it again starts the role's UNITs (still enabled) again.
check_fleet_remove() {
    local name=$1 log=$logs/fleet-remove-$1.log running kept states unit
    shift
    ct_exec "$name" env DEBIAN_FRONTEND=noninteractive apt-get remove -y -q relaunch-fleet >"$log" 2>&1 ||
        { fail "$name: apt-get remove relaunch-fleet failed ($log)"; return; }
    running=$(ct_exec "$name" systemctl list-units --plain --no-legend --state=active 'relaunch-fleet-*' | awk '{ print $1 }' | tr '\n' ' ')
    kept=$(ct_exec "$name" ls /etc/relaunch/fleet | tr '\n' ' ')
    ct_exec "$name" sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$0"/relaunch-fleet_*_all.deb' \
        "$repo/.build/debs" >>"$log" 2>&1 || { fail "$name: installing relaunch-fleet again failed ($log)"; return; }
    states=""
    for unit in "$@"; do
        states+=" $unit $(ct_exec "$name" systemctl is-enabled "$unit") $(ct_exec "$name" systemctl is-active "$unit");"
    done
    if [[ -z "$running" && " $kept " == *" key.pem uploader.env "* && "$(grep -o ' enabled active;' <<<"$states" | grep -c .)" -eq $# ]]; then
        pass "$name: apt-get remove relaunch-fleet stops every fleet unit and keeps /etc/relaunch/fleet ($kept); an install again starts the role:${states%;}"
    else
        fail "$name: remove, then install of relaunch-fleet: running after the remove: ${running:-none}; kept: ${kept:-nothing}; after the install:${states%;}"
    fi
}

# snapshots WHEN: every container's file list, at once, into $logs/files.WHEN-NAME. (Not a bare
# `wait`: that would wait for the containers too.)
snapshots() {
    local name
    local -a pids=()
    for name in "${all[@]}"; do
        ct_snapshot "$name" "$logs/files.$1-$name" "${snapshot_prune[@]}" &
        pids+=($!)
    done
    wait "${pids[@]}"
}

run_checks() {
    local name status t0 i left
    for name in "${all[@]}"; do
        machine_id[$name]=$(ct_exec "$name" cat /etc/machine-id)
    done
    if [[ $(printf '%s\n' "${machine_id[@]}" | LC_ALL=C sort -u | grep -c .) -eq ${#all[@]} ]]; then
        pass "machine ids: four, all different (${machine_id[*]})"
    else
        fail "machine ids are not all different: ${machine_id[*]}"
    fi
    snapshots before

    # --- install: the receiver, then the hosts (the packages were built outside: build_packages) ------------
    t0=$SECONDS
    ct_exec "$receiver" nice -n 10 scripts/install --debs "$repo/.build/debs" --fleet-receiver --fleet-ca "$certs/ca.pem" \
        --fleet-cert "$certs/$receiver.pem" --fleet-key "$certs/$receiver.key" --fleet-max-use "$bound" \
        >"$logs/install-$receiver.log" 2>&1
    status=$?
    record "$receiver: scripts/install --debs --fleet-receiver (packages, files, units) in $((SECONDS - t0)) s" "$logs/install-$receiver.log" $status
    [[ $status -eq 0 ]] || return
    wait_unit_active "$receiver" relaunch-fleet-proxy.service 10 || return
    ct_exec "$receiver" scripts/fleet-enroll "${hosts[@]}" >"$logs/enroll.log" 2>&1
    record "$receiver: scripts/fleet-enroll ${hosts[*]}" "$logs/enroll.log" $?
    check_upgrade
    t0=$SECONDS
    targets=("${hosts[@]}")
    in_each install sh -c 'exec scripts/install --debs "$PWD/.build/debs" --fleet-upload "https://$0" \
        --fleet-ca "$1/ca.pem" --fleet-cert "$1/$(hostname).pem" --fleet-key "$1/$(hostname).key"' "$receiver" "$certs" ||
        return
    echo "    (the hosts' installs took $((SECONDS - t0)) s)"
    for name in "${hosts[@]}"; do
        wait_unit_active "$name" relaunch-fleet-upload.service 30 || return
    done
    wait_in_sync "after install" 90 || return
    check_from_package "$receiver" relaunch-fleet-proxy.service relaunch-fleet-vacuum.path relaunch-fleet-vacuum.service \
        "relaunch-fleet-remote@${hosts[0]}.socket" "relaunch-fleet-remote@${hosts[0]}.service" \
        "relaunch-fleet-pin@${hosts[0]}.path" "relaunch-fleet-pin@${hosts[0]}.service" \
        /usr/lib/relaunch/fleet-pin /usr/lib/relaunch/fleet-vacuum /usr/lib/relaunch/fleet/nginx.conf
    for name in "${hosts[@]}"; do
        check_from_package "$name" relaunch-fleet-upload.service relaunch-fleet-upload@relaunch-permissiond.service
    done
    check_fleet_upgrade "$receiver" relaunch-fleet-proxy.service relaunch-fleet-vacuum.path \
        "relaunch-fleet-remote@${hosts[0]}.socket" "relaunch-fleet-pin@${hosts[0]}.path"
    check_fleet_upgrade "${hosts[0]}" relaunch-fleet-upload.service relaunch-fleet-upload@relaunch-permissiond.service
    check_fleet_remove "${hosts[1]}" relaunch-fleet-upload.service relaunch-fleet-upload@relaunch-permissiond.service
    check_pins
    check_refused_peers

    # --- rounds of toggles, the receiver up -------------------------------------------------------------------
    toggle_round toggle-1 || return
    wait_in_sync "round 1" 90
    review_each "round 1"

    # --- forgeries from certified hosts: each in its sender's own file, left out and counted -------------------
    forge_uploads
    review_each "after the forgeries"
    check_forgeries_counted

    # --- a round with the receiver down -----------------------------------------------------------------------
    outage_round
    review_each "after the outage"
    review_all

    # --- the receiver at its bound ----------------------------------------------------------------------------
    bound_round

    # --- uninstall ----------------------------------------------------------------------------------------------
    targets=("${all[@]}")
    in_each uninstall scripts/uninstall --purge
    snapshots after
    for name in "${all[@]}"; do
        if diff -u "$logs/files.before-$name" "$logs/files.after-$name" >"$logs/files-$name.diff"; then
            pass "$name: uninstall --purge: the file list is the one before install ($(wc -l <"$logs/files.after-$name") paths)"
        else
            fail "$name: uninstall --purge: the file list differs ($logs/files-$name.diff; + left behind, - removed):"
            grep -E '^[+-][^+-]' "$logs/files-$name.diff" | head -n 10 | sed 's/^/    | /'
        fi
        left=$(ct_exec "$name" dpkg-query -W -f='${db:Status-Abbrev} ${Package}\n' relaunch-fleet systemd-journal-remote \
            libmicrohttpd12 nginx nginx-common 2>/dev/null | awk '$1 != "un" { print $2 }' | tr '\n' ' ')
        if [[ -n "$left" ]] || ct_exec "$name" pgrep -f 'systemd-journal-(remote|upload)|nginx' >/dev/null; then
            fail "$name: uninstall left packages (${left:-none}) or a process of the fleet"
        else
            pass "$name: uninstall purged relaunch-fleet and what it alone needed (systemd-journal-remote$([[ $name == "$receiver" ]] && echo ', nginx')), no fleet process left"
        fi
    done
}

# outage_round: the receiver stops; the hosts toggle; each uploader fails and waits; the receiver
# lacks the round; it starts again; uploads resume from the saved cursor, nothing missing or twice.
# uploads_idle NAME: true when every uploader of host NAME (the default journal's and each namespace's)
# has saved the cursor of its journal's newest entry: no upload is on its way. Prints what differs.
uploads_idle() {
    ct_exec "$1" sh -c '
        busy=0
        machine=$(cat /etc/machine-id)
        for state in /var/lib/private/relaunch-fleet-upload/state /var/lib/private/relaunch-fleet-upload-*/state; do
            [ -f "$state" ] || continue
            case "$state" in
                */relaunch-fleet-upload-*)
                    namespace=${state#/var/lib/private/relaunch-fleet-upload-}
                    namespace=${namespace%/state}
                    head=$(journalctl -q -D "/var/log/journal/$machine.$namespace" -n 0 --show-cursor | sed -n "s/^-- cursor: //p") ;;
                *) head=$(journalctl -q -n 0 --show-cursor | sed -n "s/^-- cursor: //p") ;;
            esac
            saved=$(sed -n "s/^LAST_CURSOR=//p" "$state")
            [ "$saved" = "$head" ] || { echo "$state: saved ${saved:-nothing}, newest $head"; busy=1; }
        done
        exit $busy'
}

outage_round() {
    local name deadline state restarts summary="" cursor
    local -A restarts_before=()
    # The receiver stops between uploads, not during one: an upload cut off half way may be written in
    # part and is sent again in full (duplicates systemd does not remove). With an uploader per journal
    # namespace some upload is often on its way, so wait until none is.
    for name in "${hosts[@]}"; do
        deadline=$((SECONDS + 60))
        until uploads_idle "$name" >"$logs/uploads-idle-$name.txt"; do
            [[ $SECONDS -lt $deadline ]] || { echo "    (outage: $name's uploads still busy after 60 s: $(head -n 1 "$logs/uploads-idle-$name.txt"))"; break; }
            sleep 0.2
        done
    done
    ct_exec "$receiver" systemctl stop relaunch-fleet-proxy.service ||
        { fail "outage: systemctl stop relaunch-fleet-proxy.service on $receiver"; return; }
    for name in "${hosts[@]}"; do
        restarts_before[$name]=$(ct_exec "$name" systemctl show -P NRestarts relaunch-fleet-upload.service)
    done
    toggle_round toggle-2-receiver-down || return
    # Each uploader tried, failed and was restarted by systemd at least once (60 s).
    for name in "${hosts[@]}"; do
        deadline=$((SECONDS + 60))
        while :; do
            restarts=$(ct_exec "$name" systemctl show -P NRestarts relaunch-fleet-upload.service)
            [[ $restarts -gt ${restarts_before[$name]} ]] && break
            [[ $SECONDS -lt $deadline ]] || break
            sleep 0.2
        done
        state=$(ct_exec "$name" systemctl is-active relaunch-fleet-upload.service)
        if [[ $restarts -gt ${restarts_before[$name]} ]]; then
            summary+=" $name: restarted ${restarts_before[$name]} -> $restarts times, now $state;"
        else
            fail "outage: $name's uploader did not fail while the receiver was down (NRestarts $restarts, $state after 60 s)"
            return
        fi
    done
    pass "outage: every uploader's upload failed and systemd restarts it:${summary%;}"
    summary=""
    local h r lacking=1 cursors=1
    for name in "${hosts[@]}"; do
        h=$(host_entries "$name" | grep -c .)
        r=$(receiver_entries "$name" | grep -c .)
        summary+=" $name $r of $h;"
        [[ $r -lt $h ]] || { fail "outage: the receiver holds all $h entries of $name although it was down for the round"; lacking=0; }
        cursor=$(ct_exec "$name" sed -n 's/^LAST_CURSOR=//p' /var/lib/private/relaunch-fleet-upload/state 2>/dev/null)
        [[ -n "$cursor" ]] || { fail "outage: $name has no saved cursor in /var/lib/private/relaunch-fleet-upload/state"; cursors=0; }
    done
    [[ $lacking -eq 0 || $cursors -eq 0 ]] ||
        pass "outage: the receiver lacks the round's entries (receiver of host:${summary%;}); every host has a saved cursor"
    # Back, whatever the checks above said: the resume is checked either way.
    ct_exec "$receiver" systemctl start relaunch-fleet-proxy.service ||
        { fail "outage: systemctl start relaunch-fleet-proxy.service on $receiver"; return; }
    wait_in_sync "after the outage: the uploads resumed from the saved cursor" 120
}
