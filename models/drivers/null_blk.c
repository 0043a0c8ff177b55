/*
 * null_blk: requests complete without media.
 *
 * Stands for drivers/block/null_blk/main.c: null_queue_rq ->
 * null_handle_cmd -> nullb_complete_cmd. With irqmode=none the request
 * ends inside queue_rq. With irqmode=softirq it goes through
 * blk_mq_complete_request, which, with one hardware queue per CPU and the
 * completion on the submitting CPU, calls the completion handler directly
 * (blk_mq_complete_request_remote returns false), so it too ends in the
 * submitter's context; with a single shared hardware queue it raises
 * BLOCK_SOFTIRQ. With irqmode=timer an hrtimer ends the request
 * completion_nsec later in hard IRQ context on the submitting CPU.
 *
 * Parameters: module parameters (device profile "null_blk"):
 *   completion_nsec (ns), irqmode (none|softirq|timer), submit_queues
 *   (as the module's null_init: 0 means 1, more than the CPUs means one
 *   per CPU), hw_queue_depth, bs (bytes), size_mb (MiB), max_sectors
 *   (512-byte units);
 * CPU costs (host profile "null_blk_cpu"): queue_rq_ns, complete_ns.
 * Sources: null_blk module parameter defaults (Documentation/block/
 * null_blk.rst): completion_nsec 10000, irqmode 1, hw_queue_depth 64,
 * bs 512, gb 250, submit_queues 1.
 *
 * Left out: memory backing, zoned mode, bandwidth throttling, bad blocks.
 */
#include <glib.h>

#include "drivers/null_blk.h"

static const char *const irqmodes[] = {"none", "softirq", "timer", NULL};

#define P(field) offsetof(struct null_blk_params, field)
const struct param_def null_blk_param_table[] = {
	{"completion_nsec", PARAM_TIME, P(completion_nsec), "10000", 0, 1e10, "ns",
	 "timer mode: time from submission to completion"},
	{"irqmode", PARAM_ENUM, P(irqmode), "softirq", 0, 0, "",
	 "how requests complete", irqmodes},
	{"submit_queues", PARAM_U32, P(submit_queues), "1", 0, 4096, "count",
	 "hardware submission queues; 0 means 1, above the CPU count one per CPU"},
	{"hw_queue_depth", PARAM_U32, P(hw_queue_depth), "64", 1, 65536, "count",
	 "tags per hardware queue"},
	{"bs", PARAM_U32, P(bs), "512", 512, 65536, "bytes", "logical block size"},
	{"size_mb", PARAM_U64, P(size_mb), "256000", 1, 1e12, "MiB", "capacity"},
	{"max_sectors", PARAM_U32, P(max_sectors), "255", 8, 1 << 20, "sectors",
	 "largest request (512-byte sectors)"},
	PARAM_END,
};
#undef P

#define P(field) offsetof(struct null_blk_cpu_params, field)
const struct param_def null_blk_cpu_param_table[] = {
	{"queue_rq_ns", PARAM_TIME, P(queue_rq), "100", 0, 1e6, "ns",
	 "null_queue_rq + null_handle_cmd"},
	{"complete_ns", PARAM_TIME, P(complete), "50", 0, 1e6, "ns",
	 "null_complete_rq and the end of the command"},
	PARAM_END,
};
#undef P

struct null_blk {
	struct sim_component comp;
	struct host *h;
	struct null_blk_params p;
	struct null_blk_cpu_params cpu;
	struct blk_queue *q;
	char *name;
};

enum {
	NULL_ARM_TIMER,		/* queue_rq reached: start the hrtimer */
	NULL_TIMER_FIRES,
	NULL_RAISE_SOFTIRQ,
	NULL_COMPLETE,		/* in hard or soft IRQ context */
};

static stage_id st_queue_rq, st_complete;

static void complete_rq(struct null_blk *n, struct xctx *x, struct request *rq)
{
	if (blk_rq_traced(rq))
		blk_rq_stamp_cpu(rq, IOS_HANDLE, xctx_clock(x), cpu_id(xctx_cpu(x)));
	xctx_charge(x, st_complete, n->cpu.complete);
	blk_mq_complete_request(x, rq, BLK_STS_OK);
}

static void null_queue_rq(struct xctx *x, struct blk_hctx *hctx,
			  struct request *rq, bool last)
{
	struct null_blk *n = blk_hctx_driver_data(hctx);
	struct cpu *c = xctx_cpu(x);

