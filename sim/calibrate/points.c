/*
 * The calibration suite and the validation grid: two disjoint sets of fio
 * jobs on loop devices backed by tmpfs files (raw, with --direct-io=on,
 * under XFS, under ext4) and on fio's null engine, which any Linux
 * machine can run as root.
 *
 * The suite is chosen for what each run exercises, so that the fit can
 * tell the cost groups apart (docs/calibrate.md): the null engine is
 * fio's own user time; synchronous reads and writes of one size at depth
 * 1 are a syscall, the block layer, a wake-up of the loop worker and one
 * copy each; a larger block size moves the copy and nothing else; io_uring
 * and libaio at depth 8 add their own submission and completion paths and
 * batch the worker; buffered reads of the raw device are page-cache
 * misses (a folio allocated and inserted, a read through the worker),
 * of a file on XFS or ext4 cached hits; XFS and ext4 add their direct I/O
 * and buffered paths; two jobs share the worker. The grid varies the same dimensions to other values
 * (depths 1 to 32, 4 KiB to 128 KiB, read, write and mixed, one and two
 * jobs) and never repeats a point of the suite.
 */
#include <string.h>

#include "points.h"

#define KIB 1024u

const struct cal_point cal_suite[] = {
	{CAL_NULL, "null", "randread", 4 * KIB, 1, 1, false},
	{CAL_NULL, "null", "randread", 4 * KIB, 16, 1, false},
	{CAL_RAW, "psync", "randread", 4 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randread", 64 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randwrite", 4 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randwrite", 64 * KIB, 1, 1, true},
	{CAL_RAW, "io_uring", "randread", 4 * KIB, 8, 1, true},
	{CAL_RAW, "io_uring", "randwrite", 64 * KIB, 4, 1, true},
	{CAL_RAW, "libaio", "randread", 4 * KIB, 8, 1, true},
	{CAL_RAW, "libaio", "randwrite", 16 * KIB, 4, 1, true},
	{CAL_RAW, "psync", "randread", 4 * KIB, 1, 2, true},
	{CAL_RAW, "psync", "randread", 4 * KIB, 1, 1, false},
	{CAL_RAW, "io_uring", "randread", 64 * KIB, 8, 1, false},
	{CAL_RAW_DIO, "psync", "randread", 4 * KIB, 1, 1, true},
	{CAL_RAW_DIO, "libaio", "randwrite", 4 * KIB, 8, 1, true},
	{CAL_XFS, "psync", "randread", 4 * KIB, 1, 1, true},
	{CAL_XFS, "libaio", "randwrite", 4 * KIB, 8, 1, true},
	{CAL_XFS, "psync", "randwrite", 4 * KIB, 1, 1, false},
	{CAL_XFS, "psync", "randread", 64 * KIB, 1, 1, false},
	{CAL_EXT4, "psync", "randread", 4 * KIB, 1, 1, true},
	{CAL_EXT4, "io_uring", "randwrite", 16 * KIB, 4, 1, true},
	{CAL_EXT4, "psync", "randwrite", 4 * KIB, 1, 1, false},
};
const unsigned cal_suite_len = G_N_ELEMENTS(cal_suite);

const struct cal_point cal_grid[] = {
	/* raw, direct: synchronous */
	{CAL_RAW, "psync", "randread", 16 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randread", 128 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randwrite", 16 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randwrite", 128 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randrw", 4 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randrw", 16 * KIB, 1, 1, true},
	{CAL_RAW, "psync", "randrw", 128 * KIB, 1, 1, true},
	/* raw, direct: libaio */
	{CAL_RAW, "libaio", "randread", 4 * KIB, 2, 1, true},
	{CAL_RAW, "libaio", "randread", 4 * KIB, 16, 1, true},
	{CAL_RAW, "libaio", "randread", 128 * KIB, 2, 1, true},
	{CAL_RAW, "libaio", "randread", 128 * KIB, 16, 1, true},
	{CAL_RAW, "libaio", "randwrite", 4 * KIB, 2, 1, true},
	{CAL_RAW, "libaio", "randwrite", 4 * KIB, 16, 1, true},
	{CAL_RAW, "libaio", "randwrite", 128 * KIB, 16, 1, true},
	{CAL_RAW, "libaio", "randrw", 4 * KIB, 32, 1, true},
	{CAL_RAW, "libaio", "randrw", 16 * KIB, 4, 1, true},
	/* raw, direct: io_uring */
	{CAL_RAW, "io_uring", "randread", 4 * KIB, 1, 1, true},
	{CAL_RAW, "io_uring", "randread", 4 * KIB, 32, 1, true},
	{CAL_RAW, "io_uring", "randread", 16 * KIB, 4, 1, true},
	{CAL_RAW, "io_uring", "randread", 128 * KIB, 16, 1, true},
	{CAL_RAW, "io_uring", "randwrite", 4 * KIB, 1, 1, true},
	{CAL_RAW, "io_uring", "randwrite", 4 * KIB, 32, 1, true},
	{CAL_RAW, "io_uring", "randwrite", 16 * KIB, 16, 1, true},
	{CAL_RAW, "io_uring", "randrw", 4 * KIB, 8, 1, true},
	{CAL_RAW, "io_uring", "randrw", 128 * KIB, 2, 1, true},
	/* raw with --direct-io=on */
	{CAL_RAW_DIO, "psync", "randwrite", 16 * KIB, 1, 1, true},
	{CAL_RAW_DIO, "io_uring", "randread", 4 * KIB, 16, 1, true},
	{CAL_RAW_DIO, "libaio", "randrw", 128 * KIB, 4, 1, true},
	/* raw, buffered reads: page-cache misses through the loop worker */
	{CAL_RAW, "psync", "randread", 16 * KIB, 1, 1, false},
	{CAL_RAW, "psync", "randread", 128 * KIB, 1, 1, false},
	{CAL_RAW, "io_uring", "randread", 4 * KIB, 16, 1, false},
	{CAL_RAW, "libaio", "randread", 4 * KIB, 4, 1, false},
	/* XFS, direct */
	{CAL_XFS, "psync", "randread", 16 * KIB, 1, 1, true},
	{CAL_XFS, "psync", "randwrite", 16 * KIB, 1, 1, true},
	{CAL_XFS, "psync", "randrw", 4 * KIB, 1, 1, true},
	{CAL_XFS, "libaio", "randread", 4 * KIB, 16, 1, true},
	{CAL_XFS, "libaio", "randrw", 16 * KIB, 8, 1, true},
	{CAL_XFS, "libaio", "randwrite", 128 * KIB, 2, 1, true},
	{CAL_XFS, "io_uring", "randread", 4 * KIB, 4, 1, true},
	{CAL_XFS, "io_uring", "randread", 128 * KIB, 32, 1, true},
	{CAL_XFS, "io_uring", "randwrite", 4 * KIB, 32, 1, true},
	{CAL_XFS, "io_uring", "randwrite", 16 * KIB, 4, 1, true},
	{CAL_XFS, "io_uring", "randrw", 4 * KIB, 16, 1, true},
	/* XFS, buffered */
	{CAL_XFS, "psync", "randread", 4 * KIB, 1, 1, false},
	{CAL_XFS, "psync", "randread", 128 * KIB, 1, 1, false},
	{CAL_XFS, "psync", "randwrite", 16 * KIB, 1, 1, false},
	{CAL_XFS, "psync", "randwrite", 128 * KIB, 1, 1, false},
	{CAL_XFS, "io_uring", "randwrite", 4 * KIB, 8, 1, false},
	{CAL_XFS, "io_uring", "randread", 16 * KIB, 16, 1, false},
	{CAL_XFS, "libaio", "randread", 4 * KIB, 8, 1, false},
	/* two jobs */
	{CAL_RAW, "psync", "randread", 16 * KIB, 1, 2, true},
	{CAL_RAW, "psync", "randwrite", 4 * KIB, 1, 2, true},
	{CAL_RAW, "psync", "randread", 128 * KIB, 1, 2, true},
	{CAL_RAW, "io_uring", "randread", 4 * KIB, 16, 2, true},
	{CAL_RAW, "io_uring", "randwrite", 16 * KIB, 4, 2, true},
	{CAL_RAW, "libaio", "randrw", 4 * KIB, 8, 2, true},
	{CAL_RAW, "libaio", "randread", 16 * KIB, 32, 2, true},
	{CAL_RAW, "psync", "randread", 4 * KIB, 1, 2, false},
	{CAL_XFS, "psync", "randread", 4 * KIB, 1, 2, true},
	{CAL_XFS, "io_uring", "randread", 16 * KIB, 8, 2, true},
	{CAL_XFS, "libaio", "randread", 4 * KIB, 16, 2, false},
	{CAL_RAW_DIO, "psync", "randread", 16 * KIB, 1, 2, true},
};
const unsigned cal_grid_len = G_N_ELEMENTS(cal_grid);

const char *cal_target_name(enum cal_target t)
{
	static const char *const names[CAL_TARGET_NR] = {
		[CAL_NULL] = "null", [CAL_RAW] = "raw", [CAL_RAW_DIO] = "rawdio",
		[CAL_XFS] = "xfs", [CAL_EXT4] = "ext4",
	};
	return names[t];
}

char *cal_point_name(const struct cal_point *p)
{
	return g_strdup_printf("%s/%s/%s/%uk/qd%u/j%u/%s", cal_target_name(p->target),
			       p->engine, p->rw, p->bs / KIB, p->iodepth,
			       p->numjobs, p->direct ? "direct" : "buffered");
}

bool cal_point_equal(const struct cal_point *a, const struct cal_point *b)
{
	return a->target == b->target && strcmp(a->engine, b->engine) == 0 &&
	       strcmp(a->rw, b->rw) == 0 && a->bs == b->bs &&
	       a->iodepth == b->iodepth && a->numjobs == b->numjobs &&
	       a->direct == b->direct;
}

int cal_grid_overlap(void)
{
	for (unsigned i = 0; i < cal_grid_len; i++)
		for (unsigned j = 0; j < cal_suite_len; j++)
			if (cal_point_equal(&cal_grid[i], &cal_suite[j]))
				return (int)i;
	return -1;
}

bool cal_point_reads(const struct cal_point *p)
{
	return strstr(p->rw, "read") || strcmp(p->rw, "randrw") == 0;
}

char *cal_point_jobfile(const struct cal_point *p, const struct cal_places *pl)
{
	GString *s = g_string_new("[global]\n");

	g_string_append_printf(s, "ioengine=%s\nrw=%s\nbs=%u\niodepth=%u\n"
			       "numjobs=%u\ndirect=%d\n",
			       p->engine, p->rw, p->bs, p->iodepth, p->numjobs,
			       p->direct ? 1 : 0);
	g_string_append(s, "time_based=1\nruntime=${CAL_RUNTIME}\n"
			   "unified_rw_reporting=mixed\ngroup_reporting=1\n");
	switch (p->target) {
	case CAL_NULL:
		g_string_append_printf(s, "size=%um\n", pl->region_mb);
		break;
	case CAL_RAW:
	case CAL_RAW_DIO:
		g_string_append_printf(s, "filename=/dev/%s\nsize=%um\n",
				       pl->raw_dev, pl->region_mb);
		break;
	case CAL_XFS:
	case CAL_EXT4:
		g_string_append_printf(s, "filename=%s\nsize=%um\n",
				       p->target == CAL_XFS ? pl->xfs_file :
							      pl->ext4_file,
				       pl->region_mb);
		break;
	case CAL_TARGET_NR:
		g_assert_not_reached();
	}
	/* Buffered reads of a file measure a cached file: fio reads it in
	 * first. Not on a raw device: fio's pre_read_file opens and closes
	 * it, and Linux 6.18 drops a block device's page cache at its last
	 * close, so whether anything stays depends on who else holds the
	 * device open then (here: 1 run in 4 kept it). Buffered reads of the
	 * raw device are page-cache misses instead (invalidate=1 drops the
	 * cache each time round the region). */
	if (!p->direct && (p->target == CAL_XFS || p->target == CAL_EXT4) &&
	    cal_point_reads(p))
		g_string_append(s, "pre_read=1\n");
	g_string_append(s, "\n[cal]\n");
	return g_string_free(s, FALSE);
}
