/*
 * Description: the NVMe device model answers commands as the NVMe Base
 * Specification 2.0 requires (registers, Identify, features, queue
 * management, I/O, status codes), keeps data across queue wrap-around,
 * times writes, FUA and Flush through its volatile write cache, and
 * accounts durability across a power loss.
 *
 * The host is the tester's simulated host: sparse memory, a polled I/O
 * queue pair, and "polling" that runs the simulation until the device
 * writes host memory. Expected times are computed from the parameters the
 * test sets, by the formula the model documents.
 */
#include <glib.h>
#include <string.h>

#include "devices/nvme.h"
#include "devices/nvme_spec.h"
#include "validate/nvme_tester.h"

#define IOQ_ENTRIES 8

struct fx {
	struct nvme_dev_params p;
	struct nvme_model_host h;
	struct nvme_tester t;
};

/* Quiet, round timings so expected times are easy to state. */
static void base_params(struct nvme_dev_params *p)
{
	nvme_dev_params_init(p);
	p->store_data = true;
	p->track_durability = true;
	p->enable_latency = 1000;
	p->fetch_latency = 100;
	p->cmd_overhead = 200;
	p->admin_latency = 1000;
	p->read_latency = 50000;
	p->read_ns_per_kib = 100;
	p->write_latency = 300000;
	p->write_ns_per_kib = 200;
	p->media_units = 4;
	p->link_mbps = 0;
	p->cache_bytes = 1 << 20;
	p->cache_latency = 3000;
	p->destage_mbps = 1000;
	p->flush_latency = 7000;
	p->meta_latency = 1500;
}

/* Build the device, enable it, read namespace 1, create I/O queue 1. */
static void fx_up(struct fx *f)
{
	g_autoptr(GError) err = NULL;
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe c;
	uint16_t cqs, sqs;

	g_assert_true(nvme_model_host_init(&f->h, &f->p, 42, &err));
	g_assert_no_error(err);
	nvme_tester_init(&f->t, &nvme_model_transport, &f->h, 60 * SIM_SEC);
	g_assert_true(nvme_tester_enable(&f->t, 16, &err));
	g_assert_no_error(err);
	g_assert_true(nvme_tester_identify(&f->t, NVME_CNS_NS, 1, id, &c, &err));
	g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
	f->t.lba_shift = id[NVME_IDNS_LBAF_LBADS(0)];
	g_assert_true(nvme_tester_create_io_queues(&f->t, IOQ_ENTRIES, &cqs, &sqs,
						   &err));
	g_assert_no_error(err);
	g_assert_cmpuint(cqs, ==, 0);
	g_assert_cmpuint(sqs, ==, 0);
}

static void fx_init(struct fx *f)
{
	base_params(&f->p);
}

static void fx_down(struct fx *f)
{
	nvme_model_host_destroy(&f->h);
	nvme_dev_params_clear(&f->p);
}

static void cmd_ok(struct fx *f, unsigned qid, const struct nvme_sqe *e,
		   struct nvme_cqe *c)
{
	g_autoptr(GError) err = NULL;
	g_assert_true(nvme_tester_cmd(&f->t, qid, e, c, &err));
	g_assert_no_error(err);
}

static uint16_t status_of(struct fx *f, unsigned qid, const struct nvme_sqe *e)
{
	struct nvme_cqe c;
	cmd_ok(f, qid, e, &c);
	return NVME_CQE_STATUS(&c);
}

static void fill(struct fx *f, uint64_t addr, size_t len, uint32_t seed)
{
	g_autofree uint8_t *b = g_malloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 131 + i * 7 + (i >> 9));
	g_assert_true(nvme_tester_mem_write(&f->t, addr, b, len, NULL));
}

static bool same(struct fx *f, uint64_t a, uint64_t b, size_t len)
{
	g_autofree uint8_t *x = g_malloc(len), *y = g_malloc(len);
	g_assert_true(nvme_tester_mem_read(&f->t, a, x, len, NULL));
	g_assert_true(nvme_tester_mem_read(&f->t, b, y, len, NULL));
	return memcmp(x, y, len) == 0;
}

static uint16_t rw(struct fx *f, uint8_t opc, uint64_t slba, uint32_t nlb,
		   uint64_t addr, bool fua)
{
	g_autoptr(GError) err = NULL;
	struct nvme_cqe c;
	g_assert_true(nvme_tester_rw(&f->t, opc, slba, nlb, addr, fua, &c, &err));
	g_assert_no_error(err);
	return NVME_CQE_STATUS(&c);
}

static sim_time now(struct fx *f)
{
	return sim_now(&f->h.sim);
}

/* --- registers ------------------------------------------------------------ */

static void test_cap_fields(void)
{
	struct fx f;
	uint64_t cap, vs;

	fx_init(&f);
	f.p.max_queue_entries = 1024;
	f.p.cap_timeout = 20;
	f.p.mps_max = 3;
	f.p.version = 0x20000;
	fx_up(&f);
	g_assert_true(nvme_tester_reg_read(&f.t, NVME_REG_CAP, 8, &cap, NULL));
	g_assert_true(nvme_tester_reg_read(&f.t, NVME_REG_VS, 4, &vs, NULL));
	g_assert_cmpuint(NVME_CAP_MQES(cap), ==, 1023);
	g_assert_cmpuint(NVME_CAP_CQR(cap), ==, 1);
	g_assert_cmpuint(NVME_CAP_TO(cap), ==, 20);
	g_assert_cmpuint(NVME_CAP_DSTRD(cap), ==, 0);
	g_assert_cmpuint(NVME_CAP_CSS(cap), ==, 1);
	g_assert_cmpuint(NVME_CAP_MPSMIN(cap), ==, 0);
	g_assert_cmpuint(NVME_CAP_MPSMAX(cap), ==, 3);
	g_assert_cmpuint(vs, ==, 0x20000);
	fx_down(&f);
}

static void test_ready_after_enable_latency(void)
{
	struct fx f;
	uint64_t csts;

	fx_init(&f);
	f.p.enable_latency = 123456;
	g_assert_true(nvme_model_host_init(&f.h, &f.p, 1, NULL));
	nvme_tester_init(&f.t, &nvme_model_transport, &f.h, SIM_SEC);
	g_assert_true(nvme_tester_enable(&f.t, 4, NULL));
	g_assert_cmpuint(now(&f), ==, 123456);
	g_assert_true(nvme_tester_reg_read(&f.t, NVME_REG_CSTS, 4, &csts, NULL));
	g_assert_cmpuint(csts & NVME_CSTS_RDY, ==, 1);
	fx_down(&f);
}

static void test_enable_misaligned_asq_fails(void)
{
	struct fx f;
	uint64_t csts;

	fx_init(&f);
	g_assert_true(nvme_model_host_init(&f.h, &f.p, 1, NULL));
	nvme_dev_mmio_write(f.h.dev, NVME_REG_AQA, 4, NVME_AQA(4, 4));
	nvme_dev_mmio_write(f.h.dev, NVME_REG_ASQ, 8, 0x100800);
	nvme_dev_mmio_write(f.h.dev, NVME_REG_ACQ, 8, 0x101000);
	nvme_dev_mmio_write(f.h.dev, NVME_REG_CC, 4, NVME_CC_ENABLE_DEFAULT);
	sim_run(&f.h.sim, SIM_TIME_MAX);
	csts = nvme_dev_mmio_read(f.h.dev, NVME_REG_CSTS, 4);
	g_assert_cmpuint(csts & NVME_CSTS_CFS, !=, 0);
	g_assert_cmpuint(csts & NVME_CSTS_RDY, ==, 0);
	fx_down(&f);
}

static void test_disable_clears_ready_and_queues(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	g_assert_true(nvme_tester_reg_write(&f.t, NVME_REG_CC, 4, 0, NULL));
	g_assert_cmpuint(nvme_dev_mmio_read(f.h.dev, NVME_REG_CSTS, 4) &
			 NVME_CSTS_RDY, ==, 0);
	/* Enabled again, the old I/O queue is gone: creating it succeeds. */
	g_assert_true(nvme_tester_enable(&f.t, 16, NULL));
	nvme_sqe_create_cq(&e, 1, 4, NVME_TESTER_IOCQ, 0, false);
	g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
	fx_down(&f);
}

