# Booted Debian 12 containers for the tests (tests/host/run, tests/fleet/run): the cached Debian root
# (mmdebstrap), the machine lock, results, containers booted with systemd-nspawn --boot in cgroups of
# their own, commands run in them, and their power-off. Sourced; the caller sets prog, repo, cache,
# lock and logs first, and calls die() (defined here) for fatal errors.

# The Debian packages of the cached root. What the Swift toolchain needs to build (binutils,
# libc6-dev, libgcc/libstdc++ headers, libcurl, libxml2, libedit, ncurses), what the project needs to
# build (libsystemd-dev, libsqlite3-dev for GRDB, pkg-config, git for SwiftPM), what it needs to run
# (systemd, dbus, polkitd), what scripts/demo asks for (jq), and what the checks use (man-db,
# bash-completion, procps). Changing this list rebuilds the cached root.
packages=(
    systemd systemd-sysv dbus polkitd libsystemd-dev pkg-config jq man-db bash-completion procps
    git binutils libc6-dev libgcc-12-dev libstdc++-12-dev libsqlite3-dev libcurl4 libxml2 libedit2
    libncurses6 libbsd0 libicu72 libffi8 tzdata
)
image_version=1   # bump when the way the root is built changes

die() { echo "$prog: $*" >&2; exit 1; }

# --- Results -----------------------------------------------------------------------------------------------
passed=0
failed=0
pass() { echo "PASS $*"; passed=$((passed + 1)); }
fail() { echo "FAIL $*"; failed=$((failed + 1)); }
# record NAME LOG STATUS: PASS or FAIL (with the log's last lines) by exit status.
record() {
    if [[ $3 -eq 0 ]]; then
        pass "$1"
    else
        fail "$1 (exit $3; $2):"
        tail -n 15 "$2" | sed 's/^/    | /'
    fi
}

