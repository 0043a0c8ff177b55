/*
 * The discrete-event engine.
 *
 * Simulated time is an integer count of nanoseconds (sim_time) everywhere in
 * storsim. Events are ordered by (time, sequence): two events due at the same
 * nanosecond run in the order they were scheduled, so a run is a pure
 * function of its inputs and seed.
 *
 * A component is any simulated part that receives events: a CPU, a task, a
 * block queue, a device. It embeds struct sim_component first in its private
 * state and names an ops table whose handle() receives its events, as ROSS
 * LP types and fio's ioengine_ops do. An event carries a small type code, a
 * pointer and a 64-bit argument; what they mean is private to the component.
 */
#ifndef STORSIM_SIM_H
#define STORSIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "evq.h"
#include "rng.h"

typedef uint64_t sim_time;

#define SIM_NSEC ((sim_time)1)
#define SIM_USEC ((sim_time)1000)
#define SIM_MSEC ((sim_time)1000000)
#define SIM_SEC  ((sim_time)1000000000)
#define SIM_TIME_MAX UINT64_MAX

struct sim;
struct sim_component;

struct sim_component_ops {
	const char *name;	/* model type, e.g. "nvme-dev" */
	/* Receives every event sent to a component of this type. Required. */
	void (*handle)(struct sim_component *c, unsigned type, void *ptr,
		       uint64_t arg);
};

struct sim_component {
	const struct sim_component_ops *ops;
	struct sim *sim;
	const char *name;	/* instance name, e.g. "nvme0"; seeds rng */
	struct sim_rng rng;	/* this component's own random stream */
};

/*
 * A message: what a component asks to have delivered to itself (or another)
 * later, e.g. "call me back when this CPU work is done". Delivering it calls
 * the target's handle() directly, without going through the event queue.
 */
struct sim_msg {
	struct sim_component *c;
	void *ptr;
	uint64_t arg;
	uint32_t type;
};

#define SIM_MSG(comp, t, p, a) \
	((struct sim_msg){.c = (comp), .type = (t), .ptr = (p), .arg = (a)})

static inline void sim_msg_deliver(const struct sim_msg *m)
{
	m->c->ops->handle(m->c, m->type, m->ptr, m->arg);
}

/* An event handle, for sim_cancel(); 0 is never a live event. */
typedef uint64_t sim_event_id;

#define SIM_PROGRESS_EVENTS (UINT64_C(1) << 18)

struct sim {
	sim_time now;
	uint64_t seed;
	uint64_t events_run;	/* events delivered so far */
	uint64_t ran;		/* ... by the sim_run() under way */
	sim_time until;		/* where the sim_run() under way stops */
	bool stop;		/* set by a handler to end sim_run() early */
	/* Called every SIM_PROGRESS_EVENTS events of a sim_run(), for a
	 * progress line; it must leave the simulation alone. */
	void (*on_progress)(void *arg);
	void *progress_arg;
	struct evq q;
};

void sim_init(struct sim *s, uint64_t seed);
void sim_destroy(struct sim *s);

/* Attach a component to the simulation and seed its random stream from the
 * run seed and the instance name. */
void sim_component_init(struct sim *s, struct sim_component *c,
			const struct sim_component_ops *ops, const char *name);

/* Deliver (type, ptr, arg) to c at absolute time at (>= now). */
static inline sim_event_id sim_schedule(struct sim *s, sim_time at,
					struct sim_component *c, unsigned type,
					void *ptr, uint64_t arg)
{
	return evq_push(&s->q, at < s->now ? s->now : at, c, type, ptr, arg);
}

static inline sim_event_id sim_after(struct sim *s, sim_time delay,
				     struct sim_component *c, unsigned type,
				     void *ptr, uint64_t arg)
{
	return evq_push(&s->q, s->now + delay, c, type, ptr, arg);
}

/* Cancel a pending event; cancelling one that already ran is a no-op. */
static inline void sim_cancel(struct sim *s, sim_event_id id)
{
	evq_cancel(&s->q, id);
}

/*
 * Timers: for a component's one pending event that it moves again and
 * again (a CPU's next milestone). sim_timer_arm() delivers (type, NULL, 0)
 * to the timer's component at absolute time at (>= now), moving the timer
 * if it is armed already: cheaper than cancelling and scheduling anew, and
 * in the same order as if it had been.
 */
static inline void sim_timer_init(struct evq_timer *t, struct sim_component *c)
{
	*t = (struct evq_timer){.comp = c};
}

static inline void sim_timer_arm(struct sim *s, struct evq_timer *t, sim_time at,
				 unsigned type)
{
	evq_timer_arm(&s->q, t, at < s->now ? s->now : at, type);
}

/* Move an armed timer to absolute time at (>= now) keeping its place
 * among equal times, as if it had been armed for at when it was last
 * armed: for a component that takes back a move made in advance. */
static inline void sim_timer_retime(struct sim *s, struct evq_timer *t,
				    sim_time at)
{
	evq_timer_retime(&s->q, t, at < s->now ? s->now : at);
}

static inline void sim_timer_stop(struct sim *s, struct evq_timer *t)
{
	evq_timer_stop(&s->q, t);
}

/* When the next event or timer is due; false when nothing is pending. */
static inline bool sim_next_time(struct sim *s, sim_time *at)
{
	const struct evq *q = &s->q;
	evq_key k;
	bool ev = evq_first(&s->q, &k);

	if (!ev && !q->tn)
		return false;
	if (!q->tn || (ev && k < q->theap[0].key))
		*at = evq_key_time(k);
	else
		*at = evq_key_time(q->theap[0].key);
	return true;
}

static inline sim_time sim_now(const struct sim *s)
{
	return s->now;
}

/* Run events in order until none is left, the next is later than until, or
 * a handler sets s->stop; unless stopped, the clock then reads until (when
 * until is not SIM_TIME_MAX). Returns the number of events delivered. */
uint64_t sim_run(struct sim *s, sim_time until);

/* Told as every sim_run() starts (ran 0, ended false) and as it ends (ran:
 * the events it delivered). For make bench, which times set-up and counts
 * events inside workload calls that build and free their own sim; NULL
 * otherwise. */
extern void (*sim_run_observer)(sim_time until, uint64_t ran, bool ended);

/* Count an event as delivered, after its handler. */
static inline void sim_event_done(struct sim *s)
{
	if (__builtin_expect(!(++s->ran & (SIM_PROGRESS_EVENTS - 1)), 0) &&
	    s->on_progress)
		s->on_progress(s->progress_arg);
}

/*
 * For the handler of a timer's event, about to arm the timer for time at:
 * whether that event would be the next one the run delivers, before all
 * that is pending (an armed timer takes a sequence number after every
 * pending event's, so one due at the same time goes first) and within the
 * run. If so, the handler may instead count its event as done and go on
 * to the next at once (sim_go_on): the same events at the same times in
 * the same order, without the queue.
 */
static inline bool sim_next_is_at(const struct sim *s, sim_time at)
{
	const struct evq *q = &s->q;
	/* With the heap empty, what waits in the ladder is due at bot_hi or
	 * later; past that the answer is no, and the queue decides. */
	bool events_later = q->n ? evq_key_time(q->heap[0]) > at :
			    at < q->bot_hi || (!q->nr && !q->ntop);

	return !s->stop && at <= s->until && events_later &&
	       (!q->tn || evq_key_time(q->theap[0].key) > at);
}

static inline void sim_go_on(struct sim *s, sim_time at)
{
	sim_event_done(s);
	s->now = at;
}

#endif
