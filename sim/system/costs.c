/* The cost groups: every host and file-system CPU cost, by what runs it. */
#include <glib.h>
#include <string.h>

#include "costs.h"
#include "registry.h"

const struct cost_group cost_groups[] = {
	{"fio", "fio's own user-space code", "fio.*", false, true},
	{"syscall", "syscall entry and exit", "cpu.syscall_ns cpu.syscall_user_ns",
	 false, true},
	{"sched", "context switches, wake-ups and workqueue items",
	 "cpu.ctx_switch_ns cpu.ctx_switch_mm_ns cpu.wakeup_ns "
	 "cpu.wakeup_remote_ns workqueue.*", false, true},
	{"block", "the block layer, the raw device, the loop driver and its "
		  "tmpfs file", "blk_mq.* blkdev.* loop_cpu.* shmem.*", false, true},
	{"copy", "copies between buffers and page-cache pages",
	 "pagecache.copy_ns_per_kib", false, true},
	{"io_uring", "io_uring's submission and completion", "io_uring.*",
	 false, true},
	{"aio", "libaio's submission and completion", "aio.*", false, true},
	{"pagecache", "the page cache's lookups, insertions, writes and writeback",
	 "pagecache.lookup_ns pagecache.alloc_ns pagecache.insert_ns "
	 "pagecache.read_iter_ns pagecache.write_begin_ns pagecache.dirty_ns "
	 "pagecache.unlock_ns pagecache.read_end_ns pagecache.wb_folio_ns "
	 "pagecache.wb_block_ns pagecache.wb_end_ns pagecache.fsync_ns "
	 "pagecache.reclaim_ns", false, true},
	{"fs", "a file system's read and write paths",
	 "fs.write_iter_ns fs.read_iter_ns fs.iomap_begin_ns fs.dio_alloc_ns "
	 "fs.dio_end_io_ns fs.dio_complete_ns", true, true},
	{"irq", "interrupt and soft-interrupt entry",
	 "cpu.irq_entry_ns cpu.softirq_entry_ns", false, false},
	{"nvme", "the NVMe driver", "nvme_drv.*", false, false},
	{"null_blk", "null_blk", "null_blk_cpu.*", false, false},
	{"t_io_uring", "t/io_uring's user-space code", "t_io_uring.*", false, false},
	{"io_wq", "io-wq workers", "io_wq.*", false, false},
	{"mq_deadline", "the mq-deadline scheduler", "mq_deadline.*", false, false},
};
const unsigned cost_ngroups = G_N_ELEMENTS(cost_groups);

void cost_group_foreach(const struct cost_group *g,
			void (*fn)(const char *model, const char *param, void *d),
			void *d)
{
	g_auto(GStrv) toks = g_strsplit(g->params, " ", -1);

	for (char **t = toks; *t; t++) {
		g_auto(GStrv) mp = g_strsplit(*t, ".", 2);
		const struct model_info *m = model_find(mp[0]);
		g_assert(m && mp[1]);
		if (strcmp(mp[1], "*") != 0) {
			g_assert(params_find(m->params, mp[1]));
			fn(mp[0], mp[1], d);
			continue;
		}
		for (const struct param_def *row = m->params; row->name; row++)
			if (strcmp(row->unit, "ns") == 0 ||
			    strcmp(row->unit, "ns/KiB") == 0)
				fn(mp[0], row->name, d);
	}
}

struct is_cpu {
	const char *model, *param;
	bool found;
};

static void match(const char *model, const char *param, void *d)
{
	struct is_cpu *c = d;
	if (strcmp(model, c->model) == 0 && strcmp(param, c->param) == 0)
		c->found = true;
}

bool cost_param_is_cpu(const char *model, const char *param)
{
	struct is_cpu c = {model, param, false};

	for (unsigned j = 0; j < cost_ngroups && !c.found; j++)
		if (!cost_groups[j].fs)
			cost_group_foreach(&cost_groups[j], match, &c);
	return c.found;
}
