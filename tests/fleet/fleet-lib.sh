# tests/fleet/run's fleet: its names and addresses, the cached layer with Debian's
# systemd-journal-remote, and the checks run once the containers are up. Sourced by tests/fleet/run
# after tests/lib/nspawn.sh.

receiver=fleet-receiver
hosts=(fleet-a fleet-b fleet-c)
all=("$receiver" "${hosts[@]}")
declare -A addr=([fleet-receiver]=10.213.0.1 [fleet-a]=10.213.0.11 [fleet-b]=10.213.0.12 [fleet-c]=10.213.0.13)
declare -A machine_id=()
run=$cache/fleet-run
tag=$(printf '%s' "$cache" | sha1sum | cut -c1-12)
cgroup_of() { echo "relaunch-fleet-$tag-$1"; }
netns_of() { echo "relaunch-fleet-$1"; }
remote=/var/log/journal/remote

# --- The layer: Debian's systemd-journal-remote and its dependencies, downloaded, not installed ------------
fleet_packages=(systemd-journal-remote nginx)
layer_version=2   # bump when the way the layer is made changes

# build_layer: $cache/fleet-layer, an overlay's upper layer over root/ holding apt's lists and the
# packages' .deb files, made again when root/ or the package list changed. The containers' scripts/install
# installs from it with apt-get as on a real host, without a network.
build_layer() {
    local want
    want=$(printf '%s\n' "$layer_version" "${fleet_packages[*]}" "$(cat "$cache/root.stamp")" | sha256sum | cut -c1-16)
    if [[ -d "$cache/fleet-layer" && "$(cat "$cache/fleet-layer.stamp" 2>/dev/null)" == "$want" ]]; then
        echo "==> the cached fleet layer is current ($cache/fleet-layer)"
        return 0
    fi
    echo "==> downloading ${fleet_packages[*]} into the fleet layer (apt-get --download-only)"
    rm -rf "$cache/fleet-layer" "$cache/fleet-layer.stamp" "$cache/fleet-layer.new"
    if ! unshare --mount --propagation private -- "$0" __layer >"$logs/layer.log" 2>&1; then
        tail -n 15 "$logs/layer.log" >&2
        rm -rf "$cache/fleet-layer.new"
        die "the fleet layer could not be made (see $logs/layer.log)"
    fi
    mv "$cache/fleet-layer.new/upper" "$cache/fleet-layer"
    rm -rf "$cache/fleet-layer.new"
    echo "$want" >"$cache/fleet-layer.stamp"
}

# In a mount namespace of its own: apt-get in a chroot of an overlay of root/, with this machine's network.
layer_inner() {
    local new=$cache/fleet-layer.new status
    mkdir -p "$new/upper" "$new/work" "$new/merged"
    mount -t overlay -o "lowerdir=$cache/root,upperdir=$new/upper,workdir=$new/work" relaunch-fleet-layer "$new/merged" || return 1
    mount --rbind /dev "$new/merged/dev" && mount -t proc proc "$new/merged/proc" &&
        mount --bind /etc/resolv.conf "$new/merged/etc/resolv.conf" || return 1
    chroot "$new/merged" apt-get update -q &&
        chroot "$new/merged" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --download-only \
            --no-install-recommends "${fleet_packages[@]}"
    status=$?
    umount "$new/merged/etc/resolv.conf" "$new/merged/proc"
    umount -R "$new/merged/dev"
    umount "$new/merged"
    return $status
}

# make_fleet_upgrade DEBS OUT: relaunch-fleet of DEBS again as a later version (VERSION+fleetup1,
# the same files and scripts) in OUT, for the upgrade check.
make_fleet_upgrade() {
    local deb dir=$2/tree version
    deb=$(ls "$1"/relaunch-fleet_*_all.deb 2>/dev/null | head -n 1)
    rm -rf "$2"
    mkdir -p "$2"
    [[ -n "$deb" ]] || { echo "no relaunch-fleet_*_all.deb in $1" >"$logs/fleet-upgrade.log"; return 1; }
    version=$(dpkg-deb -f "$deb" Version)+fleetup1
    {
        dpkg-deb -R "$deb" "$dir" &&
            sed -i "s/^Version: .*/Version: $version/" "$dir/DEBIAN/control" &&
            dpkg-deb -Zgzip -b "$dir" "$2/relaunch-fleet_${version}_all.deb"
    } >"$logs/fleet-upgrade.log" 2>&1 || return 1
    rm -rf "$dir"
}

# --- Helpers in the containers ------------------------------------------------------------------------------
# in_all LABEL CMD...: CMD in every container named by $targets at once, each logged to
# $logs/LABEL-NAME.log; records PASS or FAIL per container.
in_each() {
    local label=$1 name
    shift
    local -A pids=()
    for name in "${targets[@]}"; do
        ct_exec "$name" "$@" >"$logs/$label-$name.log" 2>&1 &
        pids[$name]=$!
    done
    local status=0 s
    for name in "${targets[@]}"; do
        wait "${pids[$name]}"
        s=$?
        record "$name: $label" "$logs/$label-$name.log" $s
        [[ $s -eq 0 ]] || status=1
    done
    return $status
}

