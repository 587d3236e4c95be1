# tests/fleet/run's checks of who may write the fleet's history (issue 35): only certified, enrolled
# hosts upload; each host's files are pinned to its machine; entries claiming another host are left
# out and counted; the receiver's remote journals stay within their bound. Sourced after checks.sh.
# The peer of the attacks is the test itself: its own network namespace on the fleet's bridge
# (10.213.0.254), holding every certificate the run made (a host could do what its key allows).

peer_addr=10.213.0.254
bound=32M          # scripts/install --fleet-max-use on the receiver
bound_bytes=$((32 * 1024 * 1024))
remote_fs_size=128m   # the receiver's /var/log/journal/remote: a file system of its own (tmpfs here)

# upload LABEL CURL-ARGS...: POSTs $run/forged.export to the receiver as curl-args say; prints the
# HTTP status (000 when TLS refused before any).
upload() {
    local label=$1
    shift
    curl -sS -o "$logs/upload-$label.out" -w '%{http_code}' --max-time 30 --cacert "$run/ca/ca.pem" \
        --resolve "$receiver:19532:${addr[$receiver]}" -H 'Content-Type: application/vnd.fdo.journal' \
        --data-binary @"$run/forged.export" "$@" "https://$receiver:19532/upload" 2>"$logs/upload-$label.err"
}

# receiver_has_boot BOOT: how many entries of that _BOOT_ID the receiver holds.
receiver_has_boot() {
    ct_exec "$receiver" journalctl -q -o cat --no-pager -D "$remote" "_BOOT_ID=$1" 2>/dev/null | grep -c .
}

# The host table: each host pinned at its first upload to its own machine id and hostname.
check_pins() {
    local name deadline rows want
    want=$(for name in "${hosts[@]}"; do echo "$name ${machine_id[$name]} $name"; done | LC_ALL=C sort)
    deadline=$((SECONDS + 60))
    while :; do
        rows=$(ct_exec "$receiver" grep -v -e '^#' -e 'before-certificates$' "$remote/fleet-hosts" 2>/dev/null | LC_ALL=C sort)
        [[ "$rows" == "$want" ]] && break
        [[ $SECONDS -lt $deadline ]] || break
        sleep 0.5
    done
    if [[ "$rows" == "$want" ]]; then
        pass "host table: each host pinned at its first upload to its machine id and hostname ($(tr '\n' ';' <<<"$rows"))"
    else
        fail "host table: after 60 s $remote/fleet-hosts is not one row per host with its own machine id:"
        printf '%s\n' "${rows:-(empty)}" | sed 's/^/    | /'
    fi
}

# Peers without a valid certificate: none, another CA's (CN=fleet-a), the fleet CA's own but expired in
# 2020 (CN=fleet-c), a revoked one (CN=fleet-b): each
# refused by TLS, nothing written. Then fleet-c's own certificate: accepted (the same request).
check_refused_peers() {
    local kind status boot n files_before files_after
    local -A args=(
        [no-certificate]=""
        [another-ca]="--cert $run/other-ca/fleet-a.pem --key $run/other-ca/fleet-a.key"
        [expired]="--cert $run/ca/fleet-c-expired.pem --key $run/ca/fleet-c-expired.key"
        [revoked]="--cert $run/ca/fleet-b-revoked.pem --key $run/ca/fleet-b-revoked.key"
    )
    for kind in no-certificate another-ca expired revoked; do
        boot=$(printf '%s' "$kind" | md5sum | cut -c1-32)
        "$here/forge" --machine "${machine_id[fleet-a]}" --hostname fleet-a --boot "$boot" --realtime "$(date +%s)000000" >"$run/forged.export"
        files_before=$(ct_exec "$receiver" ls "$remote" | md5sum)
        # shellcheck disable=SC2086 # the arguments of each kind are words
        status=$(upload "$kind" ${args[$kind]})
        files_after=$(ct_exec "$receiver" ls "$remote" | md5sum)
        n=$(receiver_has_boot "$boot")
        if [[ $status != 2* && $n -eq 0 && "$files_before" == "$files_after" ]]; then
            pass "a peer with $kind: refused (HTTP $status: $(head -c 120 "$logs/upload-$kind.out" | tr -s '\n<>' ' ' | head -c 80)), nothing written"
        else
            fail "a peer with $kind: HTTP $status, $n entries of its upload on the receiver, files $([[ "$files_before" == "$files_after" ]] && echo unchanged || echo changed)"
        fi
    done
    boot=$(printf 'certified' | md5sum | cut -c1-32)
    "$here/forge" --machine "${machine_id[fleet-c]}" --hostname fleet-c --boot "$boot" --plain \
        --realtime "$(date +%s)000000" >"$run/forged.export"
    status=$(upload certified --cert "$run/ca/fleet-c.pem" --key "$run/ca/fleet-c.key")
    n=$(receiver_has_boot "$boot")
    if [[ $status == 202 && $n -eq 1 && -n "$(ct_exec "$receiver" journalctl -q --file="$remote/remote-fleet-c*.journal" "_BOOT_ID=$boot" 2>/dev/null)" ]]; then
        pass "fleet-c's own certificate: the same upload accepted (HTTP 202), written into remote-fleet-c.journal"
    else
        fail "fleet-c's own certificate: HTTP $status, $n entries written (expected 202, 1 in remote-fleet-c.journal)"
    fi
}