# --- cgroups: one of our own per container (nspawn puts payload/ and supervisor/ below it) ----------------
cgroup_dirs() { # cgroup_dirs NAME: every hierarchy's folder of the cgroup NAME that exists
    local fs
    for fs in /sys/fs/cgroup /sys/fs/cgroup/*; do
        [[ -f "$fs/cgroup.procs" && -d "$fs/$1" ]] && echo "$fs/$1"
    done
    return 0
}
remove_cgroups() { # remove_cgroups NAME: removes it everywhere (fails while it holds processes)
    local dir sub status=0
    while read -r dir; do
        while read -r sub; do
            rmdir "$sub" 2>/dev/null || status=1
        done < <(find "$dir" -depth -type d)
    done < <(cgroup_dirs "$1")
    return $status
}
cgroup_dir_unified() {
    if [[ $(stat -fc %T /sys/fs/cgroup) == cgroup2fs ]]; then
        echo "/sys/fs/cgroup/$1"
    else
        echo "/sys/fs/cgroup/unified/$1"
    fi
}

# --- The cached Debian root --------------------------------------------------------------------------------
debian_sources() {
    if [[ -n "${RELAUNCH_HOST_MIRROR:-}" ]]; then
        printf 'deb %s bookworm main\ndeb %s bookworm-updates main\n' "$RELAUNCH_HOST_MIRROR" "$RELAUNCH_HOST_MIRROR"
        return
    fi
    # deb822 stanzas (sources.list.d/*.sources) and one-line entries (sources.list, *.list) whose
    # suite is bookworm*: the machine's Debian mirror and its security archive.
    {
        cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
            /^URIs:/ { uri = $2 } /^Suites:/ { suites = ""; for (i = 2; i <= NF; i++) suites = suites " " $i }
            /^Types:/ { types = $0 } /^Components:/ { comp = ""; for (i = 2; i <= NF; i++) comp = comp " " $i }
            /^$/ { emit() } END { emit() }
            function emit(  n, s, i) { if (uri != "" && types ~ /deb( |$)/) { n = split(suites, s, " ");
                for (i = 1; i <= n; i++) if (s[i] ~ /^bookworm/) print "deb " uri " " s[i] comp }
                uri = ""; suites = ""; types = ""; comp = "" }'
        cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
            awk '$1 == "deb" && $3 ~ /^bookworm/ { print }'
    } | sort -u
}

# build_root REBUILD: the cached root, built again when missing, stale, or REBUILD is 1.
build_root() {
    local sources stamp want
    sources=$(debian_sources)
    [[ -n "$sources" ]] || die "no Debian bookworm source in /etc/apt/sources.list*; set RELAUNCH_HOST_MIRROR=URL"
    want=$(printf '%s\n' "$image_version" "${packages[*]}" "$sources" | sha256sum | cut -c1-16)
    stamp=$(cat "$cache/root.stamp" 2>/dev/null || true)
    if [[ $1 -eq 0 && -d "$cache/root" && "$stamp" == "$want" ]]; then
        echo "==> the cached Debian root is current ($cache/root)"
        return 0
    fi
    echo "==> building the Debian 12 root with mmdebstrap (${stamp:+stale; }about 3 minutes)"
    local -a source_args=()
    mapfile -t source_args <<<"$sources"
    rm -rf "$cache/root.new" "$cache/root" "$cache/root.stamp"
    if ! nice -n 10 mmdebstrap --variant=minbase --include="$(IFS=,; echo "${packages[*]}")" \
        bookworm "$cache/root.new" "${source_args[@]}" >"$logs/mmdebstrap.log" 2>&1; then
        tail -n 15 "$logs/mmdebstrap.log" >&2
        rm -rf "$cache/root.new"
        die "mmdebstrap failed (see $logs/mmdebstrap.log)"
    fi
    mv "$cache/root.new" "$cache/root"
    echo "$want" >"$cache/root.stamp"
}

# prepare_machine: root, the tools (installing mmdebstrap and systemd-container when missing), the
# toolchain (RELAUNCH_HOST_TOOLCHAIN), the cache, and the machine lock (fd 8) unless the caller holds it.
prepare_machine() {
    [[ $(id -u) -eq 0 ]] || die "needs root (it boots containers); run it with sudo"
    local tool need=()
    command -v mmdebstrap >/dev/null || need+=(mmdebstrap)
    command -v systemd-nspawn >/dev/null || need+=(systemd-container)
    if [[ ${#need[@]} -gt 0 ]]; then
        echo "==> installing ${need[*]} (apt-get)"
        { DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}"; } >/dev/null ||
            die "apt-get install ${need[*]} failed; install them by hand"
    fi
    for tool in mmdebstrap systemd-nspawn unshare nsenter flock setsid git findmnt "$@"; do
        command -v "$tool" >/dev/null || die "'$tool' is missing; apt-get install -y mmdebstrap systemd-container util-linux git $*"
    done
    local swift
    swift=$(command -v swift) || die "swift is not on PATH; install the Swift 6 toolchain"
    # /opt/swift/usr/bin/swift-driver -> /opt/swift
    RELAUNCH_HOST_TOOLCHAIN=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift")")")")
    export RELAUNCH_HOST_TOOLCHAIN
    [[ "$repo/" != "$cache"/* && "$cache/" != "$repo"/* ]] || die "RELAUNCH_HOST_CACHE=$cache must lie outside the checkout $repo"

    mkdir -p "$cache" || die "cannot create $cache"
    if [[ "${RELAUNCH_MACHINE_LOCK_HELD:-0}" != 1 ]]; then
        exec 8>>"$lock" || die "cannot open the machine lock $lock"
        if ! flock -n 8; then
            echo "==> waiting for the machine lock $lock (another sandbox or container runs)"
            flock -w 1800 8 || die "the machine lock $lock is still held after 30 minutes"
        fi
    fi
    rm -rf "$logs"
    mkdir -p "$logs"
}

# --- Inside a mount namespace of our own ------------------------------------------------------------------
# private_run_tmp: nspawn keeps runtime files in /run/systemd/nspawn and a temporary root in /tmp:
# private copies. The checkout or the cache under /run or /tmp would vanish: held open, bound back.
private_run_tmp() {
    local -a keep=() keep_fds=()
    local path fd i
    for path in "$repo" "$cache"; do
        case "$path/" in
            /run/*|/tmp/*) exec {fd}<"$path"; keep+=("$path"); keep_fds+=("$fd") ;;
        esac
    done
    mount -t tmpfs -o mode=0755,nosuid,nodev relaunch-ct-run /run || die "cannot mount a private /run"
    mount -t tmpfs -o mode=1777,nosuid,nodev relaunch-ct-tmp /tmp || die "cannot mount a private /tmp"
    for i in "${!keep[@]}"; do
        mkdir -p "${keep[$i]}"
        mount --no-canonicalize --rbind "/proc/$BASHPID/fd/${keep_fds[$i]}" "${keep[$i]}"
    done
}

# toolchain_binds RUN: fills ct_binds with nspawn's binds of the toolchain and of git's mirrors, and
# writes RUN/gitconfig and RUN/swift.sh for install_toolchain_files. SwiftPM inside fetches the
# project's dependencies as it does here: this machine has no internet and git rewrites GitHub URLs to
# local mirrors (url.*.insteadOf in /etc/gitconfig). Same rules inside, the mirrors bound read-only.
ct_binds=()
toolchain_binds() {
    local run=$1 name value path
    ct_binds=(--bind-ro="$RELAUNCH_HOST_TOOLCHAIN")
    : >"$run/gitconfig"
    while read -r name value; do
        [[ -n "$name" ]] || continue
        git config --file "$run/gitconfig" --add "$name" "$value"
        # url.<base>.insteadOf: <base> is the mirror, a folder here.
        path=${name#url.}
        path=${path%.insteadof}
        [[ -d "$path" && " ${ct_binds[*]} " != *" --bind-ro=${path%/} "* ]] && ct_binds+=(--bind-ro="${path%/}")
    done < <(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null)
    # A login shell finds swift as a user of the toolchain would have set it up.
    printf 'PATH="%s:$PATH"\n' "$RELAUNCH_HOST_TOOLCHAIN/usr/bin" >"$run/swift.sh"
}
# install_toolchain_files RUN ROOT: git's rules and swift on PATH in the container's root.
install_toolchain_files() {
    install -D -m 0644 "$1/gitconfig" "$2/etc/gitconfig"
    install -D -m 0644 "$1/swift.sh" "$2/etc/profile.d/swift.sh"
}

# --- Containers, by name ------------------------------------------------------------------------------------
declare -A ct_loop=() ct_leader=() ct_log=()

# ct_boot NAME CGROUP LOG NSPAWN-ARGS...: boots a container in the cgroup CGROUP (a name), restarting
# nspawn when the container reboots (exit status 133), as systemd-nspawn@.service does. Returns at once.
ct_boot() {
    local name=$1 cgroup=$2 log=$3 cg
    shift 3
    cg=$(cgroup_dir_unified "$cgroup")
    remove_cgroups "$cgroup" || die "cgroup $cgroup still holds processes; is another run going on?"
    mkdir -p "$cg" || die "cannot create the cgroup $cg"
    : >"$log"
    ct_log[$name]=$log
    # setsid: Ctrl-C reaches this script, which powers the container off, not nspawn directly.
    # fd 8 (the machine lock) is closed: a container that outlived us must not keep the lock.
    setsid /bin/sh -c '
        echo $$ >"$1/cgroup.procs" || exit 1
        shift
        while :; do
            systemd-nspawn "$@"
            status=$?
            [ $status -eq 133 ] || exit $status
            echo "== the container rebooted; starting it again" >&2
        done' relaunch-ct-loop "$cg" --boot --register=no --keep-unit --console=passive "$@" \
        </dev/null >>"$log" 2>&1 8>&- &
    ct_loop[$name]=$!
}

# ct_find_leader NAME: the PID (as seen here) of the container's systemd, or nothing.
ct_find_leader() {
    local nspawn
    nspawn=$(pgrep -P "${ct_loop[$1]}" -x systemd-nspawn | head -n 1) || return 1
    pgrep -P "$nspawn" -x systemd | head -n 1
}

# ct_wait_booted NAME OLD_LEADER LABEL: until a new leader's `systemctl is-system-running` says
# running (180 s); FAIL "LABEL: ..." otherwise. A degraded system is a FAIL too, but returns 0.
ct_wait_booted() {
    local name=$1 old=$2 label=$3 deadline=$((SECONDS + 180)) l state=""
    while :; do
        kill -0 "${ct_loop[$name]}" 2>/dev/null ||
            { fail "$label: nspawn exited (see ${ct_log[$name]})"; tail -n 20 "${ct_log[$name]}" | sed 's/^/    | /'; return 1; }
        l=$(ct_find_leader "$name" || true)
        if [[ -n "$l" && "$l" != "$old" ]]; then
            state=$(nsenter -t "$l" -m -p -u -i -n -- timeout 5 systemctl is-system-running 2>/dev/null)
            case "$state" in
                running) ct_leader[$name]=$l; return 0 ;;
                degraded) ct_leader[$name]=$l
                    fail "$label: the system is degraded:"
                    ct_exec "$name" systemctl --failed --no-pager --plain | sed 's/^/    | /'
                    return 0 ;;
            esac
        fi
        [[ $SECONDS -lt $deadline ]] || { fail "$label: not running after 180 s (state: ${state:-no systemd yet}; see ${ct_log[$name]})"; return 1; }
        sleep 0.2
    done
}

# ct_exec NAME CMD...: runs CMD in the booted container as root, in the checkout, with a login's environment.
ct_exec() {
    local name=$1
    shift
    nsenter -t "${ct_leader[$name]}" -m -p -u -i -n -- env -i HOME=/root USER=root LOGNAME=root LANG=C.UTF-8 TERM=dumb \
        PATH="/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:$RELAUNCH_HOST_TOOLCHAIN/usr/bin" \
        /bin/sh -c 'cd "$0" && exec "$@"' "$repo" "$@"
}

# ct_poweroff NAME CGROUP: an orderly poweroff (SIGRTMIN+4 to its systemd), 60 s, then SIGKILL to
# every process of its cgroup; then the cgroup goes. Fails when it had to kill or could not remove.
ct_poweroff() {
    local name=$1 cgroup=$2 status=0 l deadline loop=${ct_loop[$1]:-0}
    if kill -0 "$loop" 2>/dev/null; then
        l=$(ct_find_leader "$name" || true)
        [[ -z "$l" ]] || kill -s RTMIN+4 "$l" 2>/dev/null || true
        deadline=$((SECONDS + 60))
        while kill -0 "$loop" 2>/dev/null && [[ $SECONDS -lt $deadline ]]; do sleep 0.2; done
        if kill -0 "$loop" 2>/dev/null; then
            echo "$prog: the container $name did not power off in 60 s; killing it" >&2
            while read -r l; do
                kill -KILL "$l" 2>/dev/null
            done < <(find "$(cgroup_dir_unified "$cgroup")" -name cgroup.procs -exec cat {} + 2>/dev/null)
            status=1
        fi
        wait "$loop" 2>/dev/null || true
    fi
    deadline=$((SECONDS + 10))
    until remove_cgroups "$cgroup"; do
        [[ $SECONDS -lt $deadline ]] || { echo "$prog: could not remove the cgroup $cgroup" >&2; status=1; break; }
        sleep 0.1
    done
    return $status
}

# ct_snapshot NAME FILE [PRUNE...]: the container's file list (path, type, mode, owner), sorted, without
# what the OS itself changes (SwiftPM's caches in /root, the journal, man's cache, timers, PRUNE...).
ct_snapshot() {
    local name=$1 file=$2 path
    shift 2
    local -a prune=()
    for path in /root/.cache /root/.swiftpm /root/.local /var/log/journal /var/cache/man /var/lib/systemd/timers "$repo" "$@"; do
        prune+=(-path "$path" -o)
    done
    unset 'prune[${#prune[@]}-1]'
    ct_exec "$name" find / -xdev \( "${prune[@]}" \) -prune -o -printf '%p %y %m %u:%g\n' |
        # PrivateTmp= folders are named after the boot and a random suffix; the reboot renames them.
        sed -E 's|^(/var/tmp/systemd-private-)[0-9a-f]{32}(-[^/ ]+-)[A-Za-z0-9]{6}|\1BOOT\2XXXXXX|' |
        LC_ALL=C sort >"$file"
}

# run_inner UNSHARE-ARGS...: runs "$0 __inner" in new namespaces (unshare ARGS) and a session of its
# own, so that a signal here (Ctrl-C, timeout's TERM) goes to all of it, which stops what runs in the
# containers and powers them off; this side then still checks what was left. Sets inner_status.
interrupted=0
run_inner() {
    setsid unshare "$@" -- "$0" __inner &
    inner_pid=$!
    trap 'echo "$prog: interrupted; stopping the containers" >&2; interrupted=1; kill -TERM -- "-$inner_pid" 2>/dev/null' INT TERM HUP
    while :; do
        wait "$inner_pid"
        inner_status=$?
        kill -0 "$inner_pid" 2>/dev/null || break
    done
    trap - INT TERM HUP
}
