# The fleet pieces of scripts/install and scripts/uninstall: Debian's systemd-journal-remote package,
# the receiver (systemd-journal-remote over HTTPS) and the uploader (systemd-journal-upload), configured
# by drop-ins under /etc/systemd that uninstall removes. Sourced; needs $repo. See docs/FLEET.md.

fleet_dir=/etc/relaunch/fleet
fleet_record=/usr/local/lib/relaunch/fleet-installed
fleet_package=systemd-journal-remote
fleet_remote_units=(systemd-journal-remote.socket systemd-journal-remote.service)
fleet_upload_unit=systemd-journal-upload.service

# fleet_files ROLE: "source destination mode" of the static drop-ins of ROLE (receiver or uploader).
fleet_files() {
    case "$1" in
        receiver)
            echo "systemd/fleet/journal-remote.conf etc/systemd/journal-remote.conf.d/50-relaunch-fleet.conf 0644"
            echo "systemd/fleet/systemd-journal-remote.service.conf etc/systemd/system/systemd-journal-remote.service.d/50-relaunch-fleet.conf 0644" ;;
        uploader)
            echo "systemd/fleet/systemd-journal-upload.service.conf etc/systemd/system/systemd-journal-upload.service.d/50-relaunch-fleet.conf 0644" ;;
    esac
}
fleet_upload_conf=etc/systemd/journal-upload.conf.d/50-relaunch-fleet.conf

# Every path the fleet options may place (for --list-files, which scripts/uninstall removes).
fleet_list_files() {
    { fleet_files receiver; fleet_files uploader; } | awk '{ print "/" $2 }'
    echo "/$fleet_upload_conf"
    printf "$fleet_dir/%s\n" ca.pem cert.pem key.pem
    echo "$fleet_record"
}

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

# fleet_place DEST ROLES URL CA CERT KEY: the certificates and drop-ins under DEST.
fleet_place() {
    local dest=$1 roles=$2 url=$3 ca=$4 cert=$5 key=$6 role src dst mode
    install -d -m 0755 "$dest$fleet_dir"
    install -m 0644 "$ca" "$dest$fleet_dir/ca.pem"
    install -m 0644 "$cert" "$dest$fleet_dir/cert.pem"
    install -m 0600 "$key" "$dest$fleet_dir/key.pem"
    for role in $roles; do
        while read -r src dst mode; do
            install -D -m "$mode" "$repo/$src" "$dest/$dst"
        done < <(fleet_files "$role")
    done
    if [[ " $roles " == *" uploader "* ]]; then
        install -d -m 0755 "$(dirname "$dest/$fleet_upload_conf")"
        sed "s|@URL@|${url%/}|" "$repo/systemd/fleet/journal-upload.conf" >"$dest/$fleet_upload_conf"
        chmod 0644 "$dest/$fleet_upload_conf"
    fi
}

# fleet_record_add LINE...: adds to the record of what the install changed (kept across installs).
fleet_record_add() {
    { [[ -f "$fleet_record" ]] && cat "$fleet_record"; printf '%s\n' "$@"; } | LC_ALL=C sort -u >"$fleet_record.new"
    mv "$fleet_record.new" "$fleet_record"
    chmod 0644 "$fleet_record"
}