static void test_shutdown_waits_for_destage(void)
{
	struct fx f;
	g_autoptr(GError) err = NULL;

	fx_init(&f);
	f.p.destage_mbps = 10;	/* 64 KiB take 6.5 ms */
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 65536, 1);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 0, 128, NVME_TESTER_DATA, false), ==, 0);
	sim_time t0 = now(&f);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 65536);
	g_assert_true(nvme_tester_shutdown(&f.t, &err));
	g_assert_no_error(err);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 0);
	g_assert_cmpuint(now(&f) - t0, >, 6 * SIM_MSEC);
	fx_down(&f);
}

/* --- identify --------------------------------------------------------------- */

static void test_identify_controller(void)
{
	struct fx f;
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe c;

	fx_init(&f);
	f.p.vid = 0x144d;
	f.p.ssvid = 0x1234;
	f.p.mdts = 5;
	f.p.nn = 32;
	f.p.dsm = false;
	f.p.flush_broadcast = false;
	g_free(f.p.serial);
	f.p.serial = g_strdup("S123");
	fx_up(&f);
	g_assert_true(nvme_tester_identify(&f.t, NVME_CNS_CTRL, 0, id, &c, NULL));
	g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
	g_assert_cmpuint(nvme_get16(id + NVME_IDC_VID), ==, 0x144d);
	g_assert_cmpuint(nvme_get16(id + NVME_IDC_SSVID), ==, 0x1234);
	g_assert_cmpmem(id + NVME_IDC_SN, 5, "S123 ", 5);
	g_assert_cmpmem(id + NVME_IDC_MN, 14, f.p.model_name, 14);
	g_assert_cmpuint(id[NVME_IDC_MDTS], ==, 5);
	g_assert_cmpuint(id[NVME_IDC_SQES], ==, 0x66);
	g_assert_cmpuint(id[NVME_IDC_CQES], ==, 0x44);
	g_assert_cmpuint(nvme_get32(id + NVME_IDC_NN), ==, 32);
	/* Write Zeroes and Save/Select, no DSM. */
	g_assert_cmpuint(nvme_get16(id + NVME_IDC_ONCS), ==, 0x18);
	g_assert_cmpuint(nvme_get16(id + NVME_IDC_FUSES), ==, 0);
	g_assert_cmpuint(nvme_get16(id + NVME_IDC_OACS), ==, 0);
	/* Present, broadcast Flush not supported (10b). */
	g_assert_cmpuint(id[NVME_IDC_VWC], ==, 0x5);
	fx_down(&f);
}

static void test_identify_namespace(void)
{
	struct fx f;
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe c;

	fx_init(&f);
	f.p.ns_blocks = 1000;
	f.p.lba_shift = 12;
	fx_up(&f);
	g_assert_true(nvme_tester_identify(&f.t, NVME_CNS_NS, 1, id, &c, NULL));
	g_assert_cmpuint(nvme_get64(id + NVME_IDNS_NSZE), ==, 1000);
	g_assert_cmpuint(nvme_get64(id + NVME_IDNS_NCAP), ==, 1000);
	g_assert_cmpuint(nvme_get64(id + NVME_IDNS_NUSE), ==, 1000);
	g_assert_cmpuint(id[NVME_IDNS_NLBAF], ==, 0);
	g_assert_cmpuint(id[NVME_IDNS_FLBAS], ==, 0);
	g_assert_cmpuint(id[NVME_IDNS_LBAF_LBADS(0)], ==, 12);
	fx_down(&f);
}

static void test_identify_inactive_namespace_is_zero(void)
{
	struct fx f;
	uint8_t id[NVME_IDENTIFY_SIZE], zero[NVME_IDENTIFY_SIZE] = {0};
	struct nvme_cqe c;

	fx_init(&f);
	fx_up(&f);
	g_assert_true(nvme_tester_identify(&f.t, NVME_CNS_NS, 2, id, &c, NULL));
	g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
	g_assert_cmpmem(id, sizeof(id), zero, sizeof(zero));
	fx_down(&f);
}

static void test_identify_active_list(void)
{
	struct fx f;
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe c;

	fx_init(&f);
	fx_up(&f);
	g_assert_true(nvme_tester_identify(&f.t, NVME_CNS_NS_ACTIVE_LIST, 0, id, &c,
					   NULL));
	g_assert_cmpuint(nvme_get32(id), ==, 1);
	g_assert_cmpuint(nvme_get32(id + 4), ==, 0);
	g_assert_true(nvme_tester_identify(&f.t, NVME_CNS_NS_ACTIVE_LIST, 1, id, &c,
					   NULL));
	g_assert_cmpuint(nvme_get32(id), ==, 0);
	fx_down(&f);
}

static void write_n(struct fx *f, unsigned n, bool fua);

/* --- status codes, one case each ---------------------------------------------- */

struct status_case {
	const char *path;
	unsigned qid;
	void (*build)(struct fx *f, struct nvme_sqe *e);
	uint16_t expect;
};

static void s_admin_opcode(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	memset(e, 0, sizeof(*e));
	e->opcode = 0xc0;
}

static void s_io_opcode(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	memset(e, 0, sizeof(*e));
	e->opcode = 0x7f;
	e->nsid = 1;
}

static void s_identify_cns(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_identify(e, 0xff, 0, NVME_TESTER_IDENT);
}

static void s_identify_ns0(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_identify(e, NVME_CNS_NS, 0, NVME_TESTER_IDENT);
}

static void s_get_feature_unknown(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_get_features(e, 0x7f, NVME_SEL_CURRENT, 0);
}

static void s_get_feature_bad_sel(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_get_features(e, NVME_FEAT_VOLATILE_WC, 4, 0);
}

static void s_set_feature_save(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_set_features(e, NVME_FEAT_VOLATILE_WC, true, 1);
}

static void s_set_feature_nsid(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_set_features(e, NVME_FEAT_VOLATILE_WC, false, 1);
	e->nsid = 1;
}

static void s_set_num_queues_late(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_set_num_queues(e, 2, 2);
}

static void s_num_queues_ffff(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_set_features(e, NVME_FEAT_NUM_QUEUES, false, 0xffff);
}

static void s_create_cq_existing(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_cq(e, 1, 4, NVME_TESTER_IOCQ, 0, false);
}

static void s_create_cq_qid0(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_cq(e, 0, 4, NVME_TESTER_IOCQ, 0, false);
}

static void s_create_cq_too_big(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_create_cq(e, 2, f->p.max_queue_entries + 1, 0x180000, 0, false);
}

static void s_create_cq_one_entry(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_cq(e, 2, 1, 0x180000, 0, false);
}

static void s_create_cq_misaligned(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_cq(e, 2, 4, 0x180100, 0, false);
}

static void s_create_cq_vector(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_create_cq(e, 2, 4, 0x180000, (uint16_t)f->p.msix_vectors, true);
}

static void s_create_cq_noncontig(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_cq(e, 2, 4, 0x180000, 0, false);
	e->cdw11 &= ~1u;
}

static void s_create_sq_bad_cq(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_sq(e, 2, 4, 0x181000, 9);
}

static void s_create_sq_existing(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_create_sq(e, 1, 4, 0x181000, 1);
}

static void s_delete_cq_in_use(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_delete_queue(e, NVME_ADMIN_DELETE_CQ, 1);
}

static void s_delete_cq_missing(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_delete_queue(e, NVME_ADMIN_DELETE_CQ, 5);
}

static void s_delete_sq_missing(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_delete_queue(e, NVME_ADMIN_DELETE_SQ, 5);
}

static void s_admin_fused(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_get_features(e, NVME_FEAT_VOLATILE_WC, NVME_SEL_CURRENT, 0);
	e->flags = 1;
}

static void s_admin_sgl(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_identify(e, NVME_CNS_CTRL, 0, NVME_TESTER_IDENT);
	e->flags = 1 << 6;
}

static void s_write_past_end(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_rw(e, NVME_CMD_WRITE, 1, f->p.ns_blocks, 1, NVME_TESTER_DATA, 0,
		    false);
}

static void s_write_straddles_end(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_rw(e, NVME_CMD_WRITE, 1, f->p.ns_blocks - 1, 2, NVME_TESTER_DATA,
		    0, false);
}

static void s_read_past_end(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_rw(e, NVME_CMD_READ, 1, f->p.ns_blocks + 100, 1, NVME_TESTER_DATA,
		    0, false);
}

static void s_write_nsid0(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_rw(e, NVME_CMD_WRITE, 0, 0, 1, NVME_TESTER_DATA, 0, false);
}

