# The fleet options of scripts/install and what scripts/uninstall does for them. The fleet's units and
# helpers are the relaunch-fleet package's; here: the checks of the options, the host's configuration
# in /etc/relaunch/fleet (administrator's data: the certificates, the key, the receiver's URL, the
# bound), enabling the role's units, and removing the hand-placed fleet of an install of before.
# Sourced; needs $prog and die. See docs/FLEET.md.

fleet_dir=/etc/relaunch/fleet
fleet_remote=/var/log/journal/remote
fleet_proxy_unit=relaunch-fleet-proxy.service
fleet_vacuum_unit=relaunch-fleet-vacuum.path
# The uploaders: one for the journal, one per journal namespace Relaunch's units log to (LogNamespace=).
fleet_upload_unit=relaunch-fleet-upload.service
fleet_namespace_upload=relaunch-fleet-upload@

# fleet_check_url URL: https://HOST[:PORT][/], or says why not.
fleet_check_url() {
    [[ "$1" =~ ^https://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$ || "$1" =~ ^https://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?/?$ ]] && return 0
    echo "--fleet-upload '$1' is not https://HOST[:PORT] (the receiver's name as in its certificate; port 19532 when none)"
    return 1
}

# fleet_check_certs CA CERT KEY: readable PEM files, CERT signed by CA and KEY its key; or says why not.
fleet_check_certs() {
    local ca=$1 cert=$2 key=$3 file
    for file in "$ca" "$cert" "$key"; do
        [[ -f "$file" && -r "$file" ]] || { echo "cannot read '$file'"; return 1; }
    done
    command -v openssl >/dev/null || return 0
    openssl verify -CAfile "$ca" "$cert" >/dev/null 2>&1 ||
        { echo "'$cert' is not a certificate signed by '$ca' (openssl verify)"; return 1; }
    [[ "$(openssl x509 -in "$cert" -noout -pubkey 2>/dev/null)" == "$(openssl pkey -in "$key" -pubout 2>/dev/null)" ]] ||
        { echo "'$key' is not the key of '$cert'"; return 1; }
}

# fleet_check_size SIZE: a size journalctl --vacuum-size takes (512M, 4G, 100K...), or says why not.
fleet_check_size() {
    [[ "$1" =~ ^[1-9][0-9]*[KMGT]$ ]] && return 0
    echo "--fleet-max-use '$1' is not a size such as 512M or 4G"
    return 1
}

# fleet_configure ROLES URL CA CERT KEY [CRL MAX_USE]: the host's fleet configuration, which the
# package's units read: ca.pem, cert.pem (0644), key.pem (0600, root; systemd hands it to the
# services), and per role uploader.env (the receiver's URL) or crl.pem and receiver.env (the bound).
fleet_configure() {
    local roles=$1 url=$2 ca=$3 cert=$4 key=$5 crl=${6:-} max_use=${7:-4G}
    install -d -m 0755 "$fleet_dir"
    fleet_put 0644 "$ca" "$fleet_dir/ca.pem"
    fleet_put 0644 "$cert" "$fleet_dir/cert.pem"
    fleet_put 0600 "$key" "$fleet_dir/key.pem"
    if [[ " $roles " == *" receiver "* ]]; then
        fleet_put 0644 "$crl" "$fleet_dir/crl.pem"
        printf '%s\nRELAUNCH_FLEET_MAX_USE=%s\n' \
            "# The bound of $fleet_remote's archived files (scripts/install --fleet-max-use)." "$max_use" \
            >"$fleet_dir/receiver.env"
        chmod 0644 "$fleet_dir/receiver.env"
    fi
    if [[ " $roles " == *" uploader "* ]]; then
        printf '%s\nRELAUNCH_FLEET_URL=%s\n' \
            "# The receiver this host uploads its journal to (scripts/install --fleet-upload)." "${url%/}" \
            >"$fleet_dir/uploader.env"
        chmod 0644 "$fleet_dir/uploader.env"
    fi
}

# fleet_put MODE SOURCE DEST: a copy (or, when SOURCE is DEST already, its mode).
fleet_put() {
    if [[ "$2" -ef "$3" ]]; then chmod "$1" "$3"; else install -m "$1" "$2" "$3"; fi
}

# fleet_namespaces: the journal namespaces of the installed relaunch and relaunch-demo-apps units
# (LogNamespace=), one a line.
fleet_namespaces() {
    dpkg-query -L relaunch relaunch-demo-apps 2>/dev/null | grep -E '^(/usr)?/lib/systemd/system/[^/]+\.service$' |
        xargs -r sed -n 's/^LogNamespace=//p' | LC_ALL=C sort -u
}

# fleet_activate ROLES: enables and (re)starts the role's units of relaunch-fleet, with the
# configuration fleet_configure wrote. Enabled units stay enabled across the package's upgrades.
fleet_activate() {
    local roles=$1
    local -a enable=() uploads=()
    if [[ " $roles " == *" receiver "* ]]; then
        # The receiver of before (Debian's journal-remote on port 19532, checking no certificate) goes.
        if [[ "$(systemctl is-enabled systemd-journal-remote.socket 2>/dev/null)" == enabled ||
            "$(systemctl is-active systemd-journal-remote.socket 2>/dev/null)" == active ]]; then
            systemctl disable --now systemd-journal-remote.socket >/dev/null 2>&1 || true
            systemctl stop systemd-journal-remote.service || true
            echo "$prog: systemd-journal-remote.socket (port 19532, no client certificates checked) is replaced by $fleet_proxy_unit"
        fi
        install -d -m 2755 -o systemd-journal-remote -g systemd-journal-remote "$fleet_remote"
        enable+=("$fleet_proxy_unit" "$fleet_vacuum_unit")
    fi
    if [[ " $roles " == *" uploader "* ]]; then
        mapfile -t uploads < <(fleet_namespaces | sed "s/^/$fleet_namespace_upload/; s/\$/.service/")
        uploads=("$fleet_upload_unit" "${uploads[@]}")
        enable+=("${uploads[@]}")
    fi
    echo "==> systemctl enable ${enable[*]}"
    systemctl enable "${enable[@]}"
    # Started again: the certificates or the URL may be new.
    if [[ " $roles " == *" receiver "* ]]; then
        systemctl restart "$fleet_proxy_unit"
        systemctl start "$fleet_vacuum_unit"
        fleet_upgrade_history
    fi
    [[ ${#uploads[@]} -eq 0 ]] || systemctl restart "${uploads[@]}"
    return 0
}

# fleet_upgrade_history: the files the receiver of before wrote (remote-ADDRESS.journal, named by the
# sender's address) are pinned as they are, marked before-certificates, so that their history is
# reviewed as before; each hostname they show is enrolled (its certificate must still be the
# fleet's). Says in one line what is left to do.
fleet_upgrade_history() {
    local file name hostnames=() pinned=0
    shopt -s nullglob
    for file in "$fleet_remote"/remote-*.journal; do
        name=${file##*/remote-}
        name=${name%.journal}
        [[ "$name" != *@* ]] || continue
        [[ -f "$fleet_remote/fleet-hosts" ]] && awk -v n="$name" '$1 == n { f = 1 } END { exit !f }' "$fleet_remote/fleet-hosts" && continue
        [[ -e "/run/relaunch-fleet/$name.sock" ]] && continue   # an enrolled host's own file
        /usr/lib/relaunch/fleet-pin --before-certificates "$name" >/dev/null 2>&1 || continue
        pinned=$((pinned + 1))
        hostnames+=("$(awk -v n="$name" '$1 == n { print $3 }' "$fleet_remote/fleet-hosts")")
    done
    shopt -u nullglob
    [[ $pinned -gt 0 ]] || return 0
    mapfile -t hostnames < <(printf '%s\n' "${hostnames[@]}" | LC_ALL=C sort -u)
    "$repo/scripts/fleet-enroll" "${hostnames[@]}" >/dev/null
    echo "$prog: upgraded: $pinned host files of before are kept and reviewed as before; uploads now need a certificate of the fleet's CA with CN = the hostname (enrolled: ${hostnames[*]}; scripts/fleet-certs DIR uploader NAME, then scripts/fleet-enroll NAME for any other)"
}

# --- The fleet of an install of before, placed by hand --------------------------------------------------
# Before relaunch-fleet, scripts/install copied the fleet's units and helpers under /usr/local and
# drop-ins under /etc/systemd, and recorded what it added in this file ("enabled UNIT", "package NAME",
# "user NAME", "dir PATH", ...), which scripts/uninstall read. Both now remove those pieces.
fleet_legacy_record=/usr/local/lib/relaunch/fleet-installed
fleet_legacy_files() {
    local unit
    for unit in relaunch-fleet-proxy.service relaunch-fleet-remote@.socket relaunch-fleet-remote@.service \
        relaunch-fleet-pin@.path relaunch-fleet-pin@.service relaunch-fleet-vacuum.path relaunch-fleet-vacuum.service \
        relaunch-fleet-upload@.service; do
        echo "/usr/local/lib/systemd/system/$unit"
    done
    cat <<'FILES'
/usr/local/lib/relaunch/fleet-pin
/usr/local/lib/relaunch/fleet-vacuum
/usr/local/lib/relaunch/fleet/nginx.conf
/etc/systemd/system/systemd-journal-upload.service.d/50-relaunch-fleet.conf
/etc/systemd/journal-upload.conf.d/50-relaunch-fleet.conf
/etc/systemd/system/systemd-journal-remote.service.d/50-relaunch-fleet.conf
/etc/systemd/journal-remote.conf.d/50-relaunch-fleet.conf
FILES
}

# fleet_forget_legacy PURGE: when the record is there, disables and stops the units it enabled and the
# enrolled hosts' (their names go to fleet_legacy_enrolled, for scripts/install to enrol them again
# with the package's units), removes the hand-placed files and the record, and marks the packages it
# installed as automatically installed (relaunch-fleet depends on them now; scripts/uninstall purges
# what nothing else needs). The uploader's saved cursor moves to relaunch-fleet-upload.service (or,
# with PURGE 1, goes), so that nothing is sent twice. The users it added stay, as Debian's policy says.
fleet_legacy_enrolled=()
fleet_forget_legacy() {
    local purge=$1 kind name path
    local -a units=() packages=() instances=() dirs=()
    [[ -f "$fleet_legacy_record" ]] || return 0
    echo "==> removing the fleet's pieces an install of before placed by hand ($fleet_legacy_record)"
    while read -r kind name; do
        case "$kind" in
            enabled) units+=("$name") ;;
            package) dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'ok installed' && packages+=("$name") ;;
            dir) [[ "$name" == /* && "$name" != */../* && "$name" != "$fleet_dir" ]] && dirs+=("$name") ;;
        esac
    done <"$fleet_legacy_record"
    mapfile -t instances < <(find /etc/systemd/system -mindepth 2 -maxdepth 2 -name 'relaunch-fleet-*@*' -printf '%f\n' | LC_ALL=C sort -u)
    for name in "${instances[@]}"; do
        [[ $name != relaunch-fleet-remote@*.socket ]] || { name=${name#relaunch-fleet-remote@}; fleet_legacy_enrolled+=("${name%.socket}"); }
    done
    [[ $((${#units[@]} + ${#instances[@]})) -eq 0 ]] || systemctl disable --now "${units[@]}" "${instances[@]}" >/dev/null 2>&1 || true
    # And whatever else of them runs: a host's pin (RemainAfterExit=) or journal-remote, started by
    # the units just disabled; the package's units start afresh.
    systemctl stop 'relaunch-fleet-*' >/dev/null 2>&1 || true
    while read -r path; do rm -f "$path"; done < <(fleet_legacy_files)
    if [[ " ${units[*]} " == *" systemd-journal-upload.service "* && -d /var/lib/private/systemd/journal-upload ]]; then
        if [[ $purge -eq 0 && ! -e /var/lib/private/relaunch-fleet-upload ]]; then
            mv /var/lib/private/systemd/journal-upload /var/lib/private/relaunch-fleet-upload
        else
            rm -rf /var/lib/private/systemd/journal-upload
        fi
        rm -f /var/lib/systemd/journal-upload
        rmdir --ignore-fail-on-non-empty /var/lib/private/systemd
    fi
    if [[ $purge -eq 1 ]]; then   # what the units of before kept, as relaunch-fleet's purge does
        if [[ " ${units[*]} " == *" $fleet_proxy_unit "* || " ${units[*]} " == *" systemd-journal-remote.socket "* ]]; then
            if mountpoint -q "$fleet_remote"; then find "$fleet_remote" -mindepth 1 -delete; else rm -rf "$fleet_remote"; fi
        fi
        rm -rf /var/lib/private/relaunch-fleet-upload-* /var/lib/relaunch-fleet-upload-*
    fi
    [[ ${#packages[@]} -eq 0 ]] || apt-mark auto "${packages[@]}" >/dev/null
    rm -f "$fleet_legacy_record"
    # The folders it made (its record's "dir" lines), deepest first, when they are empty now.
    while read -r path; do
        [[ ! -d "$path" ]] || rmdir --ignore-fail-on-non-empty "$path"
    done < <(printf '%s\n' "${dirs[@]}" | LC_ALL=C sort -r)
    systemctl daemon-reload
}