# fleet_activate ROLES START: Debian's package (recording what it added), then enables the units.
fleet_activate() {
    local roles=$1 start=$2 before after name unit
    if ! dpkg-query -W -f='${Status}' "$fleet_package" 2>/dev/null | grep -q 'ok installed'; then
        echo "==> apt-get install $fleet_package"
        before=$(dpkg-query -W -f='${Package}\t${Status}\n' 2>/dev/null | awk -F'\t' '$2 ~ /ok installed/ { print $1 }' | LC_ALL=C sort)
        local users_before
        users_before=$(getent passwd | cut -d: -f1 | LC_ALL=C sort)
        if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$fleet_package" >/dev/null; then
            DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null &&
                DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "$fleet_package" >/dev/null ||
                die "apt-get install $fleet_package failed"
        fi
        after=$(dpkg-query -W -f='${Package}\t${Status}\n' 2>/dev/null | awk -F'\t' '$2 ~ /ok installed/ { print $1 }' | LC_ALL=C sort)
        while read -r name; do
            [[ -n "$name" ]] && fleet_record_add "package $name"
        done < <(LC_ALL=C comm -13 <(echo "$before") <(echo "$after"))
        while read -r name; do
            [[ -n "$name" ]] && fleet_record_add "user $name"
        done < <(LC_ALL=C comm -13 <(echo "$users_before") <(getent passwd | cut -d: -f1 | LC_ALL=C sort))
    fi
    systemctl daemon-reload
    local -a enable=()
    [[ " $roles " == *" receiver "* ]] && enable+=(systemd-journal-remote.socket)
    [[ " $roles " == *" uploader "* ]] && enable+=("$fleet_upload_unit")
    for unit in "${enable[@]}"; do
        [[ "$(systemctl is-enabled "$unit" 2>/dev/null)" == enabled ]] || fleet_record_add "enabled $unit"
    done
    echo "==> systemctl enable ${enable[*]}"
    systemctl enable "${enable[@]}"
    [[ $start -eq 1 ]] || return 0
    if [[ " $roles " == *" receiver "* ]]; then
        # A running receiver reads its configuration at start: restart it, then listen.
        systemctl try-restart systemd-journal-remote.service
        systemctl start systemd-journal-remote.socket
    fi
    [[ " $roles " == *" uploader "* ]] && systemctl restart "$fleet_upload_unit"
    if [[ " $roles " == *" receiver "* ]] && ! systemd-analyze --version 2>/dev/null | grep -q '+GNUTLS'; then
        echo "$prog: note: this systemd is built without GnuTLS: journal-remote encrypts and shows its certificate, but does not check the uploaders' (see docs/FLEET.md)"
    fi
    return 0
}

# fleet_deactivate PURGE: reverses fleet_activate as its record says; before the files go.
fleet_deactivate() {
    local purge=$1 kind name
    [[ -f "$fleet_record" ]] || return 0
    while read -r kind name; do
        [[ $kind == enabled ]] || continue
        systemctl disable --now "$name" || true
        [[ $name == systemd-journal-remote.socket ]] && systemctl stop systemd-journal-remote.service
        if [[ $purge -eq 1 ]]; then
            case "$name" in
                systemd-journal-remote.socket) rm -rf --one-file-system /var/log/journal/remote ;;
                "$fleet_upload_unit") rm -rf --one-file-system /var/lib/private/systemd/journal-upload
                    rm -f /var/lib/systemd/journal-upload
                    # systemd made it for the dynamic user's StateDirectory=systemd/journal-upload.
                    [[ ! -d /var/lib/private/systemd ]] || rmdir --ignore-fail-on-non-empty /var/lib/private/systemd ;;
            esac
        fi
    done <"$fleet_record"
    fleet_undo=$(cat "$fleet_record")
}

# fleet_remove_packages: after the files are gone and systemd reloaded, the packages and users the
# install added. Only those: apt-get would also remove what came to depend on them since; then the
# packages stay, and it says so.
fleet_remove_packages() {
    local -a packages=() users=()
    local kind name
    [[ -n "${fleet_undo:-}" ]] || return 0
    while read -r kind name; do
        case "$kind" in
            package) packages+=("$name") ;;
            user) users+=("$name") ;;
        esac
    done <<<"$fleet_undo"
    # Other fleet units left running (enabled before the install) drop our configuration.
    systemctl try-restart "$fleet_upload_unit" systemd-journal-remote.service 2>/dev/null || true
    if [[ ${#packages[@]} -gt 0 ]]; then
        local extra
        extra=$(apt-get -s purge "${packages[@]}" 2>/dev/null | awk '$1 == "Purg" { print $2 }' | LC_ALL=C sort |
            LC_ALL=C comm -23 - <(printf '%s\n' "${packages[@]}" | LC_ALL=C sort) | tr '\n' ' ')
        if [[ -n "$extra" ]]; then
            echo "$prog: keeping ${packages[*]}: removing them would also remove $extra" >&2
        else
            echo "==> apt-get purge ${packages[*]}"
            DEBIAN_FRONTEND=noninteractive apt-get purge -y -q "${packages[@]}" >/dev/null || echo "$prog: apt-get purge ${packages[*]} failed" >&2
        fi
    fi
    for name in "${users[@]}"; do
        getent passwd "$name" >/dev/null && userdel "$name"
        getent group "$name" >/dev/null && groupdel "$name"
    done
    return 0
}