# The forgeries of issue 35, each uploaded with a certified host's own certificate:
#   fleet-a sends 2 entries claiming fleet-b (its machine id and hostname, permissiond's real uid);
#   fleet-b sends fleet-a's 1970 entry (uid 4242); fleet-c sends it with fleet-a's real uid.
# The receiver writes each into the sender's own file; the review leaves all 4 out and counts them.
forged_total=0
forge_uploads() {
    local uid_a uid_b status ok=1
    uid_a=$(ct_exec fleet-a id -u relaunch-permissiond)
    uid_b=$(ct_exec fleet-b id -u relaunch-permissiond)
    "$here/forge" --machine "${machine_id[fleet-b]}" --hostname fleet-b --uid "$uid_b" --count 2 \
        --realtime "$(date +%s)000000" >"$run/forged.export"
    status=$(upload claim-b --cert "$run/ca/fleet-a.pem" --key "$run/ca/fleet-a.key"); [[ $status == 202 ]] || ok=0
    "$here/forge" --machine "${machine_id[fleet-a]}" --hostname fleet-a --uid 4242 >"$run/forged.export"
    status+=" $(upload 1970 --cert "$run/ca/fleet-b.pem" --key "$run/ca/fleet-b.key")"; [[ $status == *202 ]] || ok=0
    "$here/forge" --machine "${machine_id[fleet-a]}" --hostname fleet-a --uid "$uid_a" --realtime "$(date +%s)000000" >"$run/forged.export"
    status+=" $(upload real-uid --cert "$run/ca/fleet-c.pem" --key "$run/ca/fleet-c.key")"; [[ $status == *202 ]] || ok=0
    forged_total=$((forged_total + 4))
    if [[ $ok -eq 1 ]]; then
        pass "forgeries uploaded with certified hosts' own certificates (HTTP $status): fleet-a claiming fleet-b x2, fleet-b the 1970 entry claiming fleet-a, fleet-c claiming fleet-a with its real permissiond uid $uid_a"
    else
        fail "forgeries: the certified uploads were not accepted (HTTP $status; see $logs/upload-*.err)"
    fi
}

# The whole review counts every forged entry as claiming another host, and shows none of them.
check_forgeries_counted() {
    local json n fake
    json=$(ct_exec "$receiver" relaunchctl journal --directory "$remote" --json 2>"$logs/review-forged.err")
    n=$(jq '.summary.ignoredByReason["entry-claiming-another-host"] // 0' <<<"$json")
    fake=$(jq '[.incidents[] | select(.changedAtUSec < 1000000000000000 or (.events[0].fields.CALLER_UID? // "") == "4242")] | length' <<<"$json")
    if [[ "$n" == "$forged_total" && "$fake" == 0 ]]; then
        pass "the review leaves out the $n forged entries, counted as entries claiming another host; no incident from 1970"
    else
        fail "the review counts $n entries claiming another host (expected $forged_total) and shows $fake incidents of the forgeries"
    fi
    ct_exec "$receiver" relaunchctl journal --directory "$remote" 2>&1 | tail -n 1 | sed 's/^/    | /'
}

