/*
 * io-wq: io_uring's pool of worker threads for requests that would block.
 *
 * Stands for fs/io-wq.c of Linux 5.7 (io_wqe_enqueue, io_wqe_wake_worker,
 * io_wqe_worker, io_worker_handle_work, io_wq_worker_sleeping and
 * io_wq_worker_running) and io_uring/io-wq.c of 6.x. Each worker is a
 * kernel thread. The pool counts its running workers (nr_running): a
 * worker stops counting when it blocks inside a work item or goes idle,
 * and counts again when it runs.
 *
 * Who runs new work is what changed between kernels (kernel feature
 * io_wq_wake_free_worker):
 *   before (5.7): io_wqe_enqueue wakes the first idle worker only when no
 *     worker is running; a worker that blocks with work still queued wakes
 *     the next one. Queued work is therefore started one item at a time,
 *     each by a worker that must be woken and scheduled first.
 *   after (5.15): every enqueue wakes an idle worker of its own.
 * Either way a worker is created when none is idle and none is running,
 * up to max_workers, and a worker that finishes an item takes the next
 * queued one before going idle.
 *
 * Parameters (host profile, model "io_wq"), CPU time: enqueue_ns (the
 * submitter's io_wq_enqueue), handle_work_ns (a worker taking one item),
 * create_ns (a new worker thread, paid once by that worker).
 * Left out: hashed (serialised) work for buffered writes to one inode,
 * unbound work, the idle timeout that ends surplus workers, cancellation.
 */
#include <glib.h>

#include "io_wq.h"

#define P(field) offsetof(struct io_wq_params, field)
const struct param_def io_wq_param_table[] = {
	{"enqueue_ns", PARAM_TIME, P(enqueue), "150", 0, 1e6, "ns",
	 "io_wq_enqueue: lock, list insert, wake decision"},
	{"handle_work_ns", PARAM_TIME, P(handle_work), "250", 0, 1e6, "ns",
	 "io_worker_handle_work: take one item, flags, accounting"},
	{"create_ns", PARAM_TIME, P(create), "40000", 0, 1e9, "ns",
	 "create_io_worker: fork a worker thread (once per worker)"},
	PARAM_END,
};

enum worker_state { W_IDLE, W_WOKEN, W_BUSY, W_BLOCKED };

struct io_worker {
	struct io_wq *wq;
	struct task *task;
	enum worker_state state;
	bool on_free_list;
	struct io_wq_work *cur;
	struct io_worker *free_next;
};

struct io_wq {
	struct sim_component comp;
	struct host *h;
	struct io_wq_params p;
	const struct kernel_features *k;
	const struct io_wq_ops *ops;
	void *data;
	char *name;
	unsigned max_workers, nr_workers, nr_running;
	struct io_worker *workers;	/* [max_workers] */
	struct io_worker *free_head;	/* idle workers, most recent first */
	struct io_wq_work *head, *tail;	/* queued work */
};

enum { WQ_START, WQ_RUN, WQ_RESUME };

static stage_id st_enqueue, st_handle, st_create;

static void worker_handle(struct sim_component *c, unsigned type, void *ptr,
			  uint64_t arg);

static const struct sim_component_ops io_wq_ops = {
	.name = "io_wq",
	.handle = worker_handle,
};

static void free_list_remove(struct io_wq *wq, struct io_worker *w)
{
	struct io_worker **pp = &wq->free_head;

	while (*pp != w)
		pp = &(*pp)->free_next;
	*pp = w->free_next;
	w->on_free_list = false;
}

static void create_worker(struct xctx *x, struct io_wq *wq)
{
	struct io_worker *w = &wq->workers[wq->nr_workers];
	g_autofree char *name = g_strdup_printf("%s-%u", wq->name, wq->nr_workers);

	wq->nr_workers++;
	*w = (struct io_worker){.wq = wq, .state = W_WOKEN};
	w->task = task_new(wq->h, name, TASK_KTHREAD, 0, NULL);
	/* A new worker counts as running from its creation (io_worker_start). */
	wq->nr_running++;
	/* Started once the creating code has run, as a side effect of it. */
	xctx_defer(x, SIM_MSG(&wq->comp, WQ_START, w, 0));
}

/* io_wqe_wake_worker / io_wqe_activate_free_worker. */
static bool wake_idle_worker(struct xctx *x, struct io_wq *wq, bool any)
{
	for (struct io_worker *w = wq->free_head; w; w = w->free_next) {
		if (w->state == W_IDLE) {
			w->state = W_WOKEN;
			xctx_wake(x, w->task);
			return true;
		}
		/* The old kernel woke the first free worker only, even when
		 * it was already on its way. */
		if (!any)
			return true;
	}
	return false;
}

static void wake_or_create(struct xctx *x, struct io_wq *wq, bool any)
{
	if (wake_idle_worker(x, wq, any))
		return;
	if (wq->nr_running == 0 && wq->nr_workers < wq->max_workers)
		create_worker(x, wq);
}

void io_wq_enqueue(struct xctx *x, struct io_wq *wq, struct io_wq_work *w)
{
	xctx_charge(x, st_enqueue, wq->p.enqueue);
	w->next = NULL;
	w->worker = NULL;
	if (wq->tail)
		wq->tail->next = w;
	else
		wq->head = w;
	wq->tail = w;
	if (wq->k->io_wq_wake_free_worker)
		wake_or_create(x, wq, true);
	else if (wq->nr_running == 0)
		wake_or_create(x, wq, false);
}

