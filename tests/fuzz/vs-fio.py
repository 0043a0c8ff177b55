#!/usr/bin/env python3
"""Run random fio jobs in fio 3.33 and in storsim and report where the
I/Os they issue differ.

storsim claims to issue the I/Os fio would, one for one; the fixed cases
of tests/offsets-vs-fio.sh and tests/real-files-vs-fio.sh check that for
chosen jobs, this for jobs drawn at random from options that move
offsets, sizes, files and rounds (rw, bs, bsrange, bssplit, size,
filesize, nrfiles, file service, loops, offset, offset_increment,
io_size, number_ios, syncs, rwmix, percentage_random, distributions,
norandommap, randseed, blockalign, rw_sequencer, strided zones,
random_generator, offset_align, verify, fsync_on_close, openfiles,
file_append, pre_read, unified_rw_reporting, bs_is_seq_rand,
bs_unaligned, allrandrepeat, direct, sync, fallocate, unlink, and the
queue's batches and low mark). Each job
runs with a synchronous engine, or libaio or io_uring at depth 4 without
periodic syncs, on real files in a scratch directory, whose order fio keeps
whatever the timing, once in fio (on this machine's file system)
and once in storsim (its file system mounted at the same relative path,
as the names seed zipf and pareto); the file, direction, offset and
length of every I/O and sync that each tool's write_iolog records must
be equal, in order, and so must the counts of their JSON reports (bytes,
I/Os issued, short and dropped, and with a synchronous engine the depth,
submit and complete distributions and the offsets of syncs, which with
I/Os in flight depend on the order they completed in). Reported per job:
  DIFF     the logs or the counts differ (with the first that does);
  REFUSED  storsim refused a job fio ran;
  FIO-ONLY fio failed a job storsim ran;
  FIO-HANG fio had not ended after 120 s (storsim is not run).
With --replay, each job replays a random iolog v2 trace (reads, writes
of 512 B to 64 KiB, syncs, datasyncs, waits over 1-3 files of 1 MiB that
both tools are given written) with a synchronous engine, and the counts
of both reports must be equal (write_iolog is off under read_iolog).
With --time-based, each job is also time_based with a runtime of 200 ms,
in which fio, on this machine's disk, and storsim, on its simulated
NVMe, issue different numbers of I/Os: the I/Os both issued must be
equal, in order, and the counts are not compared.
Usage: vs-fio.py [--storsim PATH] [--fio PATH] [--seed N] [--runs N]
                 [--replay | --time-based]
The exit status is 1 when a job differed. Use: make fuzz-vs-fio
[FUZZ_RUNS=N] [FUZZ_SEED=N]. Needs fio 3.33 (scripts/bootstrap.sh
installs Debian's).
"""
import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile

# libaio keeps several I/Os queued, which moves where do_io's rounds end;
# its periodic syncs are left out, as which io_u a sync takes depends on
# completion order, which varies between fio runs
ENGINES = ["psync", "sync", "pvsync", "pvsync2", "libaio iodepth=4",
           "io_uring iodepth=4"]