static void s_write_nsid_above_nn(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_rw(e, NVME_CMD_WRITE, f->p.nn + 1, 0, 1, NVME_TESTER_DATA, 0, false);
}

static void s_write_nsid_inactive(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_rw(e, NVME_CMD_WRITE, 2, 0, 1, NVME_TESTER_DATA, 0, false);
}

static void s_write_nsid_broadcast(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_rw(e, NVME_CMD_WRITE, NVME_NSID_BROADCAST, 0, 1, NVME_TESTER_DATA,
		    0, false);
}

static void s_flush_inactive(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_flush(e, 2);
}

static void s_flush_nsid0(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_flush(e, 0);
}

/* One block more than MDTS allows, and out of range too: MDTS wins. */
static void s_write_mdts(struct fx *f, struct nvme_sqe *e)
{
	uint32_t nlb = ((4096u << f->p.mdts) >> f->p.lba_shift) + 1;
	nvme_sqe_rw(e, NVME_CMD_WRITE, 1, f->p.ns_blocks, nlb, NVME_TESTER_DATA,
		    NVME_TESTER_PRPLIST, false);
}

static void s_write_prp1_unaligned(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_rw(e, NVME_CMD_WRITE, 1, 0, 1, NVME_TESTER_DATA + 1, 0, false);
}

static void s_write_prp2_unaligned(struct fx *f, struct nvme_sqe *e)
{
	/* Two pages: PRP2 is a page pointer and must have no offset. */
	nvme_sqe_rw(e, NVME_CMD_WRITE, 1, 0, 8192 >> f->p.lba_shift,
		    NVME_TESTER_DATA, NVME_TESTER_DATA + 4096 + 8, false);
}

static void s_io_fused(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	nvme_sqe_rw(e, NVME_CMD_READ, 1, 0, 1, NVME_TESTER_DATA, 0, false);
	e->flags = 1;
}

static void s_write_zeroes_range(struct fx *f, struct nvme_sqe *e)
{
	nvme_sqe_write_zeroes(e, 1, f->p.ns_blocks - 1, 2);
}

static void s_dsm_range(struct fx *f, struct nvme_sqe *e)
{
	struct nvme_dsm_range r = {.nlb = 8, .slba = f->p.ns_blocks - 4};
	g_assert_true(nvme_tester_mem_write(&f->t, NVME_TESTER_IDENT, &r, sizeof(r),
					    NULL));
	nvme_sqe_dsm_deallocate(e, 1, 1, NVME_TESTER_IDENT);
}

static void s_abort_bad_sq(struct fx *f, struct nvme_sqe *e)
{
	(void)f;
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_ABORT;
	e->cdw10 = 7;
}

#define DNR NVME_DNR
static const struct status_case status_cases[] = {
	{"/nvme/status/admin-invalid-opcode", 0, s_admin_opcode,
	 NVME_SC_INVALID_OPCODE | DNR},
	{"/nvme/status/io-invalid-opcode", 1, s_io_opcode,
	 NVME_SC_INVALID_OPCODE | DNR},
	{"/nvme/status/identify-unsupported-cns", 0, s_identify_cns,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/identify-namespace-nsid-0", 0, s_identify_ns0,
	 NVME_SC_INVALID_NS | DNR},
	{"/nvme/status/get-features-unsupported-fid", 0, s_get_feature_unknown,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/get-features-reserved-sel", 0, s_get_feature_bad_sel,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/set-features-not-saveable", 0, s_set_feature_save,
	 NVME_SC_FEATURE_NOT_SAVEABLE | DNR},
	{"/nvme/status/set-features-not-namespace-specific", 0, s_set_feature_nsid,
	 NVME_SC_FEATURE_NOT_NS_SPECIFIC | DNR},
	{"/nvme/status/set-num-queues-after-create", 0, s_set_num_queues_late,
	 NVME_SC_CMD_SEQ_ERROR | DNR},
	{"/nvme/status/set-num-queues-ffff", 0, s_num_queues_ffff,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/create-cq-existing-qid", 0, s_create_cq_existing,
	 NVME_SC_QID_INVALID | DNR},
	{"/nvme/status/create-cq-qid-0", 0, s_create_cq_qid0,
	 NVME_SC_QID_INVALID | DNR},
	{"/nvme/status/create-cq-above-mqes", 0, s_create_cq_too_big,
	 NVME_SC_QUEUE_SIZE | DNR},
	{"/nvme/status/create-cq-one-entry", 0, s_create_cq_one_entry,
	 NVME_SC_QUEUE_SIZE | DNR},
	{"/nvme/status/create-cq-misaligned", 0, s_create_cq_misaligned,
	 NVME_SC_PRP_OFFSET_INVALID | DNR},
	{"/nvme/status/create-cq-bad-vector", 0, s_create_cq_vector,
	 NVME_SC_INVALID_VECTOR | DNR},
	{"/nvme/status/create-cq-not-contiguous", 0, s_create_cq_noncontig,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/create-sq-invalid-cq", 0, s_create_sq_bad_cq,
	 NVME_SC_CQ_INVALID | DNR},
	{"/nvme/status/create-sq-existing-qid", 0, s_create_sq_existing,
	 NVME_SC_QID_INVALID | DNR},
	{"/nvme/status/delete-cq-in-use", 0, s_delete_cq_in_use,
	 NVME_SC_INVALID_QUEUE_DELETION},
	{"/nvme/status/delete-cq-missing", 0, s_delete_cq_missing,
	 NVME_SC_QID_INVALID | DNR},
	{"/nvme/status/delete-sq-missing", 0, s_delete_sq_missing,
	 NVME_SC_QID_INVALID | DNR},
	{"/nvme/status/admin-fused", 0, s_admin_fused, NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/admin-sgl", 0, s_admin_sgl, NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/abort-invalid-sqid", 0, s_abort_bad_sq,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/write-past-end", 1, s_write_past_end,
	 NVME_SC_LBA_RANGE | DNR},
	{"/nvme/status/write-straddles-end", 1, s_write_straddles_end,
	 NVME_SC_LBA_RANGE | DNR},
	{"/nvme/status/read-past-end", 1, s_read_past_end, NVME_SC_LBA_RANGE | DNR},
	{"/nvme/status/write-nsid-0", 1, s_write_nsid0, NVME_SC_INVALID_NS | DNR},
	{"/nvme/status/write-nsid-above-nn", 1, s_write_nsid_above_nn,
	 NVME_SC_INVALID_NS | DNR},
	{"/nvme/status/write-nsid-inactive", 1, s_write_nsid_inactive,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/write-nsid-broadcast", 1, s_write_nsid_broadcast,
	 NVME_SC_INVALID_NS | DNR},
	{"/nvme/status/flush-nsid-inactive", 1, s_flush_inactive,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/flush-nsid-0", 1, s_flush_nsid0, NVME_SC_INVALID_NS | DNR},
	{"/nvme/status/write-above-mdts", 1, s_write_mdts,
	 NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/write-prp1-not-dword-aligned", 1, s_write_prp1_unaligned,
	 NVME_SC_PRP_OFFSET_INVALID | DNR},
	{"/nvme/status/write-prp2-offset", 1, s_write_prp2_unaligned,
	 NVME_SC_PRP_OFFSET_INVALID | DNR},
	{"/nvme/status/io-fused", 1, s_io_fused, NVME_SC_INVALID_FIELD | DNR},
	{"/nvme/status/write-zeroes-past-end", 1, s_write_zeroes_range,
	 NVME_SC_LBA_RANGE | DNR},
	{"/nvme/status/deallocate-past-end", 1, s_dsm_range,
	 NVME_SC_LBA_RANGE | DNR},
};

static void test_status(gconstpointer data)
{
	const struct status_case *sc = data;
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	sc->build(&f, &e);
	g_assert_cmphex(status_of(&f, sc->qid, &e), ==, sc->expect);
	fx_down(&f);
}

/* Errors do not wedge a queue: after one of each, I/O still works. */
static void test_queue_works_after_errors(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	for (unsigned i = 0; i < G_N_ELEMENTS(status_cases); i++) {
		status_cases[i].build(&f, &e);
		g_assert_cmpuint(status_of(&f, status_cases[i].qid, &e), !=, 0);
	}
	fill(&f, NVME_TESTER_DATA, 4096, 9);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 40, 8, NVME_TESTER_DATA, false), ==, 0);
	g_assert_cmpuint(rw(&f, NVME_CMD_READ, 40, 8, NVME_TESTER_DATA2, false), ==, 0);
	g_assert_true(same(&f, NVME_TESTER_DATA, NVME_TESTER_DATA2, 4096));
	fx_down(&f);
}

