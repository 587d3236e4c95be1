"""Where mutants are built: the checkout itself seen through an overlay, or a scratch package per job.

The overlay (one job, as root): the runner runs in a mount namespace of its own where the checkout's
path shows an overlay of the checkout (below) and a folder in /dev/shm (above). Mutants and their
builds are written to the folder above; the checkout and its .build are only read, and stay as they
were. The paths are the checkout's own, so its debug build (the unit tests' one) is warm: the
baseline is an incremental build of nothing, a mutant one of the file it changed.

A scratch package (several jobs, or no overlay here): the checkout's own Package.swift with its
target list cut down to the module, the targets it needs and its test targets (so settings, flags
and dependencies are the checkout's), its sources copied (rsync keeps modification times, so a warm
scratch build stays warm), and the resolved dependencies copied from the checkout's .build once; its
first build compiles those dependencies cold. Mutants are written into the scratch copy only.
"""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time

NICE = ["nice", "-n", "10"]


def dump_package(root):
    output = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                            capture_output=True, text=True).stdout
    return json.loads(output)


def closure(manifest, names):
    """The names plus every target of this package they depend on, directly or not."""
    targets = {target["name"]: target for target in manifest["targets"]}
    keep, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in keep:
            continue
        if name not in targets:
            raise ValueError(f"no target named {name} in Package.swift")
        keep.add(name)
        for dependency in targets[name]["dependencies"]:
            kind, value = next(iter(dependency.items()))
            if kind in ("byName", "target") and value[0] in targets:
                todo.append(value[0])
    return {name: targets[name] for name in keep}


def target_path(target):
    if target.get("path"):
        return target["path"]
    folder = "Tests" if target["type"] == "test" else "Sources"
    return os.path.join(folder, target["name"])


FILTER = """
// tests/mutation/run: this scratch package builds only these targets.
let mutationTargets: Set<String> = [{names}]
package.targets = package.targets.filter {{ mutationTargets.contains($0.name) }}
package.products = []
"""


# The checkout's directories, besides the targets, that tests read.
DOCUMENTS = ("docs",)


class Scratch:
    """One scratch package: dir holds Package.swift, the kept targets' sources and its own .build."""

    def __init__(self, root, directory, kept):
        self.root, self.dir, self.kept = root, directory, kept
        self.logs = directory

    def sync(self):
        os.makedirs(self.dir, exist_ok=True)
        with open(os.path.join(self.root, "Package.swift"), encoding="utf-8") as handle:
            manifest = handle.read()
        names = ", ".join(f'"{name}"' for name in sorted(self.kept))
        manifest += FILTER.format(names=names)
        self.write_if_changed("Package.swift", manifest)
        resolved = os.path.join(self.root, "Package.resolved")
        if os.path.exists(resolved):
            mirror_file(resolved, os.path.join(self.dir, "Package.resolved"))
        build = os.path.join(self.dir, ".build")
        if not os.path.exists(os.path.join(build, "workspace-state.json")):
            source = os.path.join(self.root, ".build")
            if not os.path.exists(os.path.join(source, "workspace-state.json")):
                raise RuntimeError(f"{source} holds no resolved dependencies; run `swift package resolve` there first")
            os.makedirs(build, exist_ok=True)
            for item in ("checkouts", "repositories", "workspace-state.json"):
                if os.path.exists(os.path.join(source, item)):
                    subprocess.run(["cp", "-a", os.path.join(source, item), build + "/"], check=True)
        for target in self.kept.values():
            path = target_path(target)
            mirror(os.path.join(self.root, path), os.path.join(self.dir, path))
        # Some tests hold a document to the code (docs/PERMISSIONS.md's tables): they read it beside
        # the package, so the scratch package carries the checkout's docs too.
        for path in DOCUMENTS:
            if os.path.isdir(os.path.join(self.root, path)):
                mirror(os.path.join(self.root, path), os.path.join(self.dir, path))

    def write_if_changed(self, relative, text):
        path = os.path.join(self.dir, relative)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                if handle.read() == text:
                    return
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(text)

    def build(self, limit, log):
        return run(NICE + ["swift", "build", "--build-tests"], self.dir, limit, log)

    def test(self, limit, log, events=None, options=(), stop_when=None):
        """Runs the tests; events names a file for Swift Testing's event stream (JSON lines, one per
        event: which test started and ended when); options go to `swift test`; stop_when as run's."""
        # No backtracer: a mutant that traps fails the run at once instead of waiting on symbolication.
        env = dict(os.environ, SWIFT_BACKTRACE="enable=no")
        command = NICE + ["swift", "test", "--skip-build", *options]
        if events:
            if os.path.exists(events):
                os.remove(events)
            command += ["--event-stream-output-path", events, "--event-stream-version", "0"]
        return run(command, self.dir, limit, log, env, stop_when)