PERIODIC_SYNCS = ("fsync", "fdatasync")
# option -> values (None: a bare flag); one to four are drawn per job
OPTIONAL = [
    ("bs", ["4k", "8k", "16k", "4k,8k"]),
    ("bsrange", ["4k-16k", "4k-16k,8k-8k"]),
    ("bssplit", ["4k/50:16k/50", "4k/50:16k/50,8k/100"]),
    ("size", ["256k", "1m", "3m"]),
    # 101k: a last block that is not whole
    ("filesize", ["512k", "256k-2m", "101k"]),
    ("nrfiles", ["2", "3"]),
    ("file_service_type", ["random", "sequential", "roundrobin:2", "random:3",
                           "zipf:1.2", "pareto:0.5", "normal:20", "gauss:5"]),
    ("loops", ["2", "3"]),
    # a percentage stays when bytes follow it (fio's str_offset_cb)
    ("offset", ["64k", "10%", "10% offset=64k"]),
    ("offset_increment", ["128k"]),
    ("io_size", ["10k", "1m", "3m", "50%", "50% io_size=64k"]),
    ("number_ios", ["50"]),
    ("fsync", ["3"]), ("fdatasync", ["4"]), ("end_fsync", ["1"]),
    ("rwmixread", ["30"]), ("rwmixwrite", ["20"]),
    ("percentage_random", ["50"]),
    ("random_distribution", ["zipf:1.2", "pareto:0.5", "normal:10",
                             "zipf:1.2:0.4", "pareto:0.5:0.7",
                             "normal:10:0.3",
                             "random", "zoned:50/10:30/30:20/60",
                             "zoned_abs:60/128k:40/512k"]),
    ("bs_is_seq_rand", ["1"]),
    ("bs_unaligned", [None]),
    ("allrandrepeat", ["1"]),
    ("norandommap", [None]),
    ("randseed", ["11"]),
    ("overwrite", ["1"]),
    ("blockalign", ["8k"]),
    ("rw_sequencer", ["identical", "sequential"]),
    # zone ranges that are not a multiple of 64 blocks: at such a range's
    # last block fio's random map writes past its memory (docs/models/fio.md)
    ("zonemode", ["strided zonesize=64k zonerange=192k",
                  "strided zonesize=128k zoneskip=64k"]),
    ("random_generator", ["lfsr", "tausworthe64"]),
    ("offset_align", ["8k"]),
    ("verify", ["crc32c"]),
    ("fsync_on_close", ["1"]),
    ("openfiles", ["1", "2"]),
    ("file_append", ["1"]),
    ("pre_read", ["1"]),
    ("unified_rw_reporting", ["1"]),
    ("direct", ["1"]), ("sync", ["1"]),
    ("fallocate", ["none", "posix", "keep"]),
    ("unlink", ["1"]),
    # the queue's batches; a synchronous engine draws none of them
    ("iodepth_batch_submit", ["2"]), ("iodepth_batch_complete_min", ["2"]),
    ("iodepth_low", ["2"]),
]
QUEUE_ONLY = ("iodepth_batch_submit", "iodepth_batch_complete_min",
              "iodepth_low")
RW = ["read", "write", "randread", "randwrite", "rw", "randrw", "read:8k",
      "write:-8k", "randwrite:2"]


# which file a zipf, pareto or normal file service serves next depends on
# which I/Os have been reaped (a file closed with I/Os in flight is passed
# over until they are), and so does when openfiles= lets the next file
# open (a done file closes with its last io_u): only libaio, whose
# buffered I/Os complete inside io_submit, reaps in an order that does not
# depend on timing; io_uring's reads from the device complete as they will
NONUNIFORM = ("zipf", "pareto", "normal", "gauss")


def job_lines(rng):
    engine, *more = rng.choice(ENGINES).split()
    lines = ["ioengine=" + engine] + more + ["rw=" + rng.choice(RW)]
    optional = [o for o in OPTIONAL
                if (not more or o[0] not in PERIODIC_SYNCS) and
                (more or o[0] not in QUEUE_ONLY)]
    for name, values in rng.sample(optional, rng.randint(1, 4)):
        if name == "file_service_type" and engine == "io_uring":
            values = [v for v in values if not v.startswith(NONUNIFORM)]
        if name == "openfiles" and engine == "io_uring":
            continue
        value = rng.choice(values)
        if value is None:
            lines.append(name)
            continue
        # a value may bring options of its own: "strided zonesize=64k"
        value, *more = value.split()
        lines += ["%s=%s" % (name, value)] + more
    if not any(l.startswith(("size=", "filesize=")) for l in lines):
        lines.append("size=1m")
    return lines


def logged(path, sync_offsets):
    """file, direction, offset, length of each I/O and sync of an iolog;
    a sync's offset is its io_u's last, which with several I/Os in flight
    depends on the order they completed in: left out without
    sync_offsets"""
    out = []
    with open(path) as f:
        for line in f:
            w = line.split()
            if len(w) >= 5 and w[2] in ("read", "write", "trim", "sync",
                                        "datasync"):
                if not sync_offsets and w[2] in ("sync", "datasync"):
                    w[3] = "-"
                out.append(" ".join([os.path.basename(w[1])] + w[2:5]))
    return out


# the figures of a job's report that do not depend on timing; the depth,
# submit and complete distributions do, with several I/Os in flight
COUNTS = ("io_bytes", "io_kbytes", "total_ios", "short_ios", "drop_ios")
DEPTHS = ("iodepth_level", "iodepth_submit", "iodepth_complete")


