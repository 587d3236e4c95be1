# The fleet pieces of scripts/install and scripts/uninstall: Debian's systemd-journal-remote package,
# the receiver (systemd-journal-remote over HTTPS) and the uploader (systemd-journal-upload), configured
# by drop-ins under /etc/systemd that uninstall removes. Sourced; needs $repo. See docs/FLEET.md.

fleet_dir=/etc/relaunch/fleet
fleet_record=/usr/local/lib/relaunch/fleet-installed
fleet_package=systemd-journal-remote
fleet_upload_unit=systemd-journal-upload.service
# Each journal namespace Relaunch's units log to (LogNamespace=) has an uploader of its own.
fleet_namespace_upload=relaunch-fleet-upload@
# The receiver: nginx checks the client certificate and hands each host's uploads to that host's own
# journal-remote (relaunch-fleet-remote@NAME, enrolled by scripts/fleet-enroll).
fleet_receiver_packages=(systemd-journal-remote nginx)
fleet_proxy_unit=relaunch-fleet-proxy.service
fleet_vacuum_unit=relaunch-fleet-vacuum.path
fleet_remote=/var/log/journal/remote
# Before certificates were checked, the receiver was Debian's systemd-journal-remote.socket with these
# drop-ins; an upgrade disables it and removes them.
fleet_old_receiver_files=(etc/systemd/journal-remote.conf.d/50-relaunch-fleet.conf
    etc/systemd/system/systemd-journal-remote.service.d/50-relaunch-fleet.conf)

# fleet_files ROLE: "source destination mode" of the static drop-ins of ROLE (receiver or uploader).
fleet_files() {
    case "$1" in
        receiver)
            local unit
            for unit in relaunch-fleet-proxy.service relaunch-fleet-remote@.socket relaunch-fleet-remote@.service \
                relaunch-fleet-pin@.path relaunch-fleet-pin@.service relaunch-fleet-vacuum.path relaunch-fleet-vacuum.service; do
                echo "systemd/fleet/$unit usr/local/lib/systemd/system/$unit 0644"
            done
            echo "scripts/fleet-pin usr/local/lib/relaunch/fleet-pin 0755"
            echo "scripts/fleet-vacuum usr/local/lib/relaunch/fleet-vacuum 0755" ;;
        uploader)
            echo "systemd/fleet/systemd-journal-upload.service.conf etc/systemd/system/systemd-journal-upload.service.d/50-relaunch-fleet.conf 0644"
            echo "systemd/fleet/$fleet_namespace_upload.service usr/local/lib/systemd/system/$fleet_namespace_upload.service 0644" ;;
    esac
}
fleet_upload_conf=etc/systemd/journal-upload.conf.d/50-relaunch-fleet.conf

# Every path the fleet options may place (for --list-files, which scripts/uninstall removes).
fleet_list_files() {
    { fleet_files receiver; fleet_files uploader; } | awk '{ print "/" $2 }'
    echo "/$fleet_upload_conf"
    printf '/%s\n' "${fleet_old_receiver_files[@]}"
    echo /usr/local/lib/relaunch/fleet/nginx.conf
    printf "$fleet_dir/%s\n" ca.pem cert.pem key.pem crl.pem receiver.env
    echo "$fleet_record"
}