class Overlay(Scratch):
    """The checkout, inside the overlay's mount namespace: dir is the checkout's path, built as a
    scratch package is; only the module's test targets are run (`swift test --filter`)."""

    def __init__(self, root, tests, logs):
        super().__init__(root, root, kept=None)
        self.logs = logs
        os.makedirs(logs, exist_ok=True)
        self.filter = "^(" + "|".join(tests) + ")\\."

    def sync(self):
        raise RuntimeError("the overlaid checkout is the package: it is never cut down or copied")

    def test(self, limit, log, events=None, options=(), stop_when=None):
        return super().test(limit, log, events, ["--filter", self.filter, *options], stop_when)


OVERLAY_ENV = "RELAUNCH_MUTATION_OVERLAY"
# In memory when it can be (the mutants' objects and links are written there), else the temporary folder.
OVERLAY_HOME = "/dev/shm" if os.access("/dev/shm", os.W_OK) else tempfile.gettempdir()


def overlay_mount(root, above):
    """The mount command that lays above/upper over root (above/work is overlayfs's own)."""
    return ["mount", "-t", "overlay", "relaunch-mutation",
            "-o", f"lowerdir={root},upperdir={above}/upper,workdir={above}/work", root]


def in_overlay(root, argv):
    """Runs argv (this runner) again in a mount namespace of its own with the overlay on root, and
    returns its exit status; None when no overlay can be made here (not root, no overlayfs), to fall
    back to scratch packages. The folder above is removed afterwards; the runner's own logs under
    .build/mutation/ are copied out to the checkout first."""
    if os.geteuid() != 0 or not shutil.which("unshare"):
        return None
    try:
        sweep_overlays()
        above = tempfile.mkdtemp(prefix=f"relaunch-mutation-{os.getpid()}-", dir=OVERLAY_HOME)
    except OSError as error:
        print(f"  no folder for an overlay in {OVERLAY_HOME} ({error}); using scratch packages", flush=True)
        return None
    try:
        for name in ("upper", "work"):
            os.mkdir(os.path.join(above, name))
        # Tried first, alone: a kernel or container without overlayfs says so here, not mid-run.
        probe = subprocess.run(["unshare", "--mount", "--propagation", "private", *overlay_mount(root, above)],
                               capture_output=True, text=True)
        if probe.returncode != 0:
            print(f"  no overlay here ({probe.stderr.strip()[:120]}); using scratch packages", flush=True)
            return None
        shutil.rmtree(os.path.join(above, "work"))
        os.mkdir(os.path.join(above, "work"))
        mount = overlay_mount(root, above)[1:]
        command = ["unshare", "--mount", "--propagation", "private", "bash", "-c",
                   'n=$1; shift; mount "${@:1:$n}" || exit 1; shift "$n"; exec "$@"', "bash",
                   str(len(mount)), *mount, *argv]
        env = dict(os.environ, **{OVERLAY_ENV: above})
        process = subprocess.Popen(command, env=env)
        try:
            return process.wait()
        except BaseException:
            process.terminate()
            process.wait()
            raise
    finally:
        logs = os.path.join(above, "upper", ".build", "mutation")
        if os.path.isdir(logs):
            for directory, _, names in os.walk(logs):
                for name in names:
                    if name.endswith((".log", ".jsonl")):
                        source = os.path.join(directory, name)
                        target = os.path.join(root, ".build", "mutation", os.path.relpath(source, logs))
                        os.makedirs(os.path.dirname(target), exist_ok=True)
                        shutil.copyfile(source, target)
        shutil.rmtree(above, ignore_errors=True)