def counts(path, depths):
    """the counts of the first job of a JSON report, by flattened key"""
    out = {}
    keys = COUNTS + (DEPTHS if depths else ())

    def walk(d, prefix):
        for k, v in d.items():
            if isinstance(v, dict):
                walk(v, prefix + k + ".")
            elif any(prefix.startswith(c + ".") or k == c for c in keys):
                out[prefix + k] = v
    with open(path) as f:
        text = f.read()
    # fio may put its notes before the document
    walk(json.loads(text[text.index("{"):])["jobs"][0], "")
    return out


def counts_differ(fio_json, sim_json, depths):
    """None when the reports' counts agree, else the first that differs"""
    a, b = counts(fio_json, depths), counts(sim_json, depths)
    for k in sorted(set(a) | set(b)):
        if a.get(k) != b.get(k):
            return "DIFF counts: %s fio %s, storsim %s" % (k, a.get(k),
                                                             b.get(k))
    return None


FIO_TIMEOUT = 120  # seconds


def descendants(pid):
    """the processes pid forked, and theirs, from /proc"""
    children = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % d) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def run_fio(argv, work):
    """fio's completed process, or None when it ran past FIO_TIMEOUT; then the
    job processes it forked, in sessions of their own, are killed with
    it, as a timeout alone would leave them spinning"""
    p = subprocess.Popen(argv, cwd=work, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=FIO_TIMEOUT)
    except subprocess.TimeoutExpired:
        for pid in [p.pid] + descendants(p.pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        p.communicate()
        return None
    return subprocess.CompletedProcess(argv, p.returncode, out, err)


def run_job(fio, storsim, lines, work, time_based):
    """None when the logs agree (with time_based, as far as both go), else
    a line saying how they differ"""
    files = os.path.join(work, "files")
    shutil.rmtree(files, ignore_errors=True)
    os.mkdir(files)
    logs = {}
    for tool in ("fio", "sim"):
        log = os.path.join(work, tool + ".log")
        if os.path.exists(log):
            os.unlink(log)  # fio appends to an existing log
        with open(os.path.join(work, tool + ".fio"), "w") as f:
            f.write("\n".join(["[j]", "directory=files"] + lines +
                              ["write_iolog=" + log]) + "\n")
        logs[tool] = log
    f = run_fio([fio, "--output-format=json", "--output=fio.json",
                 "fio.fio"], work)
    if f is None:
        # fio spins for ever on some jobs (libaio, rw=read:8k, a
        # non-uniform file service); what storsim does there is not judged
        return "FIO-HANG fio ran for more than 120 s"
    s = subprocess.run([storsim, "run", "--no-cpu-profile",
                        "--output-format=json", "--output=sim.json",
                        "--mount=/files=xfs:nvme0n1", "sim.fio"], cwd=work,
                       capture_output=True, text=True, timeout=120)
    fio_ok = f.returncode == 0 and os.path.exists(logs["fio"])
    if not fio_ok and s.returncode == 0:
        return "FIO-ONLY fio failed: " + (f.stderr or f.stdout).strip()[-200:]
    if not fio_ok:
        return None
    if s.returncode != 0:
        return "REFUSED " + s.stderr.strip()[:200]
    synchronous = not any(l.startswith("iodepth=") for l in lines)
    a = logged(logs["fio"], synchronous)
    b = logged(logs["sim"], synchronous)
    if time_based:
        # the syncs of end_fsync or fsync_on_close after the runtime are
        # where that tool's log ends, not where the other's does
        for log in (a, b):
            while log and log[-1].split()[1] in ("sync", "datasync"):
                log.pop()
        n = min(len(a), len(b))
        a, b = a[:n], b[:n]
        if a == b:
            return None
    elif a == b:
        return counts_differ(os.path.join(work, "fio.json"),
                             os.path.join(work, "sim.json"), synchronous)
    k = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]),
             min(len(a), len(b)))
    return "DIFF fio %d, storsim %d lines; line %d: fio '%s', storsim '%s'" % (
        len(a), len(b), k + 1, a[k] if k < len(a) else "-",
        b[k] if k < len(b) else "-")


# --replay: a random iolog v2 trace over 1-3 files, replayed by a job
# with a synchronous engine and perhaps replay_no_stall; the counts of
# both reports are compared (write_iolog is off under read_iolog).
REPLAY_FILE_SIZE = 1 << 20


