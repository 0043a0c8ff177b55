
/*
 * fio, simulated: job threads, their I/O units and the run around them.
 *
 * Stands for fio 3.33's backend.c (thread_main, do_io: get an io_u, queue
 * it, commit when iodepth_batch is reached, wait for completions when the
 * queue is full, quiesce at the end), io_u.c (get_io_u: data direction by
 * rwmix, block size from bs/bsrange/bssplit, offset sequential or random
 * with or without a random map; io_completed: slat/clat/lat), filesetup.c
 * (file names, sizes, layout of files that do not exist yet) and init.c
 * (numjobs clones, stonewall groups). Each job thread is a simulated task
 * running fio's loop; its CPU time is what fio itself costs (host profile
 * model "fio") plus the kernel paths its engine calls.
 *
 * Times follow fio: start_time when the io_u is queued, issue_time when the
 * submission returns (slat between), completion when fio reaps it (clat
 * from issue, lat from start). Synchronous engines record no slat.
 *
 * Parameters (host profile, model "fio"), user CPU time (ns): io_u_prep,
 * io_u_complete, loop, sqe_prep, cqe_reap, aio_prep, event_reap; per KiB
 * (ns/KiB): verify_fill and one verify_ALGO per checksum.
 *
 * latency_target: fio's depth search (lat_target_*), the depth the loop
 * queues to changing per latency_window; max_latency fails the job.
 *
 * verify: each write is filled and summed; after each round do_verify
 * syncs the files, drops their cache and reads the round's writes back
 * (fio's io_hist: in write order with a random map, else sorted by offset
 * and each block once), summing each read as it completes.
 *
 * Rate limits (rate, rate_iops; rate_process linear or poisson) and
 * think times (thinktime, thinktime_spin, thinktime_blocks) pause the loop
 * as fio's rate_ddir and handle_thinktime do: reap everything in flight
 * (io_u_quiesce), spin, then nanosleep, which ends the host's timer slack
 * late. Rates count from the job's start.
 *
 * Left out (refused when set, see check_modelled): thinktime counted by
 * time (thinktime_iotime), non-uniform file_service_type, verify's meta
 * and pattern checks and its backlog and async modes. The random map is
 * fio's rule (a drawn block, or the next free one after it:
 * fio_randmap.c), and the random numbers that choose files, directions,
 * offsets and sizes are fio's own (fio_taus.c, fio_rand.c). Laying out a
 * new file takes no simulated time.
 */

#include "fio_core.h"

#define P(field) offsetof(struct fio_params, field)
const struct param_def fio_param_table[] = {
	{"io_u_prep_ns", PARAM_TIME, P(io_u_prep), "100", 0, 1e6, "ns",
	 "get_io_u: direction, block size, offset, timestamps"},
	{"io_u_complete_ns", PARAM_TIME, P(io_u_complete), "100", 0, 1e6, "ns",
	 "io_completed: latencies, statistics, put the io_u"},
	{"loop_ns", PARAM_TIME, P(loop), "20", 0, 1e6, "ns",
	 "one pass of do_io's loop"},
	{"sqe_prep_ns", PARAM_TIME, P(sqe_prep), "20", 0, 1e6, "ns",
	 "io_uring engine: fill one SQE"},
	{"cqe_reap_ns", PARAM_TIME, P(cqe_reap), "15", 0, 1e6, "ns",
	 "io_uring engine: read one CQE"},
	{"aio_prep_ns", PARAM_TIME, P(aio_prep), "20", 0, 1e6, "ns",
	 "libaio engine: prepare one iocb"},
	{"event_reap_ns", PARAM_TIME, P(event_reap), "15", 0, 1e6, "ns",
	 "libaio engine: read one io_event"},
	/* fio 3.33 on the development machine (docs/benchmarks.md): the
	 * checksums from fio --crctest's MiB/s; the fill from its null engine
	 * writing 4 GiB in 1 MiB blocks with verify=crc32c and md5,
	 * do_verify=0, less the checksum (207 and 217 ns/KiB). */
	{"verify_fill_ns_per_kib", PARAM_DOUBLE, P(verify_fill), "210", 0, 1e6,
	 "ns/KiB", "verify: fill a write's buffer with random data and its "
	 "verify header"},
#define SUM(name, field, def) \
	{"verify_" name "_ns_per_kib", PARAM_DOUBLE, \
	 P(verify_sum[FIO_VERIFY_##field]), def, 0, 1e7, "ns/KiB", \
	 "verify=" name ": checksum a block, as each write is filled and " \
	 "each verify read is checked"}
	SUM("md5", MD5, "1464"),
	SUM("crc64", CRC64, "2243"),
	SUM("crc32", CRC32, "2525"),
	SUM("crc32c", CRC32C, "105"),
	SUM("crc16", CRC16, "2272"),
	SUM("crc7", CRC7, "1965"),
	SUM("sha1", SHA1, "1314"),
	SUM("sha256", SHA256, "2943"),
	SUM("sha512", SHA512, "1880"),
	SUM("sha3_224", SHA3_224, "12870"),
	SUM("sha3_256", SHA3_256, "13533"),
	SUM("sha3_384", SHA3_384, "17863"),
	SUM("sha3_512", SHA3_512, "26437"),
	SUM("xxhash", XXHASH, "318"),
#undef SUM
	PARAM_END,
};

stage_id st_prep, st_complete, st_loop, st_think_spin, st_usec_spin,
	st_verify;

struct xctx *fio_xctx(struct fio_thread *td)
{
	return task_xctx(td->task);
}

const struct workload_env *fio_env(const struct fio_thread *td)
{
	return &td->run->env;
}

const struct fio_params *fio_costs(const struct fio_thread *td)
{
	return td->run->env.costs;
}

uint32_t fio_open_flags(const struct fio_thread *td)
{
	uint32_t f = td->o->direct ? KI_DIRECT : 0;

	if (td->o->sync == FIO_SYNC_DSYNC)
		f |= KI_DSYNC;
	else if (td->o->sync == FIO_SYNC_SYNC)
		f |= KI_DSYNC | KI_SYNC;
	return f;
}