/* --- features ------------------------------------------------------------------- */

struct vwc_case {
	const char *path;
	bool enabled_at_power_on;
	unsigned sel;
	uint32_t expect;
};

static const struct vwc_case vwc_cases[] = {
	{"/nvme/features/vwc-on/current", true, NVME_SEL_CURRENT, 1},
	{"/nvme/features/vwc-on/default", true, NVME_SEL_DEFAULT, 1},
	{"/nvme/features/vwc-on/saved", true, NVME_SEL_SAVED, 1},
	{"/nvme/features/vwc-on/supported", true, NVME_SEL_SUPPORTED,
	 NVME_FEAT_CAP_CHANGE},
	{"/nvme/features/vwc-off/current", false, NVME_SEL_CURRENT, 0},
	{"/nvme/features/vwc-off/default", false, NVME_SEL_DEFAULT, 0},
	{"/nvme/features/vwc-off/saved", false, NVME_SEL_SAVED, 0},
	{"/nvme/features/vwc-off/supported", false, NVME_SEL_SUPPORTED,
	 NVME_FEAT_CAP_CHANGE},
};

static void test_vwc_get(gconstpointer data)
{
	const struct vwc_case *vc = data;
	struct fx f;
	struct nvme_sqe e;
	struct nvme_cqe c;

	fx_init(&f);
	f.p.write_cache_enabled = vc->enabled_at_power_on;
	fx_up(&f);
	nvme_sqe_get_features(&e, NVME_FEAT_VOLATILE_WC, vc->sel, 0);
	cmd_ok(&f, 0, &e, &c);
	g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
	g_assert_cmpuint(c.result, ==, vc->expect);
	fx_down(&f);
}

/* Setting the feature changes the current value, not the default. */
static void test_vwc_set_then_get(void)
{
	struct fx f;
	struct nvme_sqe e;
	struct nvme_cqe c;

	fx_init(&f);
	fx_up(&f);
	for (uint32_t v = 0; v < 2; v++) {
		nvme_sqe_set_features(&e, NVME_FEAT_VOLATILE_WC, false, v);
		g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
		nvme_sqe_get_features(&e, NVME_FEAT_VOLATILE_WC, NVME_SEL_CURRENT, 0);
		cmd_ok(&f, 0, &e, &c);
		g_assert_cmpuint(c.result, ==, v);
		g_assert_cmpint(nvme_dev_write_cache_enabled(f.h.dev), ==, v);
		nvme_sqe_get_features(&e, NVME_FEAT_VOLATILE_WC, NVME_SEL_DEFAULT, 0);
		cmd_ok(&f, 0, &e, &c);
		g_assert_cmpuint(c.result, ==, 1);
	}
	fx_down(&f);
}

static void test_vwc_absent_is_unsupported(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	f.p.vwc_present = false;
	f.p.write_cache_enabled = false;
	fx_up(&f);
	nvme_sqe_get_features(&e, NVME_FEAT_VOLATILE_WC, NVME_SEL_CURRENT, 0);
	g_assert_cmphex(status_of(&f, 0, &e), ==, NVME_SC_INVALID_FIELD | NVME_DNR);
	fx_down(&f);
}

/* Turning the cache off flushes it first: the Set Features completes only
 * once the dirty data has destaged. */
static void test_vwc_off_flushes_first(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	f.p.destage_mbps = 100;	/* 128 KiB take 1.31 ms */
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 131072, 3);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 0, 256, NVME_TESTER_DATA, false), ==, 0);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 131072);
	sim_time t0 = now(&f);
	nvme_sqe_set_features(&e, NVME_FEAT_VOLATILE_WC, false, 0);
	g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 0);
	g_assert_cmpuint(now(&f) - t0, >=, 1310720 - f.p.cache_latency);
	fx_down(&f);
}

static void test_num_queues_limits_creation(void)
{
	struct fx f;
	struct nvme_sqe e;
	struct nvme_cqe c;

	fx_init(&f);
	g_assert_true(nvme_model_host_init(&f.h, &f.p, 1, NULL));
	nvme_tester_init(&f.t, &nvme_model_transport, &f.h, SIM_SEC);
	g_assert_true(nvme_tester_enable(&f.t, 16, NULL));
	nvme_sqe_set_num_queues(&e, 2, 3);
	cmd_ok(&f, 0, &e, &c);
	g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
	g_assert_cmphex(c.result, ==, 2u << 16 | 1u);
	nvme_sqe_create_cq(&e, 3, 4, 0x180000, 0, false);
	g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
	nvme_sqe_create_sq(&e, 3, 4, 0x181000, 3);
	g_assert_cmphex(status_of(&f, 0, &e), ==, NVME_SC_QID_INVALID | NVME_DNR);
	fx_down(&f);
}

/* Queue pair 2 with interrupts on vector 5; the tester polls it as its
 * queue 1 (its own queue 1 is replaced). */
static void interrupting_pair(struct fx *f)
{
	struct nvme_sqe e;

	g_assert_true(f->t.ops->mem_zero(f->t.tr, 0x180000, 4096, NULL));
	nvme_sqe_create_cq(&e, 2, 8, 0x180000, 5, true);
	g_assert_cmpuint(status_of(f, 0, &e), ==, 0);
	nvme_sqe_create_sq(&e, 2, 8, 0x181000, 2);
	g_assert_cmpuint(status_of(f, 0, &e), ==, 0);
	f->t.q[1] = (struct nvme_tester_queue){.sq_base = 0x181000,
					       .cq_base = 0x180000, .entries = 8,
					       .qid = 2, .phase = 1, .live = true};
}

/* Four Flushes written at once to queue 2, one doorbell, run to the end. */
static void four_flushes_on_queue_2(struct fx *f)
{
	struct nvme_sqe e;

	for (uint16_t i = 0; i < 4; i++) {
		nvme_sqe_flush(&e, 1);
		e.cid = i;
		g_assert_true(nvme_tester_mem_write(&f->t, 0x181000 + 64u * i, &e,
						    sizeof(e), NULL));
	}
	nvme_dev_mmio_write(f->h.dev, NVME_REG_DBS + 8 * 2, 4, 4);
	while (sim_run(&f->h.sim, SIM_TIME_MAX))
		;
}

static void test_irq_per_completion(void)
{
	struct fx f;

	fx_init(&f);
	fx_up(&f);
	interrupting_pair(&f);
	uint64_t irqs = f.h.irqs;
	four_flushes_on_queue_2(&f);
	g_assert_cmpuint(f.h.irqs - irqs, ==, 4);
	g_assert_cmpuint(f.h.last_vector, ==, 5);
	fx_down(&f);
}

/* The tester's own I/O queue was created without interrupts. */
static void test_polled_cq_raises_none(void)
{
	struct fx f;

	fx_init(&f);
	fx_up(&f);
	uint64_t irqs = f.h.irqs;
	write_n(&f, 3, false);
	g_assert_cmpuint(f.h.irqs, ==, irqs);
	fx_down(&f);
}

/* Interrupt coalescing: with a threshold of 4 entries (THR = 3, 0's
 * based), four completions raise one interrupt. */
static void test_irq_coalescing_threshold(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	nvme_sqe_set_features(&e, NVME_FEAT_IRQ_COALESCE, false, 3);
	g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
	interrupting_pair(&f);
	uint64_t irqs = f.h.irqs;
	four_flushes_on_queue_2(&f);
	g_assert_cmpuint(f.h.irqs - irqs, ==, 1);
	fx_down(&f);
}

/* With a large threshold, the aggregation time (TIME, 100 us units) ends
 * the wait: one interrupt, 200 us after the first completion. */
static void test_irq_coalescing_time(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	nvme_sqe_set_features(&e, NVME_FEAT_IRQ_COALESCE, false, 2u << 8 | 50);
	g_assert_cmpuint(status_of(&f, 0, &e), ==, 0);
	interrupting_pair(&f);
	uint64_t irqs = f.h.irqs;
	sim_time t0 = now(&f);
	four_flushes_on_queue_2(&f);
	g_assert_cmpuint(f.h.irqs - irqs, ==, 1);
	g_assert_cmpuint(now(&f) - t0, ==, f.p.fetch_latency + f.p.cmd_overhead +
			 f.p.flush_latency + 200 * SIM_USEC);
	fx_down(&f);
}

