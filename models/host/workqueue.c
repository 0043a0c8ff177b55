/*
 * Workqueues: work items run by kworker threads.
 *
 * Stands for kernel/workqueue.c: queue_work -> __queue_work inserts the
 * item in a worker pool's list and wakes an idle worker if none is
 * running; worker_thread -> process_one_work runs the items in order. A
 * bound (per-CPU) workqueue uses the pool of the CPU that queues the work,
 * and its kworker may run only there, so work queued from an interrupt
 * runs on the interrupted CPU, competing with whatever runs there. An
 * unbound workqueue has one pool whose worker runs anywhere.
 *
 * Each pool has one kworker: concurrency management starts a second only
 * when the running one blocks, and no work modelled here blocks.
 * kworkers are kernel threads: switching to one keeps the previous
 * address space (lazy TLB), which makes the switch cheaper.
 *
 * A work function that loops over a list of its own (loop_process_work)
 * asks with work_again() to be delivered once more as the worker's next
 * step, without a second process_one_work: it takes one entry per step,
 * so entries that arrive while it runs are seen in the same run.
 *
 * Parameters (host profile, model "workqueue"), CPU time (ns):
 *   queue_work_ns    queue_work from the caller
 *   process_work_ns  the worker loop around each item
 */
#include <glib.h>

#include "host/workqueue.h"

#define P(field) offsetof(struct workqueue_params, field)
const struct param_def workqueue_param_table[] = {
	{"queue_work_ns", PARAM_TIME, P(queue_work), "50", 0, 1e6, "ns",
	 "queue_work: insert the item and check for an idle worker"},
	{"process_work_ns", PARAM_TIME, P(process_work), "50", 0, 1e6, "ns",
	 "worker_thread and process_one_work around one item"},
	PARAM_END,
};

struct pool {
	struct sim_component comp;
	struct workqueue *wq;
	char name[40];
	struct task *worker;
	struct work *head, *tail;
	struct work *again;	/* the item running asked to run once more */
	bool idle;		/* the worker is asleep, waiting for work */
};

struct workqueue {
	struct host *h;
	struct workqueue_params p;
	char *name;
	bool bound;
	unsigned npools;
	struct pool *pools;
};

enum { POOL_RUN };

static stage_id st_queue_work, st_process_work;

static void pool_handle(struct sim_component *c, unsigned type, void *ptr,
			uint64_t arg)
{
	struct pool *pl = (struct pool *)c;
	struct xctx *x = task_xctx(pl->worker);
	struct work *w = pl->again;

	if (w) {
		pl->again = NULL;
		sim_msg_deliver(&w->fn);
		task_then(pl->worker, SIM_MSG(c, POOL_RUN, NULL, 0));
		return;
	}
	w = pl->head;
	if (!w) {
		pl->idle = true;
		task_sleep(pl->worker, SIM_MSG(c, POOL_RUN, NULL, 0));
		return;
	}
	pl->head = w->next;
	if (!pl->head)
		pl->tail = NULL;
	xctx_charge(x, st_process_work, pl->wq->p.process_work);
	sim_msg_deliver(&w->fn);
	task_then(pl->worker, SIM_MSG(c, POOL_RUN, NULL, 0));
}

static const struct sim_component_ops pool_ops = {
	.name = "kworker",
	.handle = pool_handle,
};

struct workqueue *workqueue_new(struct host *h, const struct workqueue_params *p,
				const char *name, bool bound)
{
	struct workqueue *wq = g_new0(struct workqueue, 1);

	st_queue_work = stage_register("queue_work", CPU_SYS, "queue_work");
	st_process_work = stage_register("process_one_work", CPU_SYS,
					 "worker_thread, process_one_work");
	wq->h = h;
	wq->p = *p;
	wq->name = g_strdup(name);
	wq->bound = bound;
	wq->npools = bound ? host_ncpus(h) : 1;
	wq->pools = g_new0(struct pool, wq->npools);
	for (unsigned i = 0; i < wq->npools; i++) {
		struct pool *pl = &wq->pools[i];
		struct cpumask one = {{0}};
		pl->wq = wq;
		if (bound) {
			g_snprintf(pl->name, sizeof(pl->name), "kworker/%u:%s", i, name);
			cpumask_set(&one, i);
		} else {
			g_snprintf(pl->name, sizeof(pl->name), "kworker/u:%s", name);
		}
		sim_component_init(host_sim(h), &pl->comp, &pool_ops, pl->name);
		pl->worker = task_new(h, pl->name, TASK_KTHREAD, 0,
				      bound ? &one : NULL);
		task_start(pl->worker, SIM_MSG(&pl->comp, POOL_RUN, NULL, 0));
	}
	return wq;
}

void workqueue_free(struct workqueue *wq)
{
	if (!wq)
		return;
	g_free(wq->pools);
	g_free(wq->name);
	g_free(wq);
}

void work_again(struct work *w)
{
	g_assert(!w->pool->again);
	w->pool->again = w;
}

void queue_work(struct xctx *x, struct workqueue *wq, struct work *w)
{
	struct pool *pl = &wq->pools[wq->bound ? cpu_id(xctx_cpu(x)) : 0];

	xctx_charge(x, st_queue_work, wq->p.queue_work);
	w->pool = pl;
	w->next = NULL;
	if (pl->tail)
		pl->tail->next = w;
	else
		pl->head = w;
	pl->tail = w;
	if (pl->idle) {
		pl->idle = false;
		xctx_wake(x, pl->worker);
	}
}
