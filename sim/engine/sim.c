/* The engine's run loop and component set-up. */
#include "sim.h"

void sim_init(struct sim *s, uint64_t seed)
{
	*s = (struct sim){.seed = seed};
	evq_init(&s->q);
}

void sim_destroy(struct sim *s)
{
	evq_destroy(&s->q);
}

void sim_component_init(struct sim *s, struct sim_component *c,
			const struct sim_component_ops *ops, const char *name)
{
	c->ops = ops;
	c->sim = s;
	c->name = name;
	sim_rng_seed(&c->rng, s->seed, name);
}

void (*sim_run_observer)(sim_time until, uint64_t ran, bool ended);

uint64_t sim_run(struct sim *s, sim_time until)
{
	struct evq *q = &s->q;
	/* A run inside a handler (none does so today) gives the outer run
	 * its count and horizon back. */
	uint64_t outer_ran = s->ran;
	sim_time outer_until = s->until;
	uint64_t ran;

	if (sim_run_observer)
		sim_run_observer(until, 0, false);
	s->ran = 0;
	s->until = until;
	s->stop = false;
	while (!s->stop) {
		evq_key k;
		bool ev = evq_first(q, &k);
		if (q->tn && (!ev || q->theap[0].key < k)) {
			struct evq_timer *t = q->theap[0].t;
			sim_time at = evq_key_time(q->theap[0].key);
			if (at > until)
				break;
			evq_timer_stop(q, t);
			s->now = at;
			t->comp->ops->handle(t->comp, t->type, NULL, 0);
			sim_event_done(s);
			continue;
		}
		if (!ev || evq_key_time(k) > until)
			break;
		evq_pop(q);
		uint32_t slot = evq_key_slot(k);
		struct evq_record *r = &q->rec[slot];
		struct sim_component *c = r->comp;
		void *ptr = r->ptr;
		uint64_t arg = r->arg;
		uint32_t type = r->type;
		r->comp = NULL;
		evq_free_slot(q, slot);
		if (!c)
			continue;
		s->now = evq_key_time(k);
		c->ops->handle(c, type, ptr, arg);
		sim_event_done(s);
	}
	/* Running "until" a time means being there afterwards, so that what
	 * the caller does next happens at that time. */
	if (!s->stop && until != SIM_TIME_MAX && s->now < until)
		s->now = until;
	ran = s->ran;
	s->events_run += ran;
	s->ran = outer_ran;
	s->until = outer_until;
	if (sim_run_observer)
		sim_run_observer(until, ran, true);
	return ran;
}
