/*
 * fio, simulated: verify: each write filled and summed, read back after
 * its round and summed again.
 *
 * Stands for fio 3.33's verify.c (populate_verify_io_u, verify_io_u) and
 * backend.c's do_verify with iolog.c's io_hist (log_io_piece).
 *
 * Parameters (host profile, model "fio"): verify_fill and one verify_ALGO
 * per checksum (ns/KiB).

 */
#include "fio_core.h"
/* ---- verify ---- */

bool fio_verify_wanted(const struct job_options *o)
{
	return o->verify != FIO_VERIFY_NONE && o->do_verify &&
	       fio_rw_does(o->rw, FIO_DDIR_WRITE);
}

/* User CPU to check (or, for a write, to fill and sum) len bytes. */
sim_time fio_verify_cost(const struct fio_thread *td, uint64_t len,
			    bool write)
{
	const struct fio_params *fp = fio_costs(td);
	enum fio_verify v = td->o->verify;

	if (v == FIO_VERIFY_NULL)
		return 0;	/* fio neither fills nor sums */
	return (sim_time)((fp->verify_sum[v] + (write ? fp->verify_fill : 0)) *
			  (double)len / 1024.0 + 0.5);
}

/* log_io_piece: every write is kept to be read back. */
void fio_verify_log(struct fio_thread *td, const struct fio_io_u *u)
{
	if (td->vlog_n == td->vlog_cap) {
		td->vlog_cap = td->vlog_cap ? 2 * td->vlog_cap : 256;
		td->vlog = g_renew(struct fio_verify_rec, td->vlog, td->vlog_cap);
	}
	td->vlog[td->vlog_n++] = (struct fio_verify_rec){
		.offset = u->offset, .len = u->len,
		.file = (uint32_t)(u->file - td->files),
	};
}

static gint vrec_cmp(gconstpointer a, gconstpointer b, gpointer unused)
{
	const struct fio_verify_rec *x = a, *y = b;

	if (x->file != y->file)
		return x->file < y->file ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static gint vrec_tree_cmp(gconstpointer a, gconstpointer b)
{
	return vrec_cmp(a, b, NULL);
}

/* An entry of the tree that overlaps r, or NULL: with the entries kept
 * apart, only the first at or after r's offset and the one before it can. */
static GTreeNode *vrec_overlap(GTree *t, const struct fio_verify_rec *r)
{
	GTreeNode *next = g_tree_lower_bound(t, r);
	GTreeNode *prev = next ? g_tree_node_previous(next) : g_tree_node_last(t);
	const struct fio_verify_rec *e;

	if (next) {
		e = g_tree_node_key(next);
		if (e->file == r->file && e->offset < r->offset + r->len)
			return next;
	}
	if (prev) {
		e = g_tree_node_key(prev);
		if (e->file == r->file && e->offset + e->len > r->offset)
			return prev;
	}
	return NULL;
}

/* Without a random map fio keeps the writes in a tree by file and
 * offset, each write dropping every earlier one it overlaps, even in
 * part (log_io_piece): read back in that order, once each (rw=write:-8k
 * with 4 and 16 KiB blocks: a 16 KiB write drops the two 4 KiB ones
 * inside it). With a map, in the order they were written: the list as
 * do_verify takes it (sorting it again changes nothing). */
void fio_verify_settle(struct fio_thread *td)
{
	if (!td->vlog_n || td->files[0].map.nlevels)
		return;
	GTree *t = g_tree_new(vrec_tree_cmp);
	for (size_t i = 0; i < td->vlog_n; i++) {
		GTreeNode *o;
		while ((o = vrec_overlap(t, &td->vlog[i])))
			g_tree_remove(t, g_tree_node_key(o));
		g_tree_insert(t, &td->vlog[i], NULL);
	}
	struct fio_verify_rec *kept = g_new(struct fio_verify_rec, g_tree_nnodes(t));
	size_t n = 0;
	for (GTreeNode *o = g_tree_node_first(t); o; o = g_tree_node_next(o))
		kept[n++] = *(const struct fio_verify_rec *)g_tree_node_key(o);
	g_tree_destroy(t);
	memcpy(td->vlog, kept, n * sizeof(*kept));
	g_free(kept);
	td->vlog_n = n;
}

/* update_runtime at the end of a do_io or do_verify: the phase's time
 * counts for writes or for reads (from the ramp's end). */
void fio_verify_phase_switch(struct fio_thread *td)
{
	sim_time now = sim_now(td->comp.sim), from = MAX(td->phase_start, td->ramp_end);

	if (now > from)
		td->phase_ns[td->verifying] += now - from;
	td->phase_start = now;
}

/* Whether do_verify follows this round's do_io: not once the run is over,
 * as a time_based job's is when its runtime ends a round. */
bool fio_verify_follows(const struct fio_thread *td)
{
	return fio_verify_wanted(td->o) && td->vlog_n &&
	       !td->error && !fio_run_over(td);
}

/*
 * do_verify, after do_io: once a round's writes and syncs are done, read
 * back what they wrote, through the same engine and depth.
 */
bool fio_verify_begin(struct fio_thread *td, bool round_follows)
{
	if (!fio_verify_follows(td))
		return false;
	fio_verify_settle(td);
	td->vlog_next = 0;
	/* clear_io_state closes the files before do_verify, which opens
	 * them again as it reads (see do_io) */
	td->verify_reopen = true;
	fio_verify_phase_switch(td);
	td->verifying = true;
	td->verified = true;
	td->verify_round = round_follows;
	return true;
}

void fio_verify_end(struct fio_thread *td)
{
	fio_verify_phase_switch(td);
	td->verifying = false;
	td->vlog_n = 0;
}

/* The next read of do_verify; at the end, the round that follows. */
bool fio_verify_fill(struct fio_thread *td, struct fio_io_u *u)
{
	if (td->vlog_next == td->vlog_n) {
		td->round_wait = td->verify_round;
		return false;
	}
	const struct fio_verify_rec *r = &td->vlog[td->vlog_next++];
	fio_io_u_init(td, u, &td->files[r->file], FIO_DDIR_READ, r->offset, r->len);
	u->verify_read = true;
	return true;
}