/* --- I/O and data ------------------------------------------------------------------ */

/* Three turns of an 8-entry queue with writes and reads of varied sizes. */
static void test_data_integrity_across_wrap(void)
{
	struct fx f;
	const unsigned n = 3 * IOQ_ENTRIES;

	fx_init(&f);
	fx_up(&f);
	for (unsigned i = 0; i < n; i++) {
		uint32_t nlb = 1 + i % 5;
		fill(&f, NVME_TESTER_DATA + i * 8192ull, nlb * 512u, i);
		g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 100 + i * 8ull, nlb,
				    NVME_TESTER_DATA + i * 8192ull, i % 3 == 0), ==, 0);
	}
	for (unsigned i = 0; i < n; i++) {
		uint32_t nlb = 1 + i % 5;
		g_assert_cmpuint(rw(&f, NVME_CMD_READ, 100 + i * 8ull, nlb,
				    NVME_TESTER_DATA2 + i * 8192ull, false), ==, 0);
		g_assert_true(same(&f, NVME_TESTER_DATA + i * 8192ull,
				   NVME_TESTER_DATA2 + i * 8192ull, nlb * 512u));
	}
	/* 48 commands on 8 entries: the phase tag turned six times. */
	g_assert_cmpuint(f.t.q[1].phase, ==, 1);
	g_assert_cmpuint(f.t.q[1].cq_head, ==, 0);
	fx_down(&f);
}

/* 192 KiB: PRP1 with an offset, then a PRP list. */
static void test_prp_list_transfer(void)
{
	struct fx f;
	const size_t len = 196608;

	fx_init(&f);
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, len, 77);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 1000, len / 512, NVME_TESTER_DATA,
			    false), ==, 0);
	g_assert_cmpuint(rw(&f, NVME_CMD_READ, 1000, len / 512, NVME_TESTER_DATA2,
			    false), ==, 0);
	g_assert_true(same(&f, NVME_TESTER_DATA, NVME_TESTER_DATA2, len));
	fx_down(&f);
}

static void test_write_zeroes_reads_zero(void)
{
	struct fx f;
	struct nvme_sqe e;
	uint8_t zero[4096] = {0}, back[4096];

	fx_init(&f);
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 4096, 5);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 16, 8, NVME_TESTER_DATA, false), ==, 0);
	nvme_sqe_write_zeroes(&e, 1, 17, 2);
	g_assert_cmpuint(status_of(&f, 1, &e), ==, 0);
	g_assert_cmpuint(rw(&f, NVME_CMD_READ, 16, 8, NVME_TESTER_DATA2, false), ==, 0);
	g_assert_true(nvme_tester_mem_read(&f.t, NVME_TESTER_DATA2, back, 4096, NULL));
	g_assert_cmpmem(back + 512, 1024, zero, 1024);
	g_assert_true(same(&f, NVME_TESTER_DATA, NVME_TESTER_DATA2, 512));
	g_assert_true(same(&f, NVME_TESTER_DATA + 1536, NVME_TESTER_DATA2 + 1536,
			   4096 - 1536));
	fx_down(&f);
}

static void test_deallocate_reads_zero(void)
{
	struct fx f;
	struct nvme_sqe e;
	uint8_t zero[4096] = {0}, back[4096];
	struct nvme_dsm_range r = {.nlb = 8, .slba = 200};

	fx_init(&f);
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 4096, 6);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 200, 8, NVME_TESTER_DATA, false), ==, 0);
	g_assert_true(nvme_tester_mem_write(&f.t, NVME_TESTER_IDENT, &r, sizeof(r),
					    NULL));
	nvme_sqe_dsm_deallocate(&e, 1, 1, NVME_TESTER_IDENT);
	g_assert_cmpuint(status_of(&f, 1, &e), ==, 0);
	g_assert_cmpuint(rw(&f, NVME_CMD_READ, 200, 8, NVME_TESTER_DATA2, false), ==, 0);
	g_assert_true(nvme_tester_mem_read(&f.t, NVME_TESTER_DATA2, back, 4096, NULL));
	g_assert_cmpmem(back, 4096, zero, 4096);
	fx_down(&f);
}

/* --- timing ------------------------------------------------------------------------ */

static sim_time timed_rw(struct fx *f, uint8_t opc, uint64_t slba, uint32_t nlb,
			 bool fua)
{
	sim_time t0 = now(f);
	g_assert_cmpuint(rw(f, opc, slba, nlb, NVME_TESTER_DATA, fua), ==, 0);
	return f->t.cqe_time - t0;
}

static sim_time per_kib(double ns_per_kib, uint64_t bytes)
{
	return (sim_time)(ns_per_kib * (double)bytes / 1024.0 + 0.5);
}

static void test_cached_write_takes_cache_latency(void)
{
	struct fx f;

	fx_init(&f);
	fx_up(&f);
	g_assert_cmpuint(timed_rw(&f, NVME_CMD_WRITE, 0, 8, false), ==,
			 f.p.fetch_latency + f.p.cmd_overhead + f.p.cache_latency);
	fx_down(&f);
}

static void test_fua_write_takes_media_latency(void)
{
	struct fx f;

	fx_init(&f);
	fx_up(&f);
	g_assert_cmpuint(timed_rw(&f, NVME_CMD_WRITE, 0, 8, true), ==,
			 f.p.fetch_latency + f.p.cmd_overhead + f.p.write_latency +
			 per_kib(f.p.write_ns_per_kib, 4096));
	fx_down(&f);
}

static void test_uncached_write_takes_media_latency(void)
{
	struct fx f;

	fx_init(&f);
	f.p.write_cache_enabled = false;
	fx_up(&f);
	g_assert_cmpuint(timed_rw(&f, NVME_CMD_WRITE, 0, 16, false), ==,
			 f.p.fetch_latency + f.p.cmd_overhead + f.p.write_latency +
			 per_kib(f.p.write_ns_per_kib, 8192));
	fx_down(&f);
}

static void test_read_latency_and_link(void)
{
	struct fx f;

	fx_init(&f);
	f.p.link_mbps = 1000;	/* 1 ns per byte */
	fx_up(&f);
	g_assert_cmpuint(timed_rw(&f, NVME_CMD_READ, 0, 64, false), ==,
			 f.p.fetch_latency + f.p.cmd_overhead + f.p.read_latency +
			 per_kib(f.p.read_ns_per_kib, 32768) + 32768);
	fx_down(&f);
}

/* Submit n commands at once, return each completion time after t0. */
static void burst(struct fx *f, const struct nvme_sqe *e, unsigned n,
		  sim_time *done)
{
	struct nvme_cqe c;
	sim_time t0 = now(f);

	for (unsigned i = 0; i < n; i++)
		g_assert_true(nvme_tester_submit(&f->t, 1, &e[i], NULL, NULL));
	for (unsigned i = 0; i < n; i++) {
		g_assert_true(nvme_tester_wait(&f->t, 1, &c, NULL));
		g_assert_cmpuint(NVME_CQE_STATUS(&c), ==, 0);
		done[i] = f->t.cqe_time - t0;
	}
}

static void test_media_units_bound_parallelism(void)
{
	struct fx f;
	struct nvme_sqe e[4];
	sim_time done[4];

	fx_init(&f);
	f.p.media_units = 2;
	fx_up(&f);
	for (unsigned i = 0; i < 4; i++)
		nvme_sqe_rw(&e[i], NVME_CMD_READ, 1, i * 8ull, 1, NVME_TESTER_DATA2, 0,
			    false);
	burst(&f, e, 4, done);
	sim_time one = f.p.read_latency + per_kib(f.p.read_ns_per_kib, 512);
	sim_time start = f.p.fetch_latency + f.p.cmd_overhead;
	g_assert_cmpuint(done[0], ==, start + one);
	g_assert_cmpuint(done[1], ==, start + one);
	g_assert_cmpuint(done[2], ==, start + 2 * one);
	g_assert_cmpuint(done[3], ==, start + 2 * one);
	fx_down(&f);
}

/* A Flush after a burst of cached writes completes when the last of them
 * has destaged, plus its own fixed cost. */