	/* With one hardware queue per CPU, blk_mq_complete_request ends a
	 * softirq-mode request in the submitter, as irqmode=none does. */
	bool at_once = n->p.irqmode == NULL_IRQ_NONE ||
		       (n->p.irqmode == NULL_IRQ_SOFTIRQ &&
			blk_queue_config(n->q)->nr_hw_queues > 1);

	xctx_charge(x, st_queue_rq, n->cpu.queue_rq);
	/* No device: the command is "issued" and, unless it waits for the
	 * softirq or the timer, done as null_handle_cmd returns. */
	if (blk_rq_traced(rq)) {
		sim_time now = xctx_clock(x);
		blk_rq_stamp(rq, IOS_ISSUE, now);
		if (at_once)
			blk_rq_stamp(rq, IOS_DEVICE_DONE, now);
	}
	if (at_once)
		complete_rq(n, x, rq);
	else if (n->p.irqmode == NULL_IRQ_SOFTIRQ)
		xctx_defer(x, SIM_MSG(&n->comp, NULL_RAISE_SOFTIRQ, rq, cpu_id(c)));
	else	/* the hrtimer is armed when this work is reached */
		xctx_defer(x, SIM_MSG(&n->comp, NULL_ARM_TIMER, rq, cpu_id(c)));
}

static void null_handle(struct sim_component *comp, unsigned type, void *ptr,
			uint64_t arg)
{
	struct null_blk *n = (struct null_blk *)comp;
	struct request *rq = ptr;

	switch (type) {
	case NULL_ARM_TIMER:
		blk_rq_stamp(rq, IOS_ISSUE, sim_now(comp->sim));
		sim_after(comp->sim, n->p.completion_nsec, comp, NULL_TIMER_FIRES,
			  rq, arg);
		break;
	case NULL_TIMER_FIRES:
		blk_rq_stamp(rq, IOS_DEVICE_DONE, sim_now(comp->sim));
		cpu_raise_irq(host_cpu(n->h, (unsigned)arg),
			      SIM_MSG(comp, NULL_COMPLETE, rq, 0));
		break;
	case NULL_RAISE_SOFTIRQ:
		blk_rq_stamp(rq, IOS_DEVICE_DONE, sim_now(comp->sim));
		cpu_raise_softirq(host_cpu(n->h, (unsigned)arg),
				  SIM_MSG(comp, NULL_COMPLETE, rq, 0));
		break;
	case NULL_COMPLETE:
		complete_rq(n, host_current(n->h), rq);
		break;
	}
}

static const struct sim_component_ops null_ops = {
	.name = "null_blk",
	.handle = null_handle,
};

static const struct blk_driver_ops null_driver = {
	.name = "null_blk",
	.queue_rq = null_queue_rq,
};

struct null_blk *null_blk_new(struct host *h, const char *name,
			      const struct null_blk_params *p,
			      const struct null_blk_cpu_params *cpu,
			      const struct blk_mq_params *blk,
			      const struct kernel_features *k)
{
	struct null_blk *n = g_new0(struct null_blk, 1);
	/* null_init: submit_queues <= 0 becomes 1, above nr_cpu_ids nr_cpu_ids. */
	unsigned nq = CLAMP(p->submit_queues, 1u, host_ncpus(h));

	st_queue_rq = stage_register("null_queue_rq", CPU_SYS,
				     "null_queue_rq, null_handle_cmd");
	st_complete = stage_register("null_complete_rq", CPU_SYS,
				     "null_complete_rq");
	n->h = h;
	n->p = *p;
	n->cpu = *cpu;
	n->name = g_strdup(name);
	sim_component_init(host_sim(h), &n->comp, &null_ops, n->name);
	struct blk_queue_config cfg = {
		.name = name,
		.nr_hw_queues = nq,
		.queue_depth = p->hw_queue_depth,
		.logical_block_size = p->bs,
		.max_sectors = p->max_sectors,
		.max_segments = 128,
		.capacity = p->size_mb << 20,
		.nowait = true,
		.plug_max = k->blk_plug_32 ? 32 : 16,
	};
	n->q = blk_queue_new(h, blk, &cfg, &null_driver, n);
	for (unsigned i = 0; i < blk_queue_nr_hctx(n->q); i++)
		blk_hctx_set_driver_data(blk_queue_hctx(n->q, i), n);
	return n;
}

void null_blk_free(struct null_blk *n)
{
	if (!n)
		return;
	blk_queue_free(n->q);
	g_free(n->name);
	g_free(n);
}

struct blk_queue *null_blk_queue(struct null_blk *n)
{
	return n->q;
}