# The receiver at its bound: fleet-c floods its journal (2 units x 8000 entries of 5000 random
# characters, about 60 MB as stored), which it uploads; then every host logs a marker. The receiver's
# archived files stay within the bound (the oldest removed), it stays up, every host's newest entry
# (the marker) is there.
bound_round() {
    local name deadline marker missing sizes archived total status=0 deleted
    for name in 1 2; do
        ct_exec fleet-c systemd-run --quiet --wait --unit="relaunch-flood-$name" -p StandardOutput=journal sh -c \
            'base64 -w 5000 </dev/urandom | head -n 8000' ||
            { fail "bound: fleet-c's flood unit $name failed"; return; }
    done
    marker="relaunch-fleet-bound-$(date +%s%N)"
    for name in "${hosts[@]}"; do ct_exec "$name" logger -t relaunch-fleet-test "$marker"; done
    deadline=$((SECONDS + 180))
    while :; do
        missing=""
        for name in "${hosts[@]}"; do
            [[ -n "$(ct_exec "$receiver" journalctl -q -o cat --no-pager -D "$remote" "_MACHINE_ID=${machine_id[$name]}" \
                SYSLOG_IDENTIFIER=relaunch-fleet-test 2>/dev/null | grep -x "$marker")" ]] || missing+=" $name"
        done
        [[ -z "$missing" ]] && break
        [[ $SECONDS -lt $deadline ]] || break
        sleep 1
    done
    # The vacuum runs after each rotation; wait for it to be done with the last.
    deadline=$((SECONDS + 60))
    while [[ "$(ct_exec "$receiver" systemctl is-active relaunch-fleet-vacuum.service)" == activating && $SECONDS -lt $deadline ]]; do sleep 0.5; done
    sizes=$(ct_exec "$receiver" find "$remote" -name '*.journal*' -printf '%s %f\n')
    archived=$(awk '$2 ~ /@/ { s += $1 } END { print s + 0 }' <<<"$sizes")
    total=$(awk '{ s += $1 } END { print s + 0 }' <<<"$sizes")
    deleted=$(ct_exec "$receiver" journalctl -q -o cat --no-pager -u relaunch-fleet-vacuum.service | grep -c '^Deleted archived journal')
    [[ -z "$missing" ]] || { fail "bound: after 180 s the receiver lacks the newest entry of:$missing"; status=1; }
    if [[ $archived -le $bound_bytes && $deleted -gt 0 ]]; then
        pass "bound: archived host files take $((archived / 1024)) KiB <= $bound ($deleted oldest removed), $((total / 1024)) KiB with the $(grep -vc @ <<<"$sizes") files being written"
    else
        fail "bound: archived host files take $((archived / 1024)) KiB (bound $bound), $deleted removed"
        ct_exec "$receiver" systemctl status --no-pager -n 5 relaunch-fleet-vacuum.path relaunch-fleet-vacuum.service 2>&1 |
            head -n 20 | sed 's/^/    | /'
        status=1
    fi
    local failed_units
    failed_units=$(ct_exec "$receiver" systemctl list-units --failed --plain --no-legend | awk '{ print $1 }' | tr '\n' ' ')
    if [[ "$(ct_exec "$receiver" systemctl is-active relaunch-fleet-proxy.service)" == active && -z "$failed_units" && $status -eq 0 ]]; then
        pass "bound: the receiver stays up (relaunch-fleet-proxy active, no unit failed) and holds every host's newest entry"
    elif [[ $status -eq 0 ]]; then
        fail "bound: relaunch-fleet-proxy is $(ct_exec "$receiver" systemctl is-active relaunch-fleet-proxy.service); failed units: ${failed_units:-none}"
    fi
}

# The upgrade: the receiver's folder holds, before the install, a file the receiver of before wrote
# (named by the sender's address, remote-10.213.0.99.journal) of a host fleet-old with a few
# incidents (tests/bench/journal/generate through this machine's systemd-journal-remote). After the
# install it is pinned as before-certificates, its hostname enrolled, its incidents still reviewed,
# and the install said in one line what is left to do.
legacy_name=10.213.0.99
legacy_incidents=0
make_legacy_file() {
    local dir=$1
    python3 "$repo/tests/bench/journal/generate" --incidents 2 --noise 1 --seed 35 2>"$logs/legacy.log" |
        sed 's/^_HOSTNAME=relaunch-bench$/_HOSTNAME=fleet-old/' >"$run/legacy.export" &&
        /lib/systemd/systemd-journal-remote --split-mode=none --output="$dir/remote-$legacy_name.journal" - \
            <"$run/legacy.export" >>"$logs/legacy.log" 2>&1 ||
        { fail "cannot make the receiver's file of before (see $logs/legacy.log)"; return 1; }
    legacy_machine=$(sed -n 's/^_MACHINE_ID=//p' "$run/legacy.export" | head -n 1)
}

check_upgrade() {
    local row json n
    row=$(ct_exec "$receiver" grep "^$legacy_name " "$remote/fleet-hosts" 2>/dev/null)
    json=$(ct_exec "$receiver" relaunchctl journal --directory "$remote" --host fleet-old --json 2>"$logs/review-legacy.err")
    n=$(jq '.incidents | length' <<<"$json" 2>/dev/null)
    legacy_incidents=${n:-0}
    if [[ "$row" == "$legacy_name $legacy_machine fleet-old before-certificates" && ${n:-0} -gt 0 &&
        "$(ct_exec "$receiver" systemctl is-enabled relaunch-fleet-remote@fleet-old.socket)" == enabled ]] &&
        grep -q "^scripts/install: upgraded: 1 host files of before are kept" "$logs/install-$receiver.log"; then
        pass "upgrade: the file of before ($legacy_name) is pinned as before-certificates, its $n incidents still reviewed, fleet-old enrolled; the install said: $(grep '^scripts/install: upgraded' "$logs/install-$receiver.log" | cut -c1-140)…"
    else
        fail "upgrade: row '${row:-none}', $n incidents of fleet-old, install said: $(grep -c 'upgraded' "$logs/install-$receiver.log") upgrade lines ($logs/review-legacy.err)"
    fi
}
