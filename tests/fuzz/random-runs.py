#!/usr/bin/env python3
"""Run storsim on random fio command lines and report every run that breaks.

The job-file fuzzer (make fuzz-long) covers parsing; this covers the
simulation behind it: engines, depths, block sizes, buffered and direct
I/O, syncs, SQPOLL, hipri, several jobs, hosts, devices, file systems,
kernel switches, I/O schedulers and power loss, drawn at random. A run is broken when it
  - dies of a signal (an assertion, a crash) or outlives its time limit;
  - exits with a status other than 0 or 1;
  - exits with 1 without naming what it refused, or because a job did not
    finish (the simulation stalled) or failed with an error fio would not
    see (EAGAIN);
  - prints something other than it printed the first time, for the runs
    that are repeated (every --repeat-every'th): runs are deterministic;
  - draws a report from AddressSanitizer, LeakSanitizer or UBSan, when
    --storsim names a binary built with ./configure --enable-sanitizers.
Usage: random-runs.py [--storsim PATH] [--seed N] [--runs N] [--timeout S]
Each broken run is printed with its command line; the exit status is 1
when there was one. Use: make fuzz-runs [FUZZ_RUNS=N] [FUZZ_SEED=N].
"""
import argparse
import collections
import os
import random
import subprocess
import sys
import tempfile
import zlib

HOSTS = ["default", "axboe-2020", "power9-64k", "axboe-5950x-2023",
         "begunkov-2021", "qemu-tcg-2vcpu"]
NVME = ["optane-p5800x", "nand-nvme", "qemu-nvme", "qemu-nvme-tcg"]
ENGINES = ["null", "psync", "sync", "pvsync", "pvsync2", "libaio",
           "io_uring", "io_uring", "io_uring"]
RW = ["read", "write", "randread", "randwrite", "rw", "randrw", "readwrite",
      "trim", "randtrim", "trimwrite", "randtrimwrite"]
BS = ["512", "4k", "4k", "8k", "64k", "128k", "1m", "3k", "4k,8k"]
URING_ONLY = {"hipri", "fixedbufs", "registerfiles", "sqthread_poll"}
# option -> values (None: a bare flag), each drawn with probability 0.08
OPTIONAL = [
    ("fsync", ["1", "4"]), ("fdatasync", ["1", "8"]), ("end_fsync", ["1"]),
    ("hipri", ["1"]), ("fixedbufs", ["1"]), ("registerfiles", ["1"]),
    ("sqthread_poll", ["1"]), ("iodepth_batch_submit", ["4", "16"]),
    ("iodepth_batch_complete_min", ["1", "8"]),
    ("iodepth_batch_complete_max", ["8"]), ("iodepth_low", ["2"]),
    ("numjobs", ["2", "4"]), ("cpus_allowed", ["0", "1-3", "4"]),
    ("norandommap", ["1"]), ("overwrite", ["1"]), ("pre_read", ["1"]),
    ("invalidate", ["1", "0"]), ("sync", ["1", "dsync"]),
    ("offset", ["1m", "64k", "10%"]), ("ramp_time", ["1ms"]),
    ("rwmixread", ["30"]), ("unified_rw_reporting", ["mixed"]),
    ("exitall", [None]), ("exit_what", ["stonewall", "all"]),
    ("exitall_on_error", [None]), ("fadvise_hint", ["0", "random", "sequential"]),
    ("verify", ["crc32c", "md5", "null"]), ("do_verify", ["0"]),
    ("max_latency", ["100ms", "50us"]), ("latency_target", ["20us", "1ms"]),
    ("latency_window", ["10ms"]), ("latency_percentile", ["99"]),
    ("random_distribution", ["zipf:1.2", "pareto:0.3", "normal:0:0.2",
                             "zoned:50/10:50/90"]),
    ("thinktime_blocks_type", ["issue"]),
    ("fsync_on_close", ["1"]), ("stonewall", [None]),
    ("group_reporting", [None]), ("bssplit", ["4k/50:64k/50", "4k/10:8k/60:16k/30,8k"]),
    ("bsrange", ["4k-16k", "512-64k"]), ("percentage_random", ["50", "20,80"]),
    ("nrfiles", ["3"]), ("file_service_type", ["random", "random:2", "sequential"]),
    ("filesize", ["256k-2m", "1m"]),
    ("randrepeat", ["0"]), ("randseed", ["7"]), ("allrandrepeat", ["1"]),
    ("random_generator", ["tausworthe64", "lfsr"]),
    ("io_size", ["2m", "50%"]), ("size", ["30%"]), ("loops", ["2"]), ("write_lat_log", ["lat"]),
    ("percentile_list", ["50:99"]), ("thinktime", ["10us", "1ms"]),
    ("thinktime_spin", ["5us"]), ("thinktime_blocks", ["4"]),
    ("rate_iops", ["1000", "200,100"]), ("rate", ["1m"]),
    ("rate_process", ["poisson"]), ("startdelay", ["1ms-5ms"]),
    ("number_ios", ["100"]),
]
KERNEL = ["dio_caller_comp", "bio_nocopy_bvec", "iomap_per_block_dirty",
          "async_buffered_reads", "io_uring_defer_taskrun",
          "io_wq_wake_free_worker", "nvme_complete_batch",
          "io_uring_lazy_wake"]
