#!/usr/bin/env python3
"""Runs a sample with --trace and checks the timeline it writes.

    check_trace.py SAMPLE TRACE_FILE [--path MACHINE=State,State,...]...
    check_trace.py - TRACE_FILE --path ...   checks TRACE_FILE alone (the tests of this script)
    check_trace.py SAMPLE TRACE_FILE --shape-only   no visits to check against: the shape alone

The sample must exit 0 (its self-check) and write TRACE_FILE, which must be a
Chrome trace event JSON object: a traceEvents list whose process and tracks
(one per machine and per parallel region) are named by metadata events, with
one complete slice ("X") per state visit, non-negative durations, slices
nested properly on each track, and the current states' slices (args.leaf)
following each other without gaps (but where a track starts again). The
visits are checked against the run's own printed trace (TracePrinter's
"From -> To (cause)" lines), one slice per line printed; --path gives the
visits of a machine whose run prints no trace, in order.
Standard library only.
"""

import collections
import json
import re
import subprocess
import sys

TRANSITION_LINE = re.compile(r"^(\S*) -> (\S+)(?: \((.+)\))?$")


def fail(message):
    print(f"check_trace: {message}", file=sys.stderr)
    sys.exit(1)


def main(argv):
    if len(argv) < 3:
        fail(__doc__)
    sample, trace_file = argv[1], argv[2]
    paths = {}
    rest = argv[3:]
    shape_only = "--shape-only" in rest
    rest = [a for a in rest if a != "--shape-only"]
    while rest:
        if rest[0] != "--path" or len(rest) < 2 or "=" not in rest[1]:
            fail(f"unexpected arguments: {rest}")
        machine, states = rest[1].split("=", 1)
        paths[machine] = states.split(",")
        rest = rest[2:]

    stdout = ""
    if sample != "-":
        run = subprocess.run([sample, "--trace", trace_file], capture_output=True, text=True)
        if run.returncode != 0:
            fail(f"{sample} --trace exited {run.returncode}\n{run.stderr}")
        stdout = run.stdout

    with open(trace_file, encoding="utf-8") as f:
        document = json.load(f)
    if not isinstance(document, dict) or not isinstance(document.get("traceEvents"), list):
        fail("the document is not an object with a traceEvents list")
    events = document["traceEvents"]

    names = {}  # tid -> track name
    process_named = False
    slices = collections.defaultdict(list)  # tid -> X events
    for e in events:
        for key in ("name", "ph", "pid", "tid"):
            if key not in e:
                fail(f"an event without {key}: {e}")
        if e["ph"] == "M":
            if e["name"] == "process_name":
                process_named = bool(e["args"]["name"])
            elif e["name"] == "thread_name":
                names[e["tid"]] = e["args"]["name"]
        elif e["ph"] == "X":
            if not isinstance(e["ts"], int) or not isinstance(e["dur"], int):
                fail(f"a slice whose ts or dur is not an integer: {e}")
            if e["ts"] < 0 or e["dur"] < 0:
                fail(f"a slice with a negative time or duration: {e}")
            if not isinstance(e.get("args", {}).get("leaf"), bool) or "cause" not in e["args"]:
                fail(f"a slice without args.leaf and args.cause: {e}")
            slices[e["tid"]].append(e)
        elif e["ph"] == "i":
            if not isinstance(e["ts"], int) or e["ts"] < 0 or e.get("s") != "t":
                fail(f"an instant without a time or a thread scope: {e}")
        else:
            fail(f"an event of an unexpected phase: {e}")
    if not process_named:
        fail("no process_name metadata event")
    if not slices:
        fail("no slices")
    for tid in {e["tid"] for e in events if e["ph"] != "M"}:
        if tid not in names:
            fail(f"track {tid} has no thread_name metadata event")

    for tid, track in slices.items():
        # Proper nesting: a slice that starts inside another ends inside it too.
        stack = []
        for e in sorted(track, key=lambda e: (e["ts"], -e["dur"])):
            while stack:
                top = stack[-1]
                if top["ts"] <= e["ts"] and e["ts"] + e["dur"] <= top["ts"] + top["dur"]:
                    break  # e is inside top
                if top["ts"] + top["dur"] <= e["ts"]:
                    stack.pop()  # top ended before e
                    continue
                fail(f"on {names[tid]}, {e['name']} at {e['ts']} overlaps {top['name']} at {top['ts']}")
            stack.append(e)
        # The current states follow each other: each visit starts where the one before ended.
        leaves = sorted((e for e in track if e["args"]["leaf"]), key=lambda e: e["args"]["visit"])
        if [e["args"]["visit"] for e in leaves] != list(range(1, len(leaves) + 1)):
            fail(f"on {names[tid]}, the visits are not numbered 1, 2, ...")
        for before, after in zip(leaves, leaves[1:]):
            if after["args"]["cause"] == "initial":
                continue  # a start again, or a region entered again with its parallel state
            if after["ts"] != before["ts"] + before["dur"]:
                fail(f"on {names[tid]}, {after['name']} starts at {after['ts']}, not where {before['name']} ended")
            if after["args"]["from"] != before["name"]:
                fail(f"on {names[tid]}, {after['name']} says it came from {after['args']['from']}, not {before['name']}")

    leaf_visits = collections.Counter()
    for tid, track in slices.items():
        for e in track:
            if e["args"]["leaf"]:
                leaf_visits[(e["args"]["from"], e["name"], e["args"]["cause"])] += 1
    printed = collections.Counter()
    with_causes = True
    for line in stdout.splitlines():
        m = TRANSITION_LINE.match(line)
        if m:
            printed[(m.group(1), m.group(2), m.group(3))] += 1
            with_causes = with_causes and m.group(3) is not None
    if printed:
        if not with_causes:
            leaf_visits = collections.Counter({(f, t, None): n for (f, t, _), n in leaf_visits.items()})
        if printed != leaf_visits:
            fail(f"the slices differ from the printed transitions:\n  printed, no slice: {printed - leaf_visits}\n"
                 f"  slice, not printed: {leaf_visits - printed}")
    by_name = {name: tid for tid, name in names.items()}
    for machine, states in paths.items():
        if machine not in by_name:
            fail(f"no track named {machine}")
        got = [e["name"] for e in sorted(slices[by_name[machine]], key=lambda e: e["args"].get("visit", 0))
               if e["args"]["leaf"]]
        if got != states:
            fail(f"{machine}'s visits: {got}, expected {states}")
    if not printed and not paths and not shape_only:
        fail("nothing to check the visits against: the run printed no transitions and no --path was given")
    visits = sum(1 for track in slices.values() for e in track if e["args"]["leaf"])
    print(f"check_trace: {trace_file}: {len(names)} track(s), {visits} visits, "
          f"{sum(len(t) for t in slices.values())} slices, checked")


if __name__ == "__main__":
    main(sys.argv)