# The MESSAGE_IDs of Relaunch's own journal entries (systemd/relaunch.catalog).
mapfile -t relaunch_ids < <(sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' "$repo/systemd/relaunch.catalog")
relaunch_matches() { printf 'MESSAGE_ID=%s\n' "${relaunch_ids[@]}"; }

# host_entries NAME: the host's Relaunch entries as "realtime boot message-id", sorted (duplicates kept).
host_entries() {
    local -a matches
    mapfile -t matches < <(relaunch_matches)
    # Every namespace: permissiond and each app log to one of their own (LogNamespace=).
    ct_exec "$1" journalctl -q -o json --no-pager --namespace='*' "${matches[@]}" 2>/dev/null |
        jq -r '[.__REALTIME_TIMESTAMP, ._BOOT_ID, .MESSAGE_ID] | join(" ")' | LC_ALL=C sort
}
# receiver_entries NAME: the same, of the entries from NAME's machine id in NAME's files on the receiver.
receiver_entries() {
    local -a matches
    mapfile -t matches < <(relaunch_matches)
    # The host's own files (named by its certificate): another host's file may hold entries claiming it.
    ct_exec "$receiver" journalctl -q -o json --no-pager --file="$remote/remote-$1*.journal" "_MACHINE_ID=${machine_id[$1]}" "${matches[@]}" 2>/dev/null |
        jq -r '[.__REALTIME_TIMESTAMP, ._BOOT_ID, .MESSAGE_ID] | join(" ")' | LC_ALL=C sort
}

# wait_in_sync LABEL SECONDS: until every host's Relaunch entries are on the receiver, each once.
# PASS with the counts; FAIL with what was missing or there twice when the bound passes, or at once
# when the receiver holds an entry the host does not (a duplicate never goes away).
wait_in_sync() {
    local label=$1 deadline=$((SECONDS + $2)) name h r missing extra again summary status
    while :; do
        summary="" status=0
        for name in "${hosts[@]}"; do
            h=$(host_entries "$name")
            r=$(receiver_entries "$name")
            missing=$(LC_ALL=C comm -23 <(echo "$h") <(echo "$r") | grep -c .)
            # An entry the host never wrote fails at once. One the receiver holds twice is an upload
            # journal-upload sent again whole after the receiver had written part of it (systemd
            # removes no such duplicate): counted and shown; the reviews that follow must still equal
            # the host's own, each entry once.
            extra=$(LC_ALL=C comm -13 <(echo "$h" | LC_ALL=C uniq) <(echo "$r" | LC_ALL=C uniq) | grep -c .)
            again=$(LC_ALL=C comm -13 <(echo "$h") <(echo "$r") | grep -c .)
            again=$((again - extra))
            summary+=" $name: $(grep -c . <<<"$h") on the host, $(grep -c . <<<"$r") on the receiver"
            [[ $missing -eq 0 ]] || { summary+=" ($missing missing)"; status=1; }
            [[ $again -eq 0 ]] || summary+=" ($again sent twice)"
            if [[ $extra -gt 0 ]]; then
                fail "$label: the receiver holds $extra entries of $name the host does not have:$summary"
                LC_ALL=C comm -13 <(echo "$h" | LC_ALL=C uniq) <(echo "$r" | LC_ALL=C uniq) | head -n 5 | sed 's/^/    | /'
                return 1
            fi
            [[ $(grep -c . <<<"$h") -gt 0 ]] || { summary+=" (none yet)"; status=1; }
            summary+=";"
        done
        if [[ $status -eq 0 ]]; then
            pass "$label: every Relaunch entry of each host is on the receiver:${summary%;}"
            return 0
        fi
        if [[ $SECONDS -ge $deadline ]]; then
            fail "$label: after $2 s the receiver still lacks entries:${summary%;}"
            # What the first host's uploaders said: one per journal namespace, and the default one's.
            ct_exec "${hosts[0]}" sh -c "systemctl --no-pager --lines=0 status 'relaunch-fleet-upload@*' relaunch-fleet-upload.service;
                journalctl --no-pager -q -n 30 -u 'relaunch-fleet-upload@*' -u relaunch-fleet-upload.service" 2>&1 |
                tail -n 60 | sed 's/^/    | /'
            return 1
        fi
        sleep 0.5
    done
}

# The signature of each incident in relaunchctl journal --json, one a line, sorted.
signatures='.incidents[] | [.changedAtUSec, .app, .permission, .oldState, .newState, (.events | length),
    ([.events[].kind] | join(","))] | map(tostring) | join(" ")'