static void test_flush_waits_for_destage(void)
{
	struct fx f;
	struct nvme_sqe e[5];
	sim_time done[4], flush_done;
	uint64_t p1, p2;

	fx_init(&f);
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 65536, 8);
	g_assert_true(nvme_tester_prps(&f.t, NVME_TESTER_DATA, 65536, &p1, &p2, NULL));
	for (unsigned i = 0; i < 4; i++)
		nvme_sqe_rw(&e[i], NVME_CMD_WRITE, 1, i * 128ull, 128, p1, p2, false);
	nvme_sqe_flush(&e[4], 1);
	sim_time t0 = now(&f);
	burst(&f, e, 4, done);
	/* All four are fetched together and cached at once (no link limit). */
	sim_time cached = f.p.fetch_latency + f.p.cmd_overhead;
	g_assert_cmpuint(done[3], ==, cached + f.p.cache_latency);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 4 * 65536);
	sim_time t1 = now(&f);
	burst(&f, &e[4], 1, &flush_done);
	/* The destage ran from the moment they were cached, one after the
	 * other at 1000 MB/s: 65536 ns each. */
	g_assert_cmpuint(t1 + flush_done, ==,
			 t0 + cached + 4 * 65536 + f.p.flush_latency);
	g_assert_cmpuint(nvme_dev_cache_bytes(f.h.dev), ==, 0);
	fx_down(&f);
}

/* A Flush with nothing dirty costs only its fixed part. */
static void test_flush_clean_cache(void)
{
	struct fx f;
	struct nvme_sqe e;
	sim_time done;

	fx_init(&f);
	fx_up(&f);
	nvme_sqe_flush(&e, NVME_NSID_BROADCAST);
	burst(&f, &e, 1, &done);
	g_assert_cmpuint(done, ==, f.p.fetch_latency + f.p.cmd_overhead +
				   f.p.flush_latency);
	fx_down(&f);
}

/* With no room in the cache, a write waits for the destage to free it. */
static void test_full_cache_write_waits(void)
{
	struct fx f;
	struct nvme_sqe e[2];
	sim_time done[2];

	fx_init(&f);
	f.p.cache_bytes = 65536;
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 65536, 4);
	for (unsigned i = 0; i < 2; i++) {
		uint64_t p1, p2;
		nvme_tester_prps(&f.t, NVME_TESTER_DATA, 65536, &p1, &p2, NULL);
		nvme_sqe_rw(&e[i], NVME_CMD_WRITE, 1, i * 128ull, 128, p1, p2, false);
	}
	burst(&f, e, 2, done);
	sim_time cached = f.p.fetch_latency + f.p.cmd_overhead;
	g_assert_cmpuint(done[0], ==, cached + f.p.cache_latency);
	g_assert_cmpuint(done[1], ==, cached + 65536 + f.p.cache_latency);
	g_assert_cmpuint(nvme_dev_get_counters(f.h.dev)->cache_waits, ==, 1);
	fx_down(&f);
}

/* A burst of writes over a 1 ns per byte link, the last with FUA. */
static void write_burst(bool store_data, sim_time *done)
{
	struct fx f;
	struct nvme_sqe e[4];

	fx_init(&f);
	f.p.store_data = store_data;
	f.p.link_mbps = 1000;
	fx_up(&f);
	for (unsigned i = 0; i < 4; i++)
		nvme_sqe_rw(&e[i], NVME_CMD_WRITE, 1, i * 8ull, 8, NVME_TESTER_DATA,
			    0, i == 3);
	burst(&f, e, 4, done);
	fx_down(&f);
}

/* Without store_data a Write takes its turn on the link when it is
 * fetched, not in an event at its execution; with it, the Write still
 * executes in its own event. Both give the documented times. */
static void test_write_started_at_fetch_same_times(void)
{
	sim_time at_fetch[4], at_exec[4];
	struct fx f;

	write_burst(false, at_fetch);
	write_burst(true, at_exec);
	g_assert_cmpmem(at_fetch, sizeof(at_fetch), at_exec, sizeof(at_exec));
	base_params(&f.p);
	sim_time start = f.p.fetch_latency + f.p.cmd_overhead;
	g_assert_cmpuint(at_fetch[0], ==, start + 4096 + f.p.cache_latency);
	g_assert_cmpuint(at_fetch[1], ==, start + 2 * 4096 + f.p.cache_latency);
	g_assert_cmpuint(at_fetch[2], ==, start + 3 * 4096 + f.p.cache_latency);
	g_assert_cmpuint(at_fetch[3], ==, start + 4 * 4096 + f.p.write_latency +
			 per_kib(f.p.write_ns_per_kib, 4096));
	nvme_dev_params_clear(&f.p);
}

/* A Write that fails its checks posts its status when it executes and
 * takes no turn on the link. */
static void test_failed_write_status_at_exec(void)
{
	struct fx f;
	struct nvme_sqe e[2];
	struct nvme_cqe c;

	fx_init(&f);
	f.p.store_data = false;
	f.p.link_mbps = 1000;
	fx_up(&f);
	nvme_sqe_rw(&e[0], NVME_CMD_WRITE, 1, f.p.ns_blocks, 8, NVME_TESTER_DATA,
		    0, false);
	nvme_sqe_rw(&e[1], NVME_CMD_WRITE, 1, 0, 8, NVME_TESTER_DATA, 0, false);
	sim_time t0 = now(&f), start = f.p.fetch_latency + f.p.cmd_overhead;
	for (unsigned i = 0; i < 2; i++)
		g_assert_true(nvme_tester_submit(&f.t, 1, &e[i], NULL, NULL));
	g_assert_true(nvme_tester_wait(&f.t, 1, &c, NULL));
	g_assert_cmphex(NVME_CQE_STATUS(&c), ==, NVME_SC_LBA_RANGE | NVME_DNR);
	g_assert_cmpuint(f.t.cqe_time - t0, ==, start);
	g_assert_true(nvme_tester_wait(&f.t, 1, &c, NULL));
	g_assert_cmphex(NVME_CQE_STATUS(&c), ==, 0);
	g_assert_cmpuint(f.t.cqe_time - t0, ==, start + 4096 + f.p.cache_latency);
	g_assert_cmpuint(nvme_dev_get_counters(f.h.dev)->errors, ==, 1);
	fx_down(&f);
}

/* A reset drops Writes fetched but not yet executed: they are not counted
 * and leave the link to the writes after it. */
static void test_reset_drops_unexecuted_writes(void)
{
	struct fx f;
	struct nvme_sqe e;
	uint16_t cqs, sqs;

	fx_init(&f);
	f.p.store_data = false;
	f.p.link_mbps = 1;	/* 1 us per byte */
	fx_up(&f);
	nvme_sqe_rw(&e, NVME_CMD_WRITE, 1, 0, 8, NVME_TESTER_DATA, 0, false);
	for (unsigned i = 0; i < 4; i++)
		g_assert_true(nvme_tester_submit(&f.t, 1, &e, NULL, NULL));
	g_assert_true(nvme_tester_enable(&f.t, 16, NULL));
	g_assert_true(nvme_tester_create_io_queues(&f.t, IOQ_ENTRIES, &cqs, &sqs,
						   NULL));
	const struct nvme_dev_counters *k = nvme_dev_get_counters(f.h.dev);
	g_assert_cmpuint(k->writes, ==, 0);
	g_assert_cmpuint(k->bytes_written, ==, 0);
	g_assert_cmpuint(timed_rw(&f, NVME_CMD_WRITE, 0, 1, false), ==,
			 f.p.fetch_latency + f.p.cmd_overhead + 512 * SIM_USEC +
			 f.p.cache_latency);
	fx_down(&f);
}

/* Three reads around one that fails, announced by one doorbell or by one
 * each: the completion times and statuses, and the events it took. */
static uint64_t four_reads(bool one_doorbell, sim_time *done, uint16_t *status)
{
	struct fx f;
	struct nvme_sqe e[4];
	struct nvme_cqe c;

	fx_init(&f);
	f.p.store_data = false;
	fx_up(&f);
	for (unsigned i = 0; i < 4; i++)
		nvme_sqe_rw(&e[i], NVME_CMD_READ, 1, i == 1 ? f.p.ns_blocks : i * 8ull,
			    8, NVME_TESTER_DATA2, 0, false);
	struct nvme_tester_queue *q = &f.t.q[1];
	sim_time t0 = now(&f);
	uint64_t events = f.h.sim.events_run;
	for (unsigned i = 0; i < 4; i++) {
		if (!one_doorbell) {
			g_assert_true(nvme_tester_submit(&f.t, 1, &e[i], NULL, NULL));
			continue;
		}
		e[i].cid = q->next_cid++;
		g_assert_true(nvme_tester_mem_write(&f.t, q->sq_base + (uint64_t)
						    q->sq_tail * NVME_SQE_SIZE,
						    &e[i], sizeof(e[i]), NULL));
		q->sq_tail = (q->sq_tail + 1) % q->entries;
	}
	if (one_doorbell)
		g_assert_true(nvme_tester_reg_write(&f.t, NVME_REG_DBS + 8, 4,
						    q->sq_tail, NULL));
	for (unsigned i = 0; i < 4; i++) {
		g_assert_true(nvme_tester_wait(&f.t, 1, &c, NULL));
		status[i] = NVME_CQE_STATUS(&c);
		done[i] = f.t.cqe_time - t0;
	}
	events = f.h.sim.events_run - events;
	fx_down(&f);
	return events;
}

