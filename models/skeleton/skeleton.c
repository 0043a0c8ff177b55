/*
 * The skeleton model: a template, not a part of the stack. Copy this
 * pair, rename it, and replace each section with the real thing.
 *
 * What it stands for. Here the header comment says which kernel code (or
 * which part of the NVMe specification) the model stands for, by file and
 * function, e.g. "block/blk-mq-tag.c: blk_mq_get_tag". The skeleton
 * stands for a generic queue: requests wait in arrival order for one of
 * `servers` servers, each busy for `service` ns per request, and the
 * submitter's CPU pays `submit_cpu` ns per request.
 *
 * Parameters (model "skeleton"; a real model names the profile that sets
 * it, e.g. the host profile): servers (count), service_ns, submit_cpu_ns.
 * Each row of skeleton_param_table below is the one place a parameter is
 * declared: the profile loader, --set, validation, `storsim params` and
 * the docs tables all read it.
 *
 * Sources: where the mechanism and the default values come from (a
 * kernel file, a paper, a datasheet, a measurement, or "fitted to
 * <experiment>" in the profile that sets it).
 *
 * Left out: what the model does not do, so that nobody has to guess.
 *
 * Rules it shows: state and event codes are private to this file; time is
 * sim_time (ns); a request is embedded in its owner and the model keeps
 * no per-request allocation; work on a CPU is charged with xctx_charge()
 * against a stage registered once; side effects a CPU's work causes are
 * deferred to when the CPU has done it (xctx_defer), and timed events go
 * through the component's own handler.
 */
#include <glib.h>

#include "skeleton/skeleton.h"

#define P(field) offsetof(struct skeleton_params, field)
const struct param_def skeleton_param_table[] = {
	{"servers", PARAM_U32, P(servers), "1", 1, 1024, "count",
	 "requests served at once"},
	{"service_ns", PARAM_TIME, P(service), "1000", 0, 1e9, "ns",
	 "time to serve one request"},
	{"submit_cpu_ns", PARAM_TIME, P(submit_cpu), "100", 0, 1e6, "ns",
	 "CPU time the submitter spends per request"},
	PARAM_END,
};

struct skeleton {
	struct sim_component comp;	/* first: the model's events */
	struct host *h;
	struct skeleton_params p;
	unsigned busy;			/* servers in use */
	struct skeleton_req *head, *tail;	/* waiting for a server */
};

/* Event codes: private, one per kind of thing that happens later. */
enum { SK_ARRIVE, SK_DONE };

static stage_id st_submit;

static void serve(struct skeleton *sk, struct skeleton_req *r)
{
	sk->busy++;
	sim_after(host_sim(sk->h), sk->p.service, &sk->comp, SK_DONE, r, 0);
}

static void handle(struct sim_component *c, unsigned type, void *ptr,
		   uint64_t arg)
{
	struct skeleton *sk = (struct skeleton *)c;
	struct skeleton_req *r = ptr;

	switch (type) {
	case SK_ARRIVE:
		/* The CPU has done the submitting work: the request is in. */
		if (sk->busy < sk->p.servers) {
			serve(sk, r);
			return;
		}
		r->next = NULL;
		if (sk->tail)
			sk->tail->next = r;
		else
			sk->head = r;
		sk->tail = r;
		return;
	case SK_DONE:
		sk->busy--;
		if (sk->head) {
			struct skeleton_req *next = sk->head;
			sk->head = next->next;
			if (!sk->head)
				sk->tail = NULL;
			serve(sk, next);
		}
		r->done(r);
		return;
	}
}

static const struct sim_component_ops skeleton_ops = {
	.name = "skeleton",
	.handle = handle,
};

struct skeleton *skeleton_new(struct host *h, const struct skeleton_params *p,
			      const char *name)
{
	struct skeleton *sk = g_new0(struct skeleton, 1);

	st_submit = stage_register("skeleton_submit", CPU_SYS,
				   "the kernel function the stage stands for");
	sk->h = h;
	sk->p = *p;
	sim_component_init(host_sim(h), &sk->comp, &skeleton_ops, name);
	return sk;
}

void skeleton_free(struct skeleton *sk)
{
	g_free(sk);
}

void skeleton_submit(struct xctx *x, struct skeleton *sk, struct skeleton_req *r)
{
	xctx_charge(x, st_submit, sk->p.submit_cpu);
	xctx_defer(x, SIM_MSG(&sk->comp, SK_ARRIVE, r, 0));
}
