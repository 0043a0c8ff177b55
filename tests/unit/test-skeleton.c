/*
 * The skeleton model (models/skeleton/skeleton.c) behaves as its header
 * says, and shows how a model's tests drive it: a host, a task whose step
 * submits, and the simulation run to the end.
 */
#include <glib.h>

#include "skeleton/skeleton.h"

struct fixture {
	struct sim s;
	struct host_params hp;
	struct host *h;
	struct task *t;
	struct skeleton *sk;
	struct sim_component c;	/* the task's steps */
	struct skeleton_req req[4];
	sim_time done_at[4];
	unsigned ndone;
};

static void req_done(struct skeleton_req *r)
{
	struct fixture *fx = r->owner;
	fx->done_at[r - fx->req] = sim_now(&fx->s);
	fx->ndone++;
}

/* The task's one step: submit every request, then exit. */
static void step(struct sim_component *c, unsigned type, void *ptr, uint64_t arg)
{
	struct fixture *fx = ptr;
	struct xctx *x = task_xctx(fx->t);

	for (unsigned i = 0; i < G_N_ELEMENTS(fx->req); i++) {
		fx->req[i] = (struct skeleton_req){.done = req_done, .owner = fx};
		skeleton_submit(x, fx->sk, &fx->req[i]);
	}
	task_exit(fx->t);
}

static const struct sim_component_ops step_ops = {.name = "test", .handle = step};

static void run(struct fixture *fx, unsigned servers)
{
	struct skeleton_params sp;

	params_set_defaults(host_param_table, &fx->hp);
	params_set_defaults(skeleton_param_table, &sp);
	sp.servers = servers;
	sp.service = 1000;
	sp.submit_cpu = 100;
	sim_init(&fx->s, 1);
	fx->h = host_new(&fx->s, &fx->hp);
	fx->sk = skeleton_new(fx->h, &sp, "sk");
	sim_component_init(&fx->s, &fx->c, &step_ops, "test");
	fx->t = task_new(fx->h, "submitter", TASK_USER, 1, NULL);
	task_start(fx->t, SIM_MSG(&fx->c, 0, fx, 0));
	sim_run(&fx->s, SIM_TIME_MAX);
}

static void teardown(struct fixture *fx)
{
	skeleton_free(fx->sk);
	host_free(fx->h);
	sim_destroy(&fx->s);
	params_clear(host_param_table, &fx->hp);
}

/* Each request arrives once the submitter's CPU has paid for it, then
 * waits for a server: with two servers, two at a time. */
static void test_two_servers_serve_in_pairs(void)
{
	struct fixture fx = {0};
	run(&fx, 2);
	g_assert_cmpuint(fx.ndone, ==, 4);
	/* after the context switch in, 100 ns of CPU per request */
	sim_time cs = host_params(fx.h)->ctx_switch;
	g_assert_cmpuint(fx.done_at[0], ==, cs + 100 + 1000);
	g_assert_cmpuint(fx.done_at[1], ==, cs + 200 + 1000);
	g_assert_cmpuint(fx.done_at[2], ==, cs + 100 + 2000);
	g_assert_cmpuint(fx.done_at[3], ==, cs + 200 + 2000);
	teardown(&fx);
}

static void test_one_server_serves_in_order(void)
{
	struct fixture fx = {0};
	run(&fx, 1);
	for (unsigned i = 1; i < 4; i++)
		g_assert_cmpuint(fx.done_at[i] - fx.done_at[i - 1], ==, 1000);
	teardown(&fx);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/skeleton/two-servers-serve-in-pairs",
			test_two_servers_serve_in_pairs);
	g_test_add_func("/skeleton/one-server-serves-in-order",
			test_one_server_serves_in_order);
	return g_test_run();
}