/* Commands fetched together share one execution event, and execute as
 * their own events would have executed them. */
static void test_one_doorbell_one_exec_event(void)
{
	sim_time together[4], apart[4];
	uint16_t st_together[4], st_apart[4];

	uint64_t ev_together = four_reads(true, together, st_together);
	uint64_t ev_apart = four_reads(false, apart, st_apart);
	g_assert_cmpmem(together, sizeof(together), apart, sizeof(apart));
	g_assert_cmpmem(st_together, sizeof(st_together), st_apart,
			sizeof(st_apart));
	g_assert_cmphex(st_together[0], ==, NVME_SC_LBA_RANGE | NVME_DNR);
	g_assert_cmpuint(ev_together, ==, ev_apart - 3);
}

/* Jitter draws from the device's own stream: same seed, same times. */
static sim_time jittered_read(uint64_t seed)
{
	struct fx f;
	g_autoptr(GError) err = NULL;
	struct nvme_cqe c;

	fx_init(&f);
	f.p.media_jitter = 0.5;
	g_assert_true(nvme_model_host_init(&f.h, &f.p, seed, &err));
	nvme_tester_init(&f.t, &nvme_model_transport, &f.h, SIM_SEC);
	g_assert_true(nvme_tester_enable(&f.t, 16, NULL));
	uint16_t a, b;
	g_assert_true(nvme_tester_create_io_queues(&f.t, 8, &a, &b, NULL));
	sim_time t0 = now(&f);
	g_assert_true(nvme_tester_rw(&f.t, NVME_CMD_READ, 0, 1, NVME_TESTER_DATA,
				     false, &c, NULL));
	sim_time t = f.t.cqe_time - t0;
	fx_down(&f);
	return t;
}

static void test_jitter_is_seeded(void)
{
	g_assert_cmpuint(jittered_read(7), ==, jittered_read(7));
	g_assert_cmpuint(jittered_read(7), !=, jittered_read(8));
}

/* --- power loss ------------------------------------------------------------------- */

static const struct nvme_durability_summary *lose_power(struct fx *f)
{
	nvme_dev_power_loss(f->h.dev);
	const struct nvme_durability_summary *s = nvme_dev_durability_summary(f->h.dev);
	g_assert_true(s->available);
	g_assert_true(s->complete);
	return s;
}

static void write_n(struct fx *f, unsigned n, bool fua)
{
	fill(f, NVME_TESTER_DATA, 4096, 1);
	for (unsigned i = 0; i < n; i++)
		g_assert_cmpuint(rw(f, NVME_CMD_WRITE, i * 8ull, 8, NVME_TESTER_DATA,
				    fua), ==, 0);
}

static void test_power_loss_cache_on_loses_data(void)
{
	struct fx f;

	fx_init(&f);
	f.p.destage_mbps = 1;	/* 4 KiB take 4 ms: nothing destages */
	fx_up(&f);
	write_n(&f, 4, false);
	const struct nvme_durability_summary *s = lose_power(&f);
	g_assert_cmpuint(s->acked_writes, ==, 4);
	g_assert_cmpuint(s->lost_writes, ==, 4);
	g_assert_cmpuint(s->lost_blocks, ==, 32);
	g_assert_cmpuint(s->violations, ==, 0);
	fx_down(&f);
}

static void test_power_loss_fua_survives(void)
{
	struct fx f;

	fx_init(&f);
	f.p.destage_mbps = 1;
	fx_up(&f);
	write_n(&f, 4, true);
	const struct nvme_durability_summary *s = lose_power(&f);
	g_assert_cmpuint(s->lost_writes, ==, 0);
	g_assert_cmpuint(s->durable_blocks, ==, 32);
	g_assert_cmpuint(s->violations, ==, 0);
	fx_down(&f);
}

static void test_power_loss_flushed_survives(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	f.p.destage_mbps = 1;
	fx_up(&f);
	write_n(&f, 4, false);
	nvme_sqe_flush(&e, 1);
	g_assert_cmpuint(status_of(&f, 1, &e), ==, 0);
	/* One more cached write after the flush may be lost. */
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 1000, 8, NVME_TESTER_DATA, false), ==, 0);
	const struct nvme_durability_summary *s = lose_power(&f);
	g_assert_cmpuint(s->acked_writes, ==, 5);
	g_assert_cmpuint(s->durable_blocks, ==, 32);
	g_assert_cmpuint(s->lost_writes, ==, 1);
	g_assert_cmpuint(s->violations, ==, 0);
	fx_down(&f);
}

static void test_power_loss_cache_off_survives(void)
{
	struct fx f;

	fx_init(&f);
	f.p.write_cache_enabled = false;
	fx_up(&f);
	write_n(&f, 4, false);
	const struct nvme_durability_summary *s = lose_power(&f);
	g_assert_cmpuint(s->lost_writes, ==, 0);
	g_assert_cmpuint(s->durable_blocks, ==, 32);
	g_assert_cmpuint(s->violations, ==, 0);
	fx_down(&f);
}

static void test_power_loss_after_n_commands(void)
{
	struct fx f;
	struct nvme_sqe e[6];
	struct nvme_cqe c;

	fx_init(&f);
	f.p.power_loss_after_commands = 3;
	f.p.destage_mbps = 1;
	fx_up(&f);
	fill(&f, NVME_TESTER_DATA, 512, 2);
	for (unsigned i = 0; i < 6; i++)
		nvme_sqe_rw(&e[i], NVME_CMD_WRITE, 1, i, 1, NVME_TESTER_DATA, 0, false);
	for (unsigned i = 0; i < 6; i++)
		g_assert_true(nvme_tester_submit(&f.t, 1, &e[i], NULL, NULL));
	for (unsigned i = 0; i < 3; i++)
		g_assert_true(nvme_tester_wait(&f.t, 1, &c, NULL));
	g_autoptr(GError) err = NULL;
	g_assert_false(nvme_tester_wait(&f.t, 1, &c, &err));
	g_assert_nonnull(err);
	g_assert_false(nvme_dev_powered(f.h.dev));
	const struct nvme_durability_summary *s =
		nvme_dev_durability_summary(f.h.dev);
	g_assert_true(s->available);
	g_assert_cmpuint(s->acked_writes, ==, 3);
	fx_down(&f);
}

static void test_power_loss_report_forms(void)
{
	struct fx f;

	fx_init(&f);
	f.p.destage_mbps = 1;
	fx_up(&f);
	write_n(&f, 1, true);
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 64, 8, NVME_TESTER_DATA, false), ==, 0);
	lose_power(&f);
	g_autofree char *text = nvme_dev_durability_report_text(f.h.dev);
	g_assert_nonnull(strstr(text, "durable   lba 0+8"));
	g_assert_nonnull(strstr(text, "lost      lba 64+8"));
	g_assert_nonnull(strstr(text, "violations 0 writes"));
	json_object *j = nvme_dev_durability_report_json(f.h.dev), *v;
	g_assert_true(json_object_object_get_ex(j, "ranges", &v));
	g_assert_cmpuint(json_object_array_length(v), ==, 2);
	g_assert_true(json_object_object_get_ex(j, "violations", &v));
	g_assert_cmpint(json_object_get_int64(v), ==, 0);
	json_object_put(j);
	fx_down(&f);
}

/* Right after completion: a FUA write is on media, a cached one is not
 * until it destages or a Flush completes. */
