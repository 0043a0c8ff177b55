/*
 * Pools of fixed-size objects for the hot path: objects come from chunks
 * allocated as needed and go back to a free list, never to malloc, so a
 * run allocates only while its number of objects in flight grows.
 *
 * The free list lives in the first bytes of a free object: sim_pool_get()
 * returns an object with undefined contents, to be initialised whole.
 */
#ifndef STORSIM_POOL_H
#define STORSIM_POOL_H

#include <glib.h>

struct sim_pool {
	size_t size;		/* bytes per object */
	unsigned chunk;		/* objects per allocation */
	void *free;
	GPtrArray *chunks;
};

void sim_pool_init(struct sim_pool *p, size_t size, unsigned chunk);
void sim_pool_destroy(struct sim_pool *p);
void sim_pool_grow(struct sim_pool *p);

static inline void *sim_pool_get(struct sim_pool *p)
{
	if (!p->free)
		sim_pool_grow(p);
	void *o = p->free;
	p->free = *(void **)o;
	return o;
}

static inline void sim_pool_put(struct sim_pool *p, void *o)
{
	*(void **)o = p->free;
	p->free = o;
}

#endif