void io_wq_work_wake(struct xctx *x, struct io_wq_work *w)
{
	if (w->worker)
		xctx_wake(x, w->worker);
	else
		w->woken = true;
}

/* The worker's work waits (IO_WQ_WAITS): sleep until io_wq_work_wake(),
 * unless that came already. */
static void worker_wait(struct xctx *x, struct io_wq *wq, struct io_worker *w,
			struct io_wq_work *work)
{
	if (work->woken) {
		/* The wait ended within the call. */
		task_then(w->task, SIM_MSG(&wq->comp, WQ_RESUME, w, 0));
		return;
	}
	work->worker = w->task;
	w->state = W_BLOCKED;
	/* io_wq_worker_sleeping: the last running worker to block hands the
	 * queue to another. */
	if (--wq->nr_running == 0 && wq->head)
		wake_or_create(x, wq, wq->k->io_wq_wake_free_worker);
	task_io_sleep(w->task, SIM_MSG(&wq->comp, WQ_RESUME, w, 1));
}

/* The worker's loop: take queued work until there is none, then idle. */
static void worker_loop(struct xctx *x, struct io_wq *wq, struct io_worker *w)
{
	struct io_wq_work *work = wq->head;

	if (!work) {
		w->state = W_IDLE;
		if (!w->on_free_list) {
			w->free_next = wq->free_head;
			wq->free_head = w;
			w->on_free_list = true;
		}
		wq->nr_running--;
		task_sleep(w->task, SIM_MSG(&wq->comp, WQ_RUN, w, 0));
		return;
	}
	wq->head = work->next;
	if (!wq->head)
		wq->tail = NULL;
	if (w->on_free_list)
		free_list_remove(wq, w);
	w->state = W_BUSY;
	w->cur = work;
	work->woken = false;
	work->resume = SIM_MSG(&wq->comp, WQ_RESUME, w, 1);
	xctx_charge(x, st_handle, wq->p.handle_work);
	if (work->ends_step) {
		/* Once the step has ended, the worker can no longer act: count
		 * it as blocked now, while it can still hand the queue on, as
		 * io_wq_worker_sleeping would when it sleeps. */
		w->state = W_BLOCKED;
		if (--wq->nr_running == 0 && wq->head)
			wake_or_create(x, wq, wq->k->io_wq_wake_free_worker);
	}
	enum io_wq_exec e = wq->ops->execute(x, work, wq->data);
	if (e == IO_WQ_DONE) {
		w->cur = NULL;
		task_then(w->task, SIM_MSG(&wq->comp, WQ_RUN, w, 2));
		return;
	}
	g_assert((e == IO_WQ_STEP_ENDED) == work->ends_step);
	if (e == IO_WQ_STEP_ENDED)
		return;
	worker_wait(x, wq, w, work);
}

static void worker_handle(struct sim_component *c, unsigned type, void *ptr,
			  uint64_t arg)
{
	struct io_wq *wq = (struct io_wq *)c;
	struct io_worker *w = ptr;
	struct xctx *x = task_xctx(w->task);

	if (type == WQ_START) {
		task_start(w->task, SIM_MSG(&wq->comp, WQ_RUN, w, 1));
		return;
	}

	if (type == WQ_RESUME) {
		if (arg)	/* woken from the sleep: io_wq_worker_running */
			wq->nr_running++;
		struct io_wq_work *work = w->cur;
		work->worker = NULL;
		work->woken = false;
		w->state = W_BUSY;
		if (wq->ops->resume(x, work, wq->data) == IO_WQ_WAITS) {
			worker_wait(x, wq, w, work);
			return;
		}
		w->cur = NULL;
		worker_loop(x, wq, w);
		return;
	}
	if (arg == 1)		/* the first step of a new worker */
		xctx_charge(x, st_create, wq->p.create);
	else if (arg == 0)	/* woken from idle */
		wq->nr_running++;
	worker_loop(x, wq, w);
}

struct io_wq *io_wq_new(struct host *h, const struct io_wq_params *p,
			const struct kernel_features *k, const char *name,
			unsigned max_workers, const struct io_wq_ops *ops,
			void *data)
{
	struct io_wq *wq = g_new0(struct io_wq, 1);

	st_enqueue = stage_register("io_wq_enqueue", CPU_SYS, "io_wq_enqueue");
	st_handle = stage_register("io_worker_handle_work", CPU_SYS,
				   "io_worker_handle_work, io_wq_submit_work");
	st_create = stage_register("create_io_worker", CPU_SYS, "create_io_worker");
	g_assert(max_workers > 0);
	wq->h = h;
	wq->p = *p;
	wq->k = k;
	wq->ops = ops;
	wq->data = data;
	wq->name = g_strdup(name);
	wq->max_workers = max_workers;
	wq->workers = g_new0(struct io_worker, max_workers);
	sim_component_init(host_sim(h), &wq->comp, &io_wq_ops, wq->name);
	return wq;
}

void io_wq_free(struct io_wq *wq)
{
	if (!wq)
		return;
	g_free(wq->workers);
	g_free(wq->name);
	g_free(wq);
}

unsigned io_wq_nr_workers(const struct io_wq *wq)
{
	return wq->nr_workers;
}

void io_wq_usage(const struct io_wq *wq, struct task_usage *sum)
{
	*sum = (struct task_usage){0};
	for (unsigned i = 0; i < wq->nr_workers; i++) {
		struct task_usage u;
		task_usage(wq->workers[i].task, &u);
		sum->usr_ns += u.usr_ns;
		sum->sys_ns += u.sys_ns;
		sum->nvcsw += u.nvcsw;
		sum->nivcsw += u.nivcsw;
	}
}