static void test_on_media_query(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	f.p.destage_mbps = 1;
	fx_up(&f);
	write_n(&f, 1, true);
	g_assert_true(nvme_dev_on_media(f.h.dev, 0, 8));
	g_assert_cmpuint(rw(&f, NVME_CMD_WRITE, 64, 8, NVME_TESTER_DATA, false), ==, 0);
	g_assert_false(nvme_dev_on_media(f.h.dev, 64, 8));
	g_assert_false(nvme_dev_on_media(f.h.dev, 0, 72));
	nvme_sqe_flush(&e, 1);
	g_assert_cmpuint(status_of(&f, 1, &e), ==, 0);
	g_assert_true(nvme_dev_on_media(f.h.dev, 64, 8));
	g_assert_false(nvme_dev_on_media(f.h.dev, 1000, 8));	/* never written */
	fx_down(&f);
}

/* Writes fetched but not yet executed when power goes were never
 * counted. */
static void test_power_loss_unexecuted_writes_uncounted(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	f.p.store_data = false;
	fx_up(&f);
	write_n(&f, 1, false);
	nvme_sqe_rw(&e, NVME_CMD_WRITE, 1, 8, 8, NVME_TESTER_DATA, 0, true);
	g_assert_true(nvme_tester_submit(&f.t, 1, &e, NULL, NULL));
	lose_power(&f);
	const struct nvme_dev_counters *k = nvme_dev_get_counters(f.h.dev);
	g_assert_cmpuint(k->writes, ==, 1);
	g_assert_cmpuint(k->fua_writes, ==, 0);
	g_assert_cmpuint(k->bytes_written, ==, 4096);
	fx_down(&f);
}

/* Registers read as all ones once the device is gone. */
static void test_power_loss_device_gone(void)
{
	struct fx f;

	fx_init(&f);
	fx_up(&f);
	nvme_dev_power_loss(f.h.dev);
	g_assert_cmphex(nvme_dev_mmio_read(f.h.dev, NVME_REG_CSTS, 4), ==,
			0xffffffffu);
	fx_down(&f);
}

/* --- counters ---------------------------------------------------------------------- */

static void test_counters(void)
{
	struct fx f;
	struct nvme_sqe e;

	fx_init(&f);
	fx_up(&f);
	write_n(&f, 2, false);
	write_n(&f, 1, true);
	g_assert_cmpuint(rw(&f, NVME_CMD_READ, 0, 8, NVME_TESTER_DATA2, false), ==, 0);
	nvme_sqe_flush(&e, 1);
	g_assert_cmpuint(status_of(&f, 1, &e), ==, 0);
	const struct nvme_dev_counters *k = nvme_dev_get_counters(f.h.dev);
	g_assert_cmpuint(k->writes, ==, 3);
	g_assert_cmpuint(k->fua_writes, ==, 1);
	g_assert_cmpuint(k->reads, ==, 1);
	g_assert_cmpuint(k->flushes_completed, ==, 1);
	g_assert_cmpuint(k->bytes_written, ==, 3 * 4096);
	g_assert_cmpuint(k->media_bytes_written, ==, 3 * 4096);
	/* The second write is cached 3.3 us after the first (its CQE, the
	 * next fetch and command overhead), before the first's 4.1 us
	 * destage has ended: both were in the cache at once. */
	g_assert_cmpuint(k->cache_peak_bytes, ==, 8192);
	json_object *j = nvme_dev_counters_json(f.h.dev), *v;
	g_assert_true(json_object_object_get_ex(j, "fua_writes", &v));
	g_assert_cmpint(json_object_get_int64(v), ==, 1);
	json_object_put(j);
	fx_down(&f);
}

int main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/nvme/register/cap-fields", test_cap_fields);
	g_test_add_func("/nvme/register/ready-after-enable-latency",
			test_ready_after_enable_latency);
	g_test_add_func("/nvme/register/misaligned-asq-sets-cfs",
			test_enable_misaligned_asq_fails);
	g_test_add_func("/nvme/register/disable-drops-queues",
			test_disable_clears_ready_and_queues);
	g_test_add_func("/nvme/register/shutdown-waits-for-destage",
			test_shutdown_waits_for_destage);
	g_test_add_func("/nvme/identify/controller", test_identify_controller);
	g_test_add_func("/nvme/identify/namespace", test_identify_namespace);
	g_test_add_func("/nvme/identify/inactive-namespace-zero-filled",
			test_identify_inactive_namespace_is_zero);
	g_test_add_func("/nvme/identify/active-namespace-list",
			test_identify_active_list);
	for (unsigned i = 0; i < G_N_ELEMENTS(status_cases); i++)
		g_test_add_data_func(status_cases[i].path, &status_cases[i],
				     test_status);
	g_test_add_func("/nvme/status/queue-works-after-errors",
			test_queue_works_after_errors);
	for (unsigned i = 0; i < G_N_ELEMENTS(vwc_cases); i++)
		g_test_add_data_func(vwc_cases[i].path, &vwc_cases[i], test_vwc_get);
	g_test_add_func("/nvme/features/vwc-set-then-get", test_vwc_set_then_get);
	g_test_add_func("/nvme/features/vwc-absent-unsupported",
			test_vwc_absent_is_unsupported);
	g_test_add_func("/nvme/features/vwc-off-flushes-first",
			test_vwc_off_flushes_first);
	g_test_add_func("/nvme/features/num-queues-limits-creation",
			test_num_queues_limits_creation);
	g_test_add_func("/nvme/irq/per-completion-on-vector",
			test_irq_per_completion);
	g_test_add_func("/nvme/irq/polled-cq-raises-none",
			test_polled_cq_raises_none);
	g_test_add_func("/nvme/irq/coalescing-threshold",
			test_irq_coalescing_threshold);
	g_test_add_func("/nvme/irq/coalescing-time", test_irq_coalescing_time);
	g_test_add_func("/nvme/io/data-integrity-across-wrap",
			test_data_integrity_across_wrap);
	g_test_add_func("/nvme/io/prp-list-transfer", test_prp_list_transfer);
	g_test_add_func("/nvme/io/write-zeroes-reads-zero",
			test_write_zeroes_reads_zero);
	g_test_add_func("/nvme/io/deallocate-reads-zero", test_deallocate_reads_zero);
	g_test_add_func("/nvme/timing/cached-write-takes-cache-latency",
			test_cached_write_takes_cache_latency);
	g_test_add_func("/nvme/timing/fua-write-takes-media-latency",
			test_fua_write_takes_media_latency);
	g_test_add_func("/nvme/timing/uncached-write-takes-media-latency",
			test_uncached_write_takes_media_latency);
	g_test_add_func("/nvme/timing/read-latency-and-link",
			test_read_latency_and_link);
	g_test_add_func("/nvme/timing/media-units-bound-parallelism",
			test_media_units_bound_parallelism);
	g_test_add_func("/nvme/timing/flush-waits-for-destage",
			test_flush_waits_for_destage);
	g_test_add_func("/nvme/timing/flush-clean-cache", test_flush_clean_cache);
	g_test_add_func("/nvme/timing/full-cache-write-waits",
			test_full_cache_write_waits);
	g_test_add_func("/nvme/timing/write-started-at-fetch-same-times",
			test_write_started_at_fetch_same_times);
	g_test_add_func("/nvme/timing/failed-write-status-at-exec",
			test_failed_write_status_at_exec);
	g_test_add_func("/nvme/timing/reset-drops-unexecuted-writes",
			test_reset_drops_unexecuted_writes);
	g_test_add_func("/nvme/timing/one-doorbell-one-exec-event",
			test_one_doorbell_one_exec_event);
	g_test_add_func("/nvme/timing/jitter-is-seeded", test_jitter_is_seeded);
	g_test_add_func("/nvme/power/cache-on-no-flush-loses-data",
			test_power_loss_cache_on_loses_data);
	g_test_add_func("/nvme/power/fua-survives", test_power_loss_fua_survives);
	g_test_add_func("/nvme/power/flushed-survives",
			test_power_loss_flushed_survives);
	g_test_add_func("/nvme/power/cache-off-survives",
			test_power_loss_cache_off_survives);
	g_test_add_func("/nvme/power/after-n-commands",
			test_power_loss_after_n_commands);
	g_test_add_func("/nvme/power/report-text-and-json",
			test_power_loss_report_forms);
	g_test_add_func("/nvme/power/on-media-query", test_on_media_query);
	g_test_add_func("/nvme/power/unexecuted-writes-uncounted",
			test_power_loss_unexecuted_writes_uncounted);
	g_test_add_func("/nvme/power/device-gone", test_power_loss_device_gone);
	g_test_add_func("/nvme/counters", test_counters);
	return g_test_run();
}