# exit status 1 for these is a bug, not a refusal
BROKEN_EXIT_1 = ("did not finish", "Resource temporarily unavailable")
# a sanitizer build (./configure --enable-sanitizers) reports with these
SANITIZER_MARKS = ("AddressSanitizer", "LeakSanitizer", "runtime error:")


def iolog(r, path, target):
    """A small random fio iolog v3 on target: reads, writes, trims and
    syncs of 512 B to 64 KiB in its first 4 MiB, a few µs apart."""
    lines = ["fio version 3 iolog", "0 %s add" % target, "1 %s open" % target]
    t = 1
    for _ in range(r.choice([1, 10, 60])):
        t += r.choice([0, 1, 5, 50, 1000])
        op = r.choice(["read", "read", "write", "write", "trim", "sync"])
        if op == "sync":
            lines.append("%d %s sync 0 0" % (t, target))
            continue
        size = r.choice([512, 4096, 4096, 8192, 65536])
        lines.append("%d %s %s %d %d" % (t, target, op,
                                          r.randrange(0, 4 << 20, size), size))
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def command(storsim, r, cwd="."):
    """One random storsim run: system options, then one to three jobs."""
    args = [storsim, "run", "--no-cpu-profile", "--host=" + r.choice(HOSTS)]
    if r.random() < 0.2:
        args += ["--device=nullb0=null_blk"]
        if r.random() < 0.5:
            args.append("--set=nullb0.irqmode=" +
                        r.choice(["none", "softirq", "timer"]))
        target = "/dev/nullb0"
    else:
        args.append("--device=nvme0n1=" + r.choice(NVME))
        fs = r.choice(["xfs", "ext4", None])
        if fs:
            args += ["--mount=/d=%s:nvme0n1" % fs,
                     "--file=/d/f=%s:%s" % (
                         r.choice(["4m", "64m", "1g"]),
                         r.choice(["written", "unwritten", "sparse"]))]
            target = "/d/f"
        else:
            target = "/dev/nvme0n1"
        if r.random() < 0.1:
            args.append("--power-loss=" +
                        r.choice(["at:1ms", "after:100", "at:50us"]))
    for k in KERNEL:
        if r.random() < 0.2:
            args.append("--kernel=%s=%s" % (k, r.choice(["true", "false"])))
    if r.random() < 0.3:
        args.append("--output-format=" +
                    r.choice(["json", "json+", "normal,json", "terse",
                              "normal,terse,json"]))
    for j in range(r.choice([1, 1, 1, 2, 3])):
        engine = r.choice(ENGINES)
        args += ["--name=j%d" % j, "--filename=" + target,
                 "--ioengine=" + engine, "--rw=" + r.choice(RW),
                 "--bs=" + r.choice(BS),
                 "--iodepth=%d" % r.choice([1, 2, 4, 16, 32, 128, 1024]),
                 "--direct=%d" % r.choice([0, 1, 1])]
        if r.random() < 0.1:
            path = os.path.join(cwd, "j%d.iolog" % j)
            iolog(r, path, target)
            args.append("--read_iolog=" + path)
            if r.random() < 0.5:
                args.append("--replay_no_stall=1")
        if r.random() < 0.5:
            args.append("--size=" + r.choice(["1m", "2m", "4m", "16m"]))
        if r.random() < 0.5:
            args += ["--time_based=1", "--runtime=" +
                     r.choice(["2ms", "10ms", "50ms", "100ms"])]
        else:
            args.append("--number_ios=%d" % r.choice([1, 10, 100, 1000]))
        for opt, values in OPTIONAL:
            if opt in URING_ONLY and engine != "io_uring":
                continue
            if r.random() < 0.08:
                v = r.choice(values)
                args.append("--" + opt if v is None else "--%s=%s" % (opt, v))
        if r.random() < 0.08:
            args += ["--zonemode=strided", "--zonesize=" + r.choice(["4k", "64k"])]
            args += ["--zone%s=%s" % (o, r.choice(["32k", "1m"]))
                     for o in ("range", "skip") if r.random() < 0.5]
    # The scheduler comes from the command line drawn so far (less the
    # iolog paths, which name a temporary folder), not from r, so that a
    # seed still draws the command lines it drew before.
    drawn = [a for a in args[1:] if not a.startswith("--read_iolog=")]
    if zlib.crc32(" ".join(drawn).encode()) % 3 == 0:
        args.insert(2, "--set=blk_mq.scheduler=mq-deadline")
    return args


