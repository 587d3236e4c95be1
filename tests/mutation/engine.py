"""Runs one module's mutants: the baseline, then each mutant, in the overlaid checkout or a job's
scratch package (scratch.py)."""
import dataclasses
import json
import os
import random
import re
import threading
import time

import scratch
import sites

MANIFEST = {}


@dataclasses.dataclass
class Tally:
    killed: int = 0
    survived: int = 0
    timed_out: int = 0
    not_compiled: int = 0
    equivalent: int = 0
    build_seconds: float = 0
    test_seconds: float = 0
    survivors: list = dataclasses.field(default_factory=list)

    @property
    def tested(self):
        return self.killed + self.survived + self.timed_out

    def add(self, other):
        for field in ("killed", "survived", "timed_out", "not_compiled", "equivalent",
                      "build_seconds", "test_seconds"):
            setattr(self, field, getattr(self, field) + getattr(other, field))
        self.survivors += other.survivors

    def summary(self):
        share = f"{100 * self.killed // self.tested}%" if self.tested else "-"
        return (f"killed {self.killed}, survived {self.survived}, timed out {self.timed_out} of "
                f"{self.tested} ({share} killed); {self.not_compiled} did not compile, "
                f"{self.equivalent} listed equivalent")


def failed_test(log):
    """The first failed test's line in a test run's log, or None."""
    with open(log, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if "✘ Test" in line:
                return line.strip()[:110]
    return None


def first_failure(log):
    """The most telling line of a failed test run: a failed test, else a trap, else an error."""
    with open(log, encoding="utf-8", errors="replace") as handle:
        lines = handle.read().splitlines()
    for mark in ("✘ Test", "Fatal error", "error:"):
        for line in lines:
            if mark in line:
                return line.strip()[:110]
    return "tests failed"


def read_events(events):
    """(open, longest) from a run's Swift Testing event stream: the tests that started and have not
    ended, in the order they started, and the longest time one test took (seconds)."""
    open_tests, longest = {}, 0.0
    try:
        with open(events, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    payload = json.loads(line).get("payload", {})
                except ValueError:
                    continue  # the last line of a killed run may be cut short
                # A function's id is Module.Suite/name(labels:)/File.swift:line:column; suites have no "(".
                name = re.sub(r"/[^/]*:\d+:\d+$", "", payload.get("testID", ""))
                if "(" not in name:
                    continue
                instant = payload.get("instant", {}).get("absolute", 0.0)
                if payload.get("kind") == "testStarted":
                    open_tests[name] = instant
                elif payload.get("kind") == "testEnded" and name in open_tests:
                    longest = max(longest, instant - open_tests.pop(name))
    except FileNotFoundError:
        pass
    return list(open_tests), longest


# A run that timed out is made again, one test at a time, without each test it hangs in, for at most
# this many times the limit of one run.
RERUN_LIMITS = 4


class Module:
    def __init__(self, root, work, name, tests, equivalents, seed, per_module, jobs, picked):
        self.root, self.work_dir, self.name, self.jobs = root, work, name, jobs
        if root not in MANIFEST:
            MANIFEST[root] = scratch.dump_package(root)
        self.kept = scratch.closure(MANIFEST[root], [name] + tests)
        every = sites.module_sites(root, scratch.target_path(self.kept[name]))
        keys = {site.key for site in every}
        for key in equivalents:
            if key.startswith(scratch.target_path(self.kept[name]) + "/") and key not in keys:
                print(f"  warning: tests/mutation/equivalent lists {key}, which is no site now")
        self.tally = Tally(equivalent=sum(1 for site in every if site.key in equivalents))
        pool = [site for site in every if site.key not in equivalents]
        if picked:
            pool = [site for site in every if site.key in picked]
            self.order, self.wanted = pool, len(pool)
        elif per_module:
            self.order = random.Random(f"{seed}:{name}").sample(pool, len(pool))
            self.wanted = min(per_module, len(pool))
        else:
            self.order, self.wanted = pool, len(pool)
        self.total_sites, self.tests = len(every), tests
        self.lock = threading.Lock()
        self.next = 0
        self.claimed = 0

    def base(self, job):
        return os.path.join(self.work_dir, self.name, f"job{job}")

    def baseline(self):
        """Builds and tests the unmutated scratch packages; False when they do not pass."""
        print(f"== {self.name}: {self.total_sites} sites ({self.tally.equivalent} listed equivalent); "
              f"tests: {' '.join(self.tests)}; {self.wanted} mutants to test", flush=True)
        self.scratches = []
        for job in range(1, self.jobs + 1):
            if os.environ.get(scratch.OVERLAY_ENV):
                package = scratch.Overlay(self.root, self.tests, self.base(job))
            else:
                if job > 1:
                    scratch.copy_build(self.base(1), self.base(job))
                package = scratch.Scratch(self.root, self.base(job), self.kept)
                package.sync()
            log = os.path.join(package.logs, "baseline-build.log")
            status, seconds = package.build(None, log)
            if status != 0:
                print(f"  baseline build failed in {package.dir}; see {log}")
                return False
            where = " (the checkout's own build, overlaid)" if isinstance(package, scratch.Overlay) else ""
            print(f"  job {job}: baseline build {seconds:.1f} s{where}", flush=True)
            self.scratches.append(package)
        log = os.path.join(self.base(1), "baseline-test.log")
        events = os.path.join(self.base(1), "baseline-events.jsonl")
        status, seconds = self.scratches[0].test(None, log, events)
        if status != 0:
            print(f"  the unmutated tests fail (exit {status}); see {log}")
            return False
        self.test_limit = 5 * seconds + 30
        # A test that says nothing for this long, running alone, is taken to hang.
        self.quiet_limit = 5 * read_events(events)[1] + 10
        self.build_limit = 600
        print(f"  baseline tests pass in {seconds:.1f} s; limit per mutant's tests {self.test_limit:.0f} s, "
              f"per test after a timeout {self.quiet_limit:.0f} s", flush=True)
        return True

    def claim(self):
        with self.lock:
            if self.claimed >= self.wanted or self.next >= len(self.order):
                return None
            if self.tally.not_compiled >= 4 * self.wanted + 4:
                return None  # something else is broken: stop rather than draw the whole module
            site = self.order[self.next]
            self.next += 1
            self.claimed += 1
            return site

    def record(self, site, verdict, build, test, detail, line=""):
        with self.lock:
            tally = self.tally
            tally.build_seconds += build
            tally.test_seconds += test
            if verdict == "did not compile":
                tally.not_compiled += 1
                self.claimed -= 1  # a draw that does not compile is replaced
            elif verdict == "killed":
                tally.killed += 1
            elif verdict == "timed out":
                tally.timed_out += 1
            else:
                tally.survived += 1
                tally.survivors.append((site, line))
            number = tally.tested + tally.not_compiled
            timing = f"build {build:.1f} s" + (f", test {test:.1f} s" if test else "")
            print(f"  {number}. {site.file}:{site.line}:{site.column} {site.op} → {site.new}  "
                  f"{verdict.upper() if verdict == 'survived' else verdict}{detail}  ({timing})", flush=True)

    def work(self, package):
        while (site := self.claim()) is not None:
            path = os.path.join(package.dir, site.file)
            with open(path, encoding="utf-8") as handle:
                original = handle.read()
            line = original.split("\n")[site.line - 1].strip()  # as built, whatever the checkout holds now
            try:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(site.apply(original))
                log = os.path.join(package.logs, "mutant.log")
                status, build = package.build(self.build_limit, log)
                if status != 0:
                    self.record(site, "did not compile", build, 0, "")
                    continue
                status, test = package.test(self.test_limit, log)
                if status is None:
                    # A test that failed before the run hung elsewhere has caught the mutant.
                    failed = failed_test(log)
                    if failed:
                        self.record(site, "killed", build, test, f": {failed} (then the run timed out)")
                    else:
                        verdict, more, detail = self.without_hung(package, log)
                        self.record(site, verdict, build, test + more, detail)
                elif status != 0:
                    self.record(site, "killed", build, test, f": {first_failure(log)}")
                else:
                    self.record(site, "survived", build, test, "", line)
            finally:
                with open(path, "w", encoding="utf-8") as handle:
                    handle.write(original)

    def without_hung(self, package, log):
        """(verdict, seconds, detail) for a run that timed out with no test failed.

        The tests are run again one at a time while the event stream is watched: a test that stays
        silent past the quiet limit is stopped and left out of the next run. So a mutant that makes
        one loop endless is still judged by every other test's assertions; a hang alone is "timed
        out", never "killed"."""
        events = os.path.join(package.logs, "mutant-events.jsonl")
        skipped, seconds = [], 0.0
        while seconds < RERUN_LIMITS * self.test_limit:
            status, took, hung = self.watched(package, log, events, skipped)
            seconds += took
            hung_in = f" (after hanging in {', '.join(skipped + [hung] if hung else skipped)})"
            failed = failed_test(log)
            if failed:
                return "killed", seconds, f": {failed}{hung_in}"
            if hung:
                skipped.append(hung)
            elif status is None:
                break
            elif status != 0:
                return "killed", seconds, f": {first_failure(log)}{hung_in}"
            else:
                return "timed out", seconds, f": only hangs notice it, in {', '.join(skipped)}"
        return "timed out", seconds, f": hung in {', '.join(skipped)}" if skipped else ""

    def watched(self, package, log, events, skipped):
        """(status, seconds, hung): one serial run without the skipped tests; hung names the test
        that went quiet (the run was then stopped, status None)."""
        size, changed, hung = -1, time.monotonic(), None

        def quiet():
            nonlocal size, changed, hung
            now = time.monotonic()
            grown = os.path.getsize(events) if os.path.exists(events) else 0
            if grown != size:
                size, changed = grown, now
            elif now - changed > self.quiet_limit:
                open_tests = read_events(events)[0]
                hung = open_tests[-1] if open_tests else None
            return hung is not None

        options = ["--no-parallel"] + [option for name in skipped for option in ("--skip", re.escape(name))]
        status, seconds = package.test(self.test_limit * 2, log, events, options, quiet)
        return status, seconds, hung


def run_module(root, work, name, tests, equivalents, seed, per_module, jobs, picked=()):
    """The module's Tally, or None when its baseline fails or no mutant could be built."""
    module = Module(root, work, name, tests, equivalents, seed, per_module, jobs, picked)
    if picked and not module.wanted:
        print(f"== {name}: none of the --site sites is in it")
        return Tally()
    if not module.baseline():
        return None
    threads = [threading.Thread(target=module.work, args=(package,), daemon=True) for package in module.scratches]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    tally = module.tally
    runs = tally.tested + tally.not_compiled
    if runs:
        print(f"  cost per mutant: {tally.build_seconds / runs:.1f} s build + "
              f"{tally.test_seconds / max(tally.tested, 1):.1f} s test, {jobs} at a time")
    print(f"{name}: {tally.summary()}")
    for site, line in tally.survivors:
        print(f"  survivor {site.file}:{site.line}:{site.column} {site.op} → {site.new}   {line}")
    if module.wanted and tally.tested == 0:
        print(f"  no mutant of {name} could be built")
        return None
    return tally