def replay_job(rng, work):
    """write a random trace into work; the job's lines"""
    names = ["files/%s" % c for c in "abc"[:rng.randint(1, 3)]]
    out = ["fio version 2 iolog"] + ["%s add" % n for n in names] + \
          ["%s open" % n for n in names]
    for _ in range(rng.randint(1, 300)):
        name = rng.choice(names)
        op = rng.choice(["read", "write", "write", "sync", "datasync",
                         "wait"])
        if op in ("sync", "datasync"):
            out.append("%s %s 0 0" % (name, op))
        elif op == "wait":
            out.append("%s wait %d 0" % (name, rng.choice([10, 500, 2000])))
        else:
            size = rng.choice([512, 4096, 8192, 16384, 65536])
            out.append("%s %s %d %d" % (
                name, op,
                rng.randrange(0, REPLAY_FILE_SIZE - size + 1, 512), size))
    out += ["%s close" % n for n in names]
    with open(os.path.join(work, "trace.log"), "w") as f:
        f.write("\n".join(out) + "\n")
    # synchronous engines only: what an async engine has in flight when
    # the trace ends is left out of fio's figures, and how much that is
    # depends on the device's timing
    lines = ["ioengine=" + rng.choice([e for e in ENGINES if " " not in e]),
             "read_iolog=trace.log"]
    if rng.random() < 0.3:
        lines.append("replay_no_stall=1")
    return lines, names


def run_replay(fio, storsim, lines, names, work):
    """None when the reports' counts agree, else how they differ"""
    files = os.path.join(work, "files")
    shutil.rmtree(files, ignore_errors=True)
    os.mkdir(files)
    for n in names:
        with open(os.path.join(work, n), "wb") as f:
            f.write(b"\0" * REPLAY_FILE_SIZE)
    with open(os.path.join(work, "job.fio"), "w") as f:
        f.write("\n".join(["[j]"] + lines) + "\n")
    f = subprocess.run([fio, "--output-format=json", "--output=fio.json",
                        "job.fio"], cwd=work, capture_output=True,
                       text=True, timeout=120)
    given = ["--file=/%s=%d:written" % (n, REPLAY_FILE_SIZE) for n in names]
    s = subprocess.run([storsim, "run", "--no-cpu-profile",
                        "--output-format=json", "--output=sim.json",
                        "--mount=/files=xfs:nvme0n1"] + given + ["job.fio"],
                       cwd=work, capture_output=True, text=True, timeout=120)
    if f.returncode != 0:
        return "FIO-ONLY fio failed: " + (f.stderr or f.stdout).strip()[-200:] \
            if s.returncode == 0 else None
    if s.returncode != 0:
        return "REFUSED " + s.stderr.strip()[:200]
    synchronous = not any(l.startswith("iodepth=") for l in lines)
    return counts_differ(os.path.join(work, "fio.json"),
                         os.path.join(work, "sim.json"), synchronous)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--storsim", default="./storsim")
    ap.add_argument("--fio", default="fio")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=200)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--replay", action="store_true",
                      help="replay random iolog traces instead")
    mode.add_argument("--time-based", action="store_true",
                      help="make every job time_based, runtime=200ms")
    a = ap.parse_args()
    version = subprocess.run([a.fio, "--version"], capture_output=True,
                             text=True).stdout.strip()
    if version != "fio-3.33":
        sys.exit("vs-fio: needs fio 3.33, found '%s'" % version)
    storsim = os.path.abspath(a.storsim)
    rng = random.Random(a.seed)
    differ = 0
    with tempfile.TemporaryDirectory(prefix="storsim-vs-fio-") as work:
        for i in range(1, a.runs + 1):
            if a.replay:
                lines, names = replay_job(rng, work)
                verdict = run_replay(a.fio, storsim, lines, names, work)
                if verdict:
                    lines.append("(trace: %s)" % ", ".join(
                        open(os.path.join(work, "trace.log")).read()
                        .splitlines()[-12:-len(names)]))
            else:
                lines = job_lines(rng)
                if a.time_based:
                    lines += ["time_based", "runtime=200ms"]
                verdict = run_job(a.fio, storsim, lines, work, a.time_based)
            if verdict:
                differ += verdict.startswith("DIFF")
                print("%s\n  job: %s" % (verdict, " ".join(lines)))
            if i % 50 == 0:
                print("vs-fio: %d of %d jobs, %d differ" % (i, a.runs, differ),
                      file=sys.stderr)
    print("vs-fio: %d jobs, %d differ" % (a.runs, differ))
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
