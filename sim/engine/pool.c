/* Pools of fixed-size objects (see pool.h). */
#include "pool.h"

void sim_pool_init(struct sim_pool *p, size_t size, unsigned chunk)
{
	g_assert(size >= sizeof(void *) && chunk > 0);
	*p = (struct sim_pool){
		.size = size,
		.chunk = chunk,
		.chunks = g_ptr_array_new_with_free_func(g_free),
	};
}

void sim_pool_destroy(struct sim_pool *p)
{
	if (p->chunks)
		g_ptr_array_free(p->chunks, TRUE);
	*p = (struct sim_pool){0};
}

void sim_pool_grow(struct sim_pool *p)
{
	char *c = g_malloc0(p->size * p->chunk);

	g_ptr_array_add(p->chunks, c);
	for (unsigned i = p->chunk; i-- > 0; )
		sim_pool_put(p, c + i * p->size);
}