# fleet_namespaces: the journal namespaces of permissiond and the project's apps (their units'
# LogNamespace=), one a line.
fleet_namespaces() {
    local app
    {
        sed -n 's/^LogNamespace=//p' "$repo/systemd/permissiond.service"
        while read -r app; do
            sed -n 's/^LogNamespace=//p' "$repo/systemd/$app.service"
        done < <(project_apps "$repo")
    } | LC_ALL=C sort -u
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

# fleet_check_size SIZE: a size journalctl --vacuum-size takes (512M, 4G, 100K...), or says why not.
fleet_check_size() {
    [[ "$1" =~ ^[1-9][0-9]*[KMGT]$ ]] && return 0
    echo "--fleet-max-use '$1' is not a size such as 512M or 4G"
    return 1
}

# fleet_place DEST ROLES URL CA CERT KEY [CRL MAX_USE]: the certificates and drop-ins under DEST.
fleet_place() {
    local dest=$1 roles=$2 url=$3 ca=$4 cert=$5 key=$6 crl=${7:-} max_use=${8:-4G} role src dst mode listen
    install -d -m 0755 "$dest$fleet_dir"
    install -m 0644 "$ca" "$dest$fleet_dir/ca.pem"
    install -m 0644 "$cert" "$dest$fleet_dir/cert.pem"
    install -m 0600 "$key" "$dest$fleet_dir/key.pem"
    for role in $roles; do
        while read -r src dst mode; do
            install -D -m "$mode" "$repo/$src" "$dest/$dst"
        done < <(fleet_files "$role")
    done
    if [[ " $roles " == *" receiver "* ]]; then
        install -m 0644 "$crl" "$dest$fleet_dir/crl.pem"
        printf '# The bound of /var/log/journal/remote'"'"'s archived files (scripts/install --fleet-max-use).\nRELAUNCH_FLEET_MAX_USE=%s\n' \
            "$max_use" >"$dest$fleet_dir/receiver.env"
        chmod 0644 "$dest$fleet_dir/receiver.env"
        # Both IPv4 and IPv6 where the kernel has IPv6, as systemd's ListenStream=19532 did.
        listen=19532
        [[ ! -e /proc/net/if_inet6 ]] || listen="[::]:19532 ipv6only=off"
        install -d -m 0755 "$dest/usr/local/lib/relaunch/fleet"
        sed "s|@LISTEN@|$listen|" "$repo/systemd/fleet/nginx.conf" >"$dest/usr/local/lib/relaunch/fleet/nginx.conf"
        chmod 0644 "$dest/usr/local/lib/relaunch/fleet/nginx.conf"
        for dst in "${fleet_old_receiver_files[@]}"; do rm -f "$dest/$dst"; done
    fi
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

# fleet_install_packages PACKAGE...: those missing, with apt-get, recording what was added.
fleet_install_packages() {
    local -a missing=()
    local name before after users_before
    for name in "$@"; do
        dpkg-query -W -f='${Status}' "$name" 2>/dev/null | grep -q 'ok installed' || missing+=("$name")
    done
    [[ ${#missing[@]} -gt 0 ]] || return 0
    echo "==> apt-get install ${missing[*]}"
    local www_before=0
    [[ ! -d /var/www ]] || www_before=1
    before=$(dpkg-query -W -f='${Package}\t${Status}\n' 2>/dev/null | awk -F'\t' '$2 ~ /ok installed/ { print $1 }' | LC_ALL=C sort)
    users_before=$(getent passwd | cut -d: -f1 | LC_ALL=C sort)
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; then
        DEBIAN_FRONTEND=noninteractive apt-get update -q >/dev/null &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null ||
            die "apt-get install ${missing[*]} failed"
    fi
    after=$(dpkg-query -W -f='${Package}\t${Status}\n' 2>/dev/null | awk -F'\t' '$2 ~ /ok installed/ { print $1 }' | LC_ALL=C sort)
    while read -r name; do
        [[ -n "$name" ]] && fleet_record_add "package $name"
    done < <(LC_ALL=C comm -13 <(echo "$before") <(echo "$after"))
    while read -r name; do
        [[ -n "$name" ]] && fleet_record_add "user $name"
    done < <(LC_ALL=C comm -13 <(echo "$users_before") <(getent passwd | cut -d: -f1 | LC_ALL=C sort))
    # Debian's nginx.service (its default site on port 80) is not the receiver's: the package came
    # for relaunch-fleet-proxy alone.
    if [[ " ${missing[*]} " == *" nginx "* ]]; then
        systemctl disable --now nginx.service >/dev/null 2>&1 || true
        # nginx-common's default page, which its purge leaves: removed with it when it made /var/www.
        if [[ $www_before -eq 0 ]]; then
            fleet_record_add "nginx-page /var/www/html/index.nginx-debian.html"
        fi
    fi
}

# fleet_activate ROLES START: Debian's packages (recording what they added), then enables the units.
fleet_activate() {
    local roles=$1 start=$2 unit
    if [[ " $roles " == *" receiver "* ]]; then
        fleet_install_packages "${fleet_receiver_packages[@]}"
    else
        fleet_install_packages "$fleet_package"
    fi
    local -a enable=()
    if [[ " $roles " == *" receiver "* ]]; then
        # The receiver of before (Debian's journal-remote on port 19532, checking no certificate) goes.
        if [[ "$(systemctl is-enabled systemd-journal-remote.socket 2>/dev/null)" == enabled ||
            "$(systemctl is-active systemd-journal-remote.socket 2>/dev/null)" == active ]]; then
            systemctl disable --now systemd-journal-remote.socket >/dev/null 2>&1 || true
            systemctl stop systemd-journal-remote.service || true
            echo "$prog: systemd-journal-remote.socket (port 19532, no client certificates checked) is replaced by $fleet_proxy_unit"
        fi
        if [[ -f "$fleet_record" ]] && grep -qx 'enabled systemd-journal-remote.socket' "$fleet_record"; then
            grep -vx 'enabled systemd-journal-remote.socket' "$fleet_record" >"$fleet_record.new" || true
            mv "$fleet_record.new" "$fleet_record"
        fi
        install -d -m 2755 -o systemd-journal-remote -g systemd-journal-remote "$fleet_remote"
        enable+=("$fleet_proxy_unit" "$fleet_vacuum_unit")
    fi
    local -a uploads=()
    if [[ " $roles " == *" uploader "* ]]; then
        mapfile -t uploads < <(fleet_namespaces | sed "s/^/$fleet_namespace_upload/; s/\$/.service/")
        uploads=("$fleet_upload_unit" "${uploads[@]}")
        enable+=("${uploads[@]}")
    fi
    systemctl daemon-reload
    for unit in "${enable[@]}"; do
        [[ "$(systemctl is-enabled "$unit" 2>/dev/null)" == enabled ]] || fleet_record_add "enabled $unit"
    done
    echo "==> systemctl enable ${enable[*]}"
    systemctl enable "${enable[@]}"
    [[ $start -eq 1 ]] || return 0
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
        /usr/local/lib/relaunch/fleet-pin --before-certificates "$name" >/dev/null 2>&1 || continue
        pinned=$((pinned + 1))
        hostnames+=("$(awk -v n="$name" '$1 == n { print $3 }' "$fleet_remote/fleet-hosts")")
    done
    shopt -u nullglob
    [[ $pinned -gt 0 ]] || return 0
    mapfile -t hostnames < <(printf '%s\n' "${hostnames[@]}" | LC_ALL=C sort -u)
    "$repo/scripts/fleet-enroll" "${hostnames[@]}" >/dev/null
    echo "$prog: upgraded: $pinned host files of before are kept and reviewed as before; uploads now need a certificate of the fleet's CA with CN = the hostname (enrolled: ${hostnames[*]}; scripts/fleet-certs DIR uploader NAME, then scripts/fleet-enroll NAME for any other)"
}

# fleet_deactivate PURGE: reverses fleet_activate as its record says; before the files go.
fleet_deactivate() {
    local purge=$1 kind name
    [[ -f "$fleet_record" ]] || return 0
    while read -r kind name; do
        [[ $kind == enabled ]] || continue
        systemctl disable --now "$name" || true
        [[ $name == systemd-journal-remote.socket ]] && systemctl stop systemd-journal-remote.service
        [[ $name == "$fleet_proxy_unit" ]] && fleet_disable_hosts
        if [[ $purge -eq 1 ]]; then
            case "$name" in
                systemd-journal-remote.socket|"$fleet_proxy_unit")
                    # A file system of its own (the bound) keeps its mount point.
                    if mountpoint -q "$fleet_remote"; then
                        find "$fleet_remote" -mindepth 1 -delete
                    else
                        rm -rf --one-file-system "$fleet_remote"
                    fi ;;
                "$fleet_upload_unit") rm -rf --one-file-system /var/lib/private/systemd/journal-upload
                    rm -f /var/lib/systemd/journal-upload
                    # systemd made it for the dynamic user's StateDirectory=systemd/journal-upload.
                    [[ ! -d /var/lib/private/systemd ]] || rmdir --ignore-fail-on-non-empty /var/lib/private/systemd ;;
                "$fleet_namespace_upload"*.service)
                    local state=relaunch-fleet-upload-${name#"$fleet_namespace_upload"}
                    state=${state%.service}
                    rm -rf --one-file-system "/var/lib/private/$state"
                    rm -f "/var/lib/$state" ;;
            esac
        fi
    done <"$fleet_record"
    fleet_undo=$(cat "$fleet_record")
}

# fleet_disable_hosts: every enrolled host's units, disabled and stopped.
fleet_disable_hosts() {
    local -a units=()
    mapfile -t units < <({
        systemctl list-units --all --plain --no-legend 'relaunch-fleet-*@*' 2>/dev/null | awk '{ print $1 }'
        find /etc/systemd/system -name 'relaunch-fleet-*@*' -printf '%f\n' 2>/dev/null
    } | LC_ALL=C sort -u)
    [[ ${#units[@]} -gt 0 ]] || return 0
    systemctl disable --now "${units[@]}" >/dev/null 2>&1 || true
    systemctl stop "${units[@]}" >/dev/null 2>&1 || true
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
    systemctl try-restart "$fleet_upload_unit" 2>/dev/null || true
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
    # The default page nginx-common's purge leaves, and /var/www it made for it (when empty).
    while read -r kind name; do
        [[ $kind == nginx-page && $name == /var/www/html/index.nginx-debian.html ]] || continue
        dpkg-query -W -f='${Status}' nginx-common 2>/dev/null | grep -q 'ok installed' && continue
        rm -f "$name"
        rmdir --ignore-fail-on-non-empty /var/www/html /var/www 2>/dev/null || true
    done <<<"$fleet_undo"
    return 0
}