def sweep_overlays():
    """Removes the folders of overlays whose runner is gone (killed before it could)."""
    for name in os.listdir(OVERLAY_HOME):
        match = re.fullmatch(r"relaunch-mutation-(\d+)-.*", name)
        if match and not os.path.exists(f"/proc/{match.group(1)}"):
            shutil.rmtree(os.path.join(OVERLAY_HOME, name), ignore_errors=True)


def mirror_file(source, destination):
    """Copies a file with its modification time unless the copy already matches (size and time)."""
    if os.path.exists(destination):
        have, want = os.stat(destination), os.stat(source)
        if have.st_size == want.st_size and have.st_mtime_ns == want.st_mtime_ns:
            return
    shutil.copy2(source, destination)


def mirror(source, destination):
    """Makes destination a copy of the directory source (rsync -a --delete, without rsync)."""
    os.makedirs(destination, exist_ok=True)
    wanted = set(os.listdir(source))
    for name in os.listdir(destination):
        if name not in wanted:
            path = os.path.join(destination, name)
            shutil.rmtree(path) if os.path.isdir(path) and not os.path.islink(path) else os.remove(path)
    for name in wanted:
        path, copy = os.path.join(source, name), os.path.join(destination, name)
        if os.path.isdir(path) and not os.path.islink(path):
            mirror(path, copy)
        else:
            mirror_file(path, copy)


def run(command, directory, limit, log, env=None, stop_when=None):
    """(status, seconds): status is the exit status, or None when the limit ran out or stop_when
    (asked once a second, if given) said True (then killed)."""
    started = time.monotonic()
    with open(log, "w", encoding="utf-8") as output:
        process = subprocess.Popen(command, cwd=directory, stdout=output, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        RUNNING.add(process)
        try:
            status = None
            while status is None:
                try:
                    status = process.wait(timeout=1)
                except subprocess.TimeoutExpired:
                    over = limit is not None and time.monotonic() - started > limit
                    if over or (stop_when is not None and stop_when()):
                        stop(process)
                        break
        except BaseException:  # ^C or SIGTERM: nothing of ours is left running
            stop(process)
            raise
        finally:
            RUNNING.discard(process)
    return status, time.monotonic() - started


RUNNING = set()


def descendants(pid):
    """The process ids below pid (llbuild starts the compilers in process groups of their own)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as handle:
                    parent = int(handle.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def stop(process):
    """Ends a child and everything below it: TERM, then KILL after 10 s."""
    # Listed once: after the TERM, what the test runner left behind belongs to init, not to it.
    pids = [process.pid] + descendants(process.pid)
    for sig, wait in ((signal.SIGTERM, 10), (signal.SIGKILL, 30)):
        for pid in pids + [pid for pid in descendants(process.pid) if pid not in pids]:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        try:
            process.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def keep_nice():
    """Every 2 s, sets niceness 10 on everything below the running children: swift-build runs its
    compilers at niceness 0 again when it runs as root, and the machine is shared."""
    while True:
        time.sleep(2)
        for process in list(RUNNING):
            for pid in descendants(process.pid):
                try:
                    if os.getpriority(os.PRIO_PROCESS, pid) < 10:
                        os.setpriority(os.PRIO_PROCESS, pid, 10)
                except OSError:
                    pass


threading.Thread(target=keep_nice, daemon=True).start()


def stop_all():
    for process in list(RUNNING):
        stop(process)


def copy_build(source, destination):
    """Seeds another job's scratch package from a built one (sources and .build)."""
    if os.path.exists(destination):
        return
    shutil.copytree(source, destination, symlinks=True)
    # Clang's module cache records its own path: a moved one fails every compile, so it starts anew.
    for directory, names, _ in os.walk(os.path.join(destination, ".build")):
        if "ModuleCache" in names:
            shutil.rmtree(os.path.join(directory, "ModuleCache"))
            names.remove("ModuleCache")