def run(args, cwd, timeout):
    try:
        p = subprocess.run(args, capture_output=True, timeout=timeout,
                           cwd=cwd)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return "timeout", b"", ""


def broken(rc, err):
    for mark in SANITIZER_MARKS:
        if mark in err:
            return mark
    if rc not in (0, 1):
        return "exit %s" % rc
    if rc == 1 and "option" not in err and "job" not in err and \
            "command line" not in err:
        return "exit 1 without a message naming what failed"
    for text in BROKEN_EXIT_1:
        if rc == 1 and text in err:
            return text
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--storsim", default="./storsim")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--repeat-every", type=int, default=10)
    o = ap.parse_args()
    storsim = os.path.abspath(o.storsim)
    statuses = collections.Counter()
    bad = 0
    with tempfile.TemporaryDirectory() as cwd:
        for i in range(o.runs):
            r = random.Random(o.seed * 1000003 + i)
            args = command(storsim, r, cwd)
            rc, out, err = run(args, cwd, o.timeout)
            statuses[rc] += 1
            why = broken(rc, err)
            if not why and o.repeat_every and i % o.repeat_every == 0 and \
                    rc == 0:
                rc2, out2, _ = run(args, cwd, o.timeout)
                if (rc2, out2) != (rc, out):
                    why = "a second run printed something else"
            if why:
                bad += 1
                print("BROKEN (%s), run %d of seed %d:\n  %s\n  %s" % (
                    why, i, o.seed, " ".join("'%s'" % a for a in args),
                    err.strip()[-800:].replace("\n", "\n  ")), flush=True)
                for a in args:
                    if a.startswith("--read_iolog="):
                        with open(a.split("=", 1)[1]) as f:
                            print("  %s:\n    %s" % (a, f.read().strip()
                                  .replace("\n", "\n    ")), flush=True)
            if (i + 1) % 50 == 0:
                print("random-runs: %d of %d runs, %d broken" %
                      (i + 1, o.runs, bad), file=sys.stderr, flush=True)
    print("random-runs: %d runs (exit status: %s), %d broken" % (
        o.runs, ", ".join("%s x%d" % (k, v) for k, v in
                          sorted(statuses.items(), key=str)), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
