/*
 * The QEMU conformance suite: the same NVMe command sequences go to QEMU's
 * emulated NVMe (qtest, sim/validate/qtest.c) and to storsim's device model (the
 * "qemu-nvme" profile, with the cache state QEMU's drive options imply),
 * through the same host-side driver (sim/validate/nvme_tester.c); registers,
 * Identify fields, feature values, completion statuses, data and the
 * durability of writes are compared.
 *
 * Where QEMU departs from the NVMe Base Specification 2.0 the model
 * follows the specification, and the difference is listed in
 * known_differences[] with its reason; any other difference is reported
 * as DIFFERENT and fails the run.
 *
 * Parameters: --timeout (seconds, each wait on QEMU), --qemu (binary),
 * --keep-temp, --output-format. Sources: reference/qemu-nvme-and-libvirt.md
 * (behaviour observed on Debian 12's QEMU 7.2, the cache-mode table of
 * 1.1, the error statuses of 1.4 and 3), QEMU 7.2 block/io.c for the
 * BDRV_REQ_FUA flag (10h) that the write trace reports.
 */
#include <stdio.h>
#include <string.h>

#include "nvme_tester.h"
#include "qtest.h"
#include "engine/util.h"
#include "validate.h"
#include "calibrate/validate_real.h"
#include "cli/cli.h"
#include "system/profile.h"

#define TRY(x) do { if (!(x)) return false; } while (0)

/* --- known differences ----------------------------------------------------- */

struct known_difference {
	const char *check;	/* without a "[cache=...] " prefix */
	const char *qemu;	/* what QEMU answers */
	const char *reason;
};

static const struct known_difference known_differences[] = {
	{"CAP.CSS", "0xc1",
	 "QEMU also advertises I/O command set selection and admin-only; the "
	 "model implements the NVM command set only"},
	{"Identify Namespace 1 NLBAF", "7",
	 "QEMU lists eight LBA formats (512 B and 4 KiB, with and without "
	 "metadata); the model has one"},
	{"Identify Controller OACS", "0x010a",
	 "QEMU implements Format NVM, Namespace Management and Doorbell Buffer "
	 "Config; the model has none of these optional admin commands"},
	{"Identify Controller ONCS", "0x015d",
	 "QEMU also implements Compare, Timestamp and Copy; the model implements "
	 "Dataset Management, Write Zeroes and Save/Select"},
	{"Identify Controller SGLS", "0x00000001",
	 "QEMU supports SGLs for I/O; the model supports PRPs only"},
	{"Get Features VWC (default)", "0",
	 "QEMU's default is 0 whatever the cache mode; the model reports its "
	 "power-on state"},
	{"Get Features VWC (saved)", "0",
	 "nothing is saveable, so SEL=saved answers the default, which differs "
	 "as above"},
	{"Get Features VWC, reserved SEL 4", "SCT=0 SC=0x00 DNR=0",
	 "QEMU treats a reserved SEL as current; the specification reserves it "
	 "and the model answers Invalid Field"},
	{"Set Features Number of Queues 2/2 (allocated)", "0x003f003f",
	 "QEMU always allocates its maximum; the model allocates what was asked "
	 "(the specification allows either)"},
	{"Set Features Interrupt Coalescing", "SCT=1 SC=0x0e DNR=1",
	 "QEMU does not let the feature change; the model implements interrupt "
	 "coalescing"},
	{"Delete I/O CQ that does not exist", "SCT=1 SC=0x00 DNR=1",
	 "the specification names Invalid Queue Identifier for Delete I/O CQ; "
	 "QEMU answers Completion Queue Invalid"},
	{"Write NSID FFFFFFFFh", "SCT=0 SC=0x02 DNR=1",
	 "Write does not take the broadcast NSID, so the model answers Invalid "
	 "Namespace or Format as for any invalid NSID; QEMU looks it up as an "
	 "inactive namespace"},
	{"Write with PRP1 not dword aligned", "SCT=0 SC=0x00 DNR=0",
	 "QEMU checks only PRP2 and list entries; the specification requires "
	 "dword alignment (PRP Offset Invalid)"},
	{"Read with the fused bit set", "SCT=0 SC=0x02 DNR=0",
	 "QEMU omits DNR; resubmitting fails again, so the model sets it"},
	{"Deallocate past the end", "SCT=0 SC=0x00 DNR=0",
	 "QEMU skips out-of-range ranges silently; the model reports LBA Out of "
	 "Range"},
	{"FUA write on media at completion", "no",
	 "QEMU ignores FUA; the model follows the spec"},
};

static const char *strip_config(const char *check)
{
	if (check[0] == '[') {
		const char *end = strstr(check, "] ");
		if (end)
			return end + 2;
	}
	return check;
}

enum validate_verdict validate_verdict(const char *check, const char *qemu,
				       const char *storsim, const char **reason)
{
	const char *bare = strip_config(check);

	*reason = "";
	if (strcmp(qemu, storsim) == 0)
		return VALIDATE_AGREE;
	for (unsigned i = 0; i < G_N_ELEMENTS(known_differences); i++) {
		const struct known_difference *k = &known_differences[i];
		if (strcmp(k->check, bare) == 0 && strcmp(k->qemu, qemu) == 0) {
			*reason = k->reason;
			return VALIDATE_KNOWN;
		}
	}
	return VALIDATE_DIFFERENT;
}

/* --- one side of the comparison -------------------------------------------- */

struct row {
	char *check, *value;
};

static void row_free(gpointer p)
{
	struct row *r = p;
	g_free(r->check);
	g_free(r->value);
	g_free(r);
}

struct vconfig {
	const char *cache;		/* -drive cache= */
	const char *write_cache;	/* -device nvme write-cache=, or NULL */
	bool wce;			/* the cache state QEMU ends up with */
	bool full;			/* the whole suite, or the cache checks */
};

struct vopts {
	char *qemu;
	unsigned timeout_ms;
	bool keep_temp, json;
};

struct side {
	bool model;
	struct nvme_tester t;
	struct qtest *qt;
	struct nvme_qemu_host qh;
	struct nvme_model_host mh;
	const char *prefix;	/* "[cache=...] " or "" */
	unsigned mdts;		/* from Identify Controller */
	GPtrArray *rows;
};

static void put(struct side *s, const char *check, const char *fmt, ...)
	G_GNUC_PRINTF(3, 4);

static void put(struct side *s, const char *check, const char *fmt, ...)
{
	struct row *r = g_new(struct row, 1);
	va_list ap;

	va_start(ap, fmt);
	r->value = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	r->check = g_strconcat(s->prefix, check, NULL);
	g_ptr_array_add(s->rows, r);
}

static void put_status(struct side *s, const char *check, const struct nvme_cqe *c)
{
	uint16_t st = NVME_CQE_STATUS(c);
	put(s, check, "SCT=%u SC=0x%02x DNR=%u", NVME_STATUS_SCT(st),
	    NVME_STATUS_SC(st), NVME_STATUS_IS_DNR(st));
}

static char *config_label(const struct vconfig *c)
{
	return g_strdup_printf("cache=%s%s%s", c->cache,
			       c->write_cache ? ",write-cache=" : "",
			       c->write_cache ? c->write_cache : "");
}

static bool open_qemu(struct side *s, const struct vopts *o,
		      const struct vconfig *c, GError **err)
{
	struct qtest_options qo = {
		.qemu = o->qemu, .cache = c->cache, .write_cache = c->write_cache,
		.serial = "storsim0001", .image_bytes = 64 << 20,
		.timeout_ms = o->timeout_ms, .keep_temp = o->keep_temp,
		/* The block layer's write trace shows whether a write was
		 * asked to be stable (BDRV_REQ_FUA). */
		.trace = "bdrv_co_pwritev_part",
	};

	s->qt = qtest_start(&qo, err);
	TRY(s->qt);
	TRY(nvme_qemu_host_init(&s->qh, s->qt, err));
	nvme_tester_init(&s->t, &nvme_qemu_transport, &s->qh,
			 (uint64_t)o->timeout_ms * 1000000);
	return true;
}

static bool open_model(struct side *s, const struct vconfig *c, GError **err)
{
	struct nvme_dev_params p;
	bool ok;

	nvme_dev_params_init(&p);
	ok = profile_load_nvme(&p, "qemu-nvme", err);
	p.write_cache_enabled = c->wce;
	p.store_data = true;
	p.track_durability = true;
	ok = ok && nvme_model_host_init(&s->mh, &p, 1, err);
	nvme_dev_params_clear(&p);
	TRY(ok);
	s->model = true;
	/* Simulated seconds: far more than any command of the suite takes. */
	nvme_tester_init(&s->t, &nvme_model_transport, &s->mh, 10 * SIM_SEC);
	return true;
}

static void close_side(struct side *s)
{
	if (s->model)
		nvme_model_host_destroy(&s->mh);
	qtest_stop(s->qt);
	s->qt = NULL;
	s->model = false;
}

/* Where QEMU's trace ends now, so that a later look sees only what a
 * command logged after this point (0 for the model). */
static size_t trace_mark(struct side *s)
{
	if (s->model)
		return 0;
	g_autofree char *trace = qtest_trace_text(s->qt);
	return trace ? strlen(trace) : 0;
}

/*
 * Whether the write of nlb blocks at slba, issued after `mark`, was on
 * stable media when it completed: the model answers from its durability
 * tracker; QEMU from its block-layer trace, where a write the device asks
 * to be stable carries BDRV_REQ_FUA (10h) on the node it enters (the
 * file node below may then emulate it with a flush).
 */
static bool write_on_media(struct side *s, size_t mark, uint64_t slba,
			   uint32_t nlb, bool *yes, GError **err)
{
	uint64_t off = slba << s->t.lba_shift, len = (uint64_t)nlb << s->t.lba_shift;
	bool seen = false;

	if (s->model) {
		*yes = nvme_dev_on_media(s->mh.dev, slba, nlb);
		return true;
	}
	g_autofree char *trace = qtest_trace_text(s->qt);
	g_autofree char *needle = g_strdup_printf(" offset %" G_GUINT64_FORMAT
						  " bytes %" G_GUINT64_FORMAT " flags ",
						  off, len);
	*yes = false;
	for (const char *p = trace && strlen(trace) > mark ? trace + mark : NULL;
	     p && (p = strstr(p, needle)); p++) {
		seen = true;
		*yes |= (g_ascii_strtoull(p + strlen(needle), NULL, 16) & 0x10) != 0;
	}
	if (!seen)
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "QEMU's trace has no write of %" G_GUINT64_FORMAT
			    " bytes at %" G_GUINT64_FORMAT, len, off);
	return seen;
}

/* --- the suite ---------------------------------------------------------------- */

static bool admin(struct side *s, const struct nvme_sqe *e, struct nvme_cqe *c,
		  GError **err)
{
	return nvme_tester_cmd(&s->t, 0, e, c, err);
}

static bool io(struct side *s, const struct nvme_sqe *e, struct nvme_cqe *c,
	       GError **err)
{
	return nvme_tester_cmd(&s->t, 1, e, c, err);
}

static bool admin_status(struct side *s, const char *check,
			 const struct nvme_sqe *e, GError **err)
{
	struct nvme_cqe c;
	TRY(admin(s, e, &c, err));
	put_status(s, check, &c);
	return true;
}

static bool io_status(struct side *s, const char *check, const struct nvme_sqe *e,
		      GError **err)
{
	struct nvme_cqe c;
	TRY(io(s, e, &c, err));
	put_status(s, check, &c);
	return true;
}

static bool pattern(struct side *s, uint64_t addr, size_t len, unsigned seed,
		    GError **err)
{
	g_autofree uint8_t *b = g_malloc(len);
	for (size_t i = 0; i < len; i++)
		b[i] = (uint8_t)(seed * 29 + i * 13 + (i >> 8));
	return nvme_tester_mem_write(&s->t, addr, b, len, err);
}

static bool equal_mem(struct side *s, uint64_t a, uint64_t b, size_t len,
		      bool *same, GError **err)
{
	g_autofree uint8_t *x = g_malloc(len), *y = g_malloc(len);
	TRY(nvme_tester_mem_read(&s->t, a, x, len, err));
	TRY(nvme_tester_mem_read(&s->t, b, y, len, err));
	*same = memcmp(x, y, len) == 0;
	return true;
}

static bool rw(struct side *s, uint8_t opc, uint64_t slba, uint32_t nlb,
	       uint64_t addr, bool fua, struct nvme_cqe *c, GError **err)
{
	return nvme_tester_rw(&s->t, opc, slba, nlb, addr, fua, c, err);
}

/* Write, read back elsewhere, compare: "match", or the failing step. */
static bool roundtrip(struct side *s, const char *check, uint64_t slba,
		      uint32_t nlb, unsigned seed, GError **err)
{
	size_t len = (size_t)nlb << s->t.lba_shift;
	struct nvme_cqe w, r;
	bool same;

	TRY(pattern(s, NVME_TESTER_DATA, len, seed, err));
	TRY(rw(s, NVME_CMD_WRITE, slba, nlb, NVME_TESTER_DATA, false, &w, err));
	TRY(rw(s, NVME_CMD_READ, slba, nlb, NVME_TESTER_DATA2, false, &r, err));
	TRY(equal_mem(s, NVME_TESTER_DATA, NVME_TESTER_DATA2, len, &same, err));
	put(s, check, "%s", NVME_CQE_STATUS(&w) ? "write failed" :
			    NVME_CQE_STATUS(&r) ? "read failed" :
			    same ? "match" : "MISMATCH");
	return true;
}

struct id_field {
	const char *name;
	unsigned off, len;
	enum { F_HEX, F_DEC, F_TEXT } fmt;
};

static const struct id_field ctrl_fields[] = {
	{"VID", NVME_IDC_VID, 2, F_HEX}, {"SSVID", NVME_IDC_SSVID, 2, F_HEX},
	{"SN", NVME_IDC_SN, 20, F_TEXT}, {"MN", NVME_IDC_MN, 40, F_TEXT},
	{"MDTS", NVME_IDC_MDTS, 1, F_DEC}, {"VER", NVME_IDC_VER, 4, F_HEX},
	{"OACS", NVME_IDC_OACS, 2, F_HEX}, {"SQES", NVME_IDC_SQES, 1, F_HEX},
	{"CQES", NVME_IDC_CQES, 1, F_HEX}, {"NN", NVME_IDC_NN, 4, F_DEC},
	{"ONCS", NVME_IDC_ONCS, 2, F_HEX}, {"FUSES", NVME_IDC_FUSES, 2, F_HEX},
	{"VWC", NVME_IDC_VWC, 1, F_HEX}, {"SGLS", NVME_IDC_SGLS, 4, F_HEX},
};

static const struct id_field ns_fields[] = {
	{"NSZE", NVME_IDNS_NSZE, 8, F_DEC}, {"NCAP", NVME_IDNS_NCAP, 8, F_DEC},
	{"NUSE", NVME_IDNS_NUSE, 8, F_DEC}, {"NLBAF", NVME_IDNS_NLBAF, 1, F_DEC},
	{"FLBAS", NVME_IDNS_FLBAS, 1, F_HEX},
	{"LBAF0 LBADS", NVME_IDNS_LBAF_LBADS(0), 1, F_DEC},
};

static void put_fields(struct side *s, const char *what, const uint8_t *id,
		       const struct id_field *f, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		g_autofree char *check = g_strdup_printf("%s %s", what, f[i].name);
		uint64_t v = 0;

		if (f[i].fmt == F_TEXT) {
			g_autofree char *t = g_strndup((const char *)id + f[i].off,
						       f[i].len);
			put(s, check, "'%s'", g_strchomp(t));
			continue;
		}
		for (unsigned b = 0; b < f[i].len; b++)
			v |= (uint64_t)id[f[i].off + b] << (8 * b);
		if (f[i].fmt == F_DEC)
			put(s, check, "%" G_GUINT64_FORMAT, v);
		else
			put(s, check, "0x%0*" G_GINT64_MODIFIER "x", (int)f[i].len * 2, v);
	}
}

static bool suite_registers(struct side *s, GError **err)
{
	uint64_t cap, vs;

	TRY(nvme_tester_reg_read(&s->t, NVME_REG_CAP, 8, &cap, err));
	TRY(nvme_tester_reg_read(&s->t, NVME_REG_VS, 4, &vs, err));
	put(s, "CAP.MQES", "%u", NVME_CAP_MQES(cap));
	put(s, "CAP.CQR", "%u", NVME_CAP_CQR(cap));
	put(s, "CAP.TO", "%u", NVME_CAP_TO(cap));
	put(s, "CAP.DSTRD", "%u", NVME_CAP_DSTRD(cap));
	put(s, "CAP.CSS", "0x%02x", NVME_CAP_CSS(cap));
	put(s, "CAP.MPSMIN", "%u", NVME_CAP_MPSMIN(cap));
	put(s, "CAP.MPSMAX", "%u", NVME_CAP_MPSMAX(cap));
	put(s, "VS", "0x%08x", (unsigned)vs);
	TRY(nvme_tester_enable(&s->t, 16, err));
	put(s, "CC.EN = 1 reaches CSTS.RDY = 1", "yes");
	return true;
}

static bool suite_identify(struct side *s, GError **err)
{
	uint8_t id[NVME_IDENTIFY_SIZE], zero[NVME_IDENTIFY_SIZE] = {0};
	struct nvme_cqe c;
	struct nvme_sqe e;

	TRY(nvme_tester_identify(&s->t, NVME_CNS_CTRL, 0, id, &c, err));
	put_status(s, "Identify Controller", &c);
	put_fields(s, "Identify Controller", id, ctrl_fields,
		   G_N_ELEMENTS(ctrl_fields));
	s->mdts = id[NVME_IDC_MDTS];
	TRY(nvme_tester_identify(&s->t, NVME_CNS_NS, 1, id, &c, err));
	put_status(s, "Identify Namespace 1", &c);
	put_fields(s, "Identify Namespace 1", id, ns_fields, G_N_ELEMENTS(ns_fields));
	s->t.lba_shift = id[NVME_IDNS_LBAF_LBADS(0)];
	TRY(nvme_tester_identify(&s->t, NVME_CNS_NS, 2, id, &c, err));
	put(s, "Identify Namespace 2 (inactive)", "%s, %s",
	    NVME_CQE_STATUS(&c) ? "failed" : "success",
	    memcmp(id, zero, sizeof(id)) ? "data" : "zero-filled");
	TRY(nvme_tester_identify(&s->t, NVME_CNS_NS_ACTIVE_LIST, 0, id, &c, err));
	put(s, "Identify active NSID list", "%u %u", nvme_get32(id),
	    nvme_get32(id + 4));
	nvme_sqe_identify(&e, 0xff, 0, NVME_TESTER_IDENT);
	TRY(admin_status(s, "Identify CNS FFh", &e, err));
	nvme_sqe_identify(&e, NVME_CNS_NS, 0, NVME_TESTER_IDENT);
	TRY(admin_status(s, "Identify Namespace NSID 0", &e, err));
	nvme_sqe_identify(&e, NVME_CNS_NS, NVME_NSID_BROADCAST, NVME_TESTER_IDENT);
	return admin_status(s, "Identify Namespace NSID FFFFFFFFh", &e, err);
}

static bool get_feature(struct side *s, const char *check, uint8_t fid,
			unsigned sel, GError **err)
{
	struct nvme_sqe e;
	struct nvme_cqe c;

	nvme_sqe_get_features(&e, fid, sel, 0);
	TRY(admin(s, &e, &c, err));
	if (NVME_CQE_STATUS(&c))
		put_status(s, check, &c);
	else
		put(s, check, "%u", c.result);
	return true;
}

static bool set_vwc(struct side *s, const char *check, uint32_t v, GError **err)
{
	struct nvme_sqe e;
	nvme_sqe_set_features(&e, NVME_FEAT_VOLATILE_WC, false, v);
	TRY(admin_status(s, check, &e, err));
	return get_feature(s, v ? "Get Features VWC after setting 1" :
				  "Get Features VWC after setting 0",
			   NVME_FEAT_VOLATILE_WC, NVME_SEL_CURRENT, err);
}

static bool suite_features(struct side *s, GError **err)
{
	struct nvme_sqe e;
	struct nvme_cqe c;

	TRY(get_feature(s, "Get Features VWC (current)", NVME_FEAT_VOLATILE_WC,
			NVME_SEL_CURRENT, err));
	TRY(get_feature(s, "Get Features VWC (default)", NVME_FEAT_VOLATILE_WC,
			NVME_SEL_DEFAULT, err));
	TRY(get_feature(s, "Get Features VWC (saved)", NVME_FEAT_VOLATILE_WC,
			NVME_SEL_SAVED, err));
	TRY(get_feature(s, "Get Features VWC (supported capabilities)",
			NVME_FEAT_VOLATILE_WC, NVME_SEL_SUPPORTED, err));
	TRY(set_vwc(s, "Set Features VWC = 0", 0, err));
	TRY(set_vwc(s, "Set Features VWC = 1", 1, err));
	nvme_sqe_set_features(&e, NVME_FEAT_VOLATILE_WC, true, 1);
	TRY(admin_status(s, "Set Features VWC with SV = 1", &e, err));
	nvme_sqe_set_features(&e, NVME_FEAT_VOLATILE_WC, false, 1);
	e.nsid = 1;
	TRY(admin_status(s, "Set Features VWC with NSID 1", &e, err));
	nvme_sqe_get_features(&e, 0x7f, NVME_SEL_CURRENT, 0);
	TRY(admin_status(s, "Get Features FID 7Fh", &e, err));
	nvme_sqe_get_features(&e, NVME_FEAT_VOLATILE_WC, 4, 0);
	TRY(admin_status(s, "Get Features VWC, reserved SEL 4", &e, err));
	TRY(get_feature(s, "Get Features Number of Queues (current)",
			NVME_FEAT_NUM_QUEUES, NVME_SEL_CURRENT, err));
	nvme_sqe_set_num_queues(&e, 2, 2);
	TRY(admin(s, &e, &c, err));
	put_status(s, "Set Features Number of Queues 2/2", &c);
	put(s, "Set Features Number of Queues 2/2 (allocated)", "0x%08x", c.result);
	nvme_sqe_set_features(&e, NVME_FEAT_NUM_QUEUES, false, 0xffff);
	TRY(admin_status(s, "Set Features Number of Queues FFFFh", &e, err));
	TRY(get_feature(s, "Get Features Interrupt Coalescing (current)",
			NVME_FEAT_IRQ_COALESCE, NVME_SEL_CURRENT, err));
	nvme_sqe_set_features(&e, NVME_FEAT_IRQ_COALESCE, false, 0x0103);
	return admin_status(s, "Set Features Interrupt Coalescing", &e, err);
}

static bool suite_queues(struct side *s, GError **err)
{
	uint16_t cqs, sqs;
	struct nvme_sqe e;
	struct nvme_cqe c;

	TRY(nvme_tester_create_io_queues(&s->t, 8, &cqs, &sqs, err));
	put(s, "Create I/O CQ 1 and SQ 1 (8 entries)", "0x%04x 0x%04x", cqs, sqs);
	if (cqs || sqs) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "cannot create the I/O queue pair (%#x, %#x)", cqs, sqs);
		return false;
	}
	nvme_sqe_create_cq(&e, 1, 8, NVME_TESTER_IOCQ, 0, false);
	TRY(admin_status(s, "Create I/O CQ with an existing QID", &e, err));
	nvme_sqe_create_cq(&e, 2, 4097, 0x180000, 0, false);
	TRY(admin_status(s, "Create I/O CQ above CAP.MQES", &e, err));
	nvme_sqe_create_cq(&e, 2, 4, 0x180200, 0, false);
	TRY(admin_status(s, "Create I/O CQ at a misaligned base", &e, err));
	nvme_sqe_create_cq(&e, 2, 4, 0x180000, 0, false);
	e.cdw11 &= ~1u;
	TRY(admin_status(s, "Create I/O CQ not physically contiguous", &e, err));
	nvme_sqe_create_cq(&e, 2, 4, 0x180000, 100, true);
	TRY(admin_status(s, "Create I/O CQ with interrupt vector 100", &e, err));
	nvme_sqe_create_sq(&e, 2, 4, 0x181000, 9);
	TRY(admin_status(s, "Create I/O SQ on a CQ that does not exist", &e, err));
	nvme_sqe_create_sq(&e, 1, 4, 0x181000, 1);
	TRY(admin_status(s, "Create I/O SQ with an existing QID", &e, err));
	nvme_sqe_delete_queue(&e, NVME_ADMIN_DELETE_CQ, 1);
	TRY(admin_status(s, "Delete I/O CQ with an SQ bound to it", &e, err));
	nvme_sqe_delete_queue(&e, NVME_ADMIN_DELETE_SQ, 5);
	TRY(admin_status(s, "Delete I/O SQ that does not exist", &e, err));
	nvme_sqe_delete_queue(&e, NVME_ADMIN_DELETE_CQ, 5);
	TRY(admin_status(s, "Delete I/O CQ that does not exist", &e, err));
	memset(&e, 0, sizeof(e));
	e.opcode = NVME_ADMIN_ABORT;
	e.cdw10 = 1;
	TRY(admin(s, &e, &c, err));
	put_status(s, "Abort on SQ 1", &c);
	put(s, "Abort on SQ 1 (DW0)", "%u", c.result);
	e.cdw10 = 7;
	return admin_status(s, "Abort on SQ 7 (not created)", &e, err);
}

static bool suite_data(struct side *s, GError **err)
{
	struct nvme_sqe e;
	struct nvme_cqe c;
	bool same;

	TRY(pattern(s, NVME_TESTER_DATA, 4096, 1, err));
	TRY(rw(s, NVME_CMD_WRITE, 8, 4096 >> s->t.lba_shift, NVME_TESTER_DATA, true,
	       &c, err));
	put_status(s, "Write 4 KiB at LBA 8, FUA", &c);
	TRY(pattern(s, NVME_TESTER_DATA + 4096, 8192, 2, err));
	TRY(rw(s, NVME_CMD_WRITE, 16, 8192 >> s->t.lba_shift,
	       NVME_TESTER_DATA + 4096, false, &c, err));
	put_status(s, "Write 8 KiB at LBA 16", &c);
	nvme_sqe_flush(&e, 1);
	TRY(io_status(s, "Flush NSID 1", &e, err));
	nvme_sqe_flush(&e, NVME_NSID_BROADCAST);
	TRY(io_status(s, "Flush NSID FFFFFFFFh", &e, err));
	TRY(rw(s, NVME_CMD_READ, 8, 12288 >> s->t.lba_shift, NVME_TESTER_DATA2,
	       false, &c, err));
	TRY(equal_mem(s, NVME_TESTER_DATA, NVME_TESTER_DATA2, 12288, &same, err));
	put(s, "Read back LBA 8 to 31", "%s", NVME_CQE_STATUS(&c) ? "read failed" :
	    same ? "match" : "MISMATCH");
	TRY(roundtrip(s, "Write and read 64 KiB through a PRP list", 1024,
		      65536 >> s->t.lba_shift, 3, err));

	/* Three turns of the 8-entry queue, one block per command. */
	unsigned ok = 0, n = 24;
	for (unsigned i = 0; i < n; i++) {
		TRY(pattern(s, NVME_TESTER_DATA + 4096ull * i, 512, 10 + i, err));
		TRY(rw(s, NVME_CMD_WRITE, 200 + i, 1, NVME_TESTER_DATA + 4096ull * i,
		       false, &c, err));
		ok += NVME_CQE_STATUS(&c) == 0;
	}
	for (unsigned i = 0; i < n; i++) {
		TRY(rw(s, NVME_CMD_READ, 200 + i, 1, NVME_TESTER_DATA2 + 4096ull * i,
		       false, &c, err));
		TRY(equal_mem(s, NVME_TESTER_DATA + 4096ull * i,
			      NVME_TESTER_DATA2 + 4096ull * i, 512, &same, err));
		ok += NVME_CQE_STATUS(&c) == 0 && same;
	}
	put(s, "24 writes then 24 reads on an 8-entry queue", "%u/%u", ok, 2 * n);

	nvme_sqe_write_zeroes(&e, 1, 16, 2);
	TRY(io_status(s, "Write Zeroes LBA 16 to 17", &e, err));
	TRY(rw(s, NVME_CMD_READ, 16, 4, NVME_TESTER_DATA2, false, &c, err));
	uint8_t back[2048], zero[1024] = {0};
	TRY(nvme_tester_mem_read(&s->t, NVME_TESTER_DATA2, back, sizeof(back), err));
	put(s, "Read after Write Zeroes", "%s%s",
	    memcmp(back, zero, 1024) ? "data" : "zeroes",
	    NVME_CQE_STATUS(&c) ? ", read failed" : "");
	struct nvme_dsm_range r = {.nlb = 8, .slba = 200};
	TRY(nvme_tester_mem_write(&s->t, NVME_TESTER_IDENT, &r, sizeof(r), err));
	nvme_sqe_dsm_deallocate(&e, 1, 1, NVME_TESTER_IDENT);
	return io_status(s, "Deallocate LBA 200 to 207", &e, err);
}

static bool rw_status(struct side *s, const char *check, uint8_t opc,
		      uint32_t nsid, uint64_t slba, uint32_t nlb, GError **err)
{
	struct nvme_sqe e;
	uint64_t prp1, prp2;

	TRY(nvme_tester_prps(&s->t, NVME_TESTER_DATA, (uint64_t)nlb << s->t.lba_shift,
			     &prp1, &prp2, err));
	nvme_sqe_rw(&e, opc, nsid, slba, nlb, prp1, prp2, false);
	return io_status(s, check, &e, err);
}

static bool suite_errors(struct side *s, uint64_t nsze, GError **err)
{
	struct nvme_sqe e;
	/* MDTS is in units of CAP.MPSMIN, 4 KiB on both. */
	uint32_t mdts_blocks = (4096u << s->mdts) >> s->t.lba_shift;

	TRY(rw_status(s, "Write at SLBA = NSZE", NVME_CMD_WRITE, 1, nsze, 1, err));
	TRY(rw_status(s, "Write straddling the end", NVME_CMD_WRITE, 1, nsze - 1, 2,
		      err));
	TRY(rw_status(s, "Read at NSZE + 100", NVME_CMD_READ, 1, nsze + 100, 1, err));
	TRY(rw_status(s, "Write NSID 0", NVME_CMD_WRITE, 0, 0, 1, err));
	TRY(rw_status(s, "Write NSID 1000h (above NN)", NVME_CMD_WRITE, 0x1000, 0, 1,
		      err));
	TRY(rw_status(s, "Write NSID 2 (valid, inactive)", NVME_CMD_WRITE, 2, 0, 1,
		      err));
	TRY(rw_status(s, "Write NSID FFFFFFFFh", NVME_CMD_WRITE, NVME_NSID_BROADCAST,
		      0, 1, err));
	TRY(rw_status(s, "Write one block above MDTS", NVME_CMD_WRITE, 1, 0,
		      mdts_blocks + 1, err));
	TRY(rw_status(s, "Write above MDTS and past the end", NVME_CMD_WRITE, 1,
		      nsze, mdts_blocks + 1, err));
	TRY(rw_status(s, "Write of exactly MDTS", NVME_CMD_WRITE, 1, 4096,
		      mdts_blocks, err));
	nvme_sqe_flush(&e, 2);
	TRY(io_status(s, "Flush NSID 2 (inactive)", &e, err));
	nvme_sqe_flush(&e, 0);
	TRY(io_status(s, "Flush NSID 0", &e, err));
	memset(&e, 0, sizeof(e));
	e.opcode = 0x7f;
	e.nsid = 1;
	TRY(io_status(s, "I/O opcode 7Fh", &e, err));
	e.opcode = 0x03;
	TRY(io_status(s, "I/O opcode 03h (reserved)", &e, err));
	memset(&e, 0, sizeof(e));
	e.opcode = 0x03;
	TRY(admin_status(s, "Admin opcode 03h (reserved)", &e, err));
	e.opcode = 0xc0;
	TRY(admin_status(s, "Admin opcode C0h (vendor specific)", &e, err));
	nvme_sqe_rw(&e, NVME_CMD_WRITE, 1, 0, 1, 0x300001, 0, false);
	TRY(io_status(s, "Write with PRP1 not dword aligned", &e, err));
	nvme_sqe_rw(&e, NVME_CMD_WRITE, 1, 0, 8192 >> s->t.lba_shift,
		    NVME_TESTER_DATA, NVME_TESTER_DATA + 4096 + 512, false);
	TRY(io_status(s, "Write with PRP2 not page aligned", &e, err));
	nvme_sqe_rw(&e, NVME_CMD_READ, 1, 0, 1, NVME_TESTER_DATA, 0, false);
	e.flags = 1;
	TRY(io_status(s, "Read with the fused bit set", &e, err));
	nvme_sqe_write_zeroes(&e, 1, nsze - 1, 2);
	TRY(io_status(s, "Write Zeroes past the end", &e, err));
	struct nvme_dsm_range r = {.nlb = 8, .slba = nsze - 4};
	TRY(nvme_tester_mem_write(&s->t, NVME_TESTER_IDENT, &r, sizeof(r), err));
	nvme_sqe_dsm_deallocate(&e, 1, 1, NVME_TESTER_IDENT);
	TRY(io_status(s, "Deallocate past the end", &e, err));
	return roundtrip(s, "Write and read after the errors", 64, 8, 4, err);
}

static bool suite_shutdown(struct side *s, GError **err)
{
	TRY(nvme_tester_shutdown(&s->t, err));
	put(s, "CC.SHN = 01b reaches CSTS.SHST = 10b", "yes");
	return true;
}

/* What each drive cache mode does to the write cache and to FUA. */
static bool suite_cache_mode(struct side *s, const struct vconfig *c,
			     GError **err)
{
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe cqe;
	uint16_t cqs, sqs;
	bool yes;

	TRY(nvme_tester_enable(&s->t, 16, err));
	TRY(nvme_tester_identify(&s->t, NVME_CNS_CTRL, 0, id, &cqe, err));
	put(s, "Identify Controller VWC", "0x%02x", id[NVME_IDC_VWC]);
	TRY(nvme_tester_identify(&s->t, NVME_CNS_NS, 1, id, &cqe, err));
	s->t.lba_shift = id[NVME_IDNS_LBAF_LBADS(0)];
	TRY(get_feature(s, "Get Features VWC (current)", NVME_FEAT_VOLATILE_WC,
			NVME_SEL_CURRENT, err));
	TRY(nvme_tester_create_io_queues(&s->t, 8, &cqs, &sqs, err));
	TRY(pattern(s, NVME_TESTER_DATA, 4096, 5, err));
	size_t mark = trace_mark(s);
	TRY(rw(s, NVME_CMD_WRITE, 8, 4096 >> s->t.lba_shift, NVME_TESTER_DATA, true,
	       &cqe, err));
	TRY(write_on_media(s, mark, 8, 4096 >> s->t.lba_shift, &yes, err));
	put(s, "FUA write on media at completion", "%s", yes ? "yes" : "no");
	if (!c->wce) {
		mark = trace_mark(s);
		TRY(rw(s, NVME_CMD_WRITE, 32, 4096 >> s->t.lba_shift, NVME_TESTER_DATA,
		       false, &cqe, err));
		TRY(write_on_media(s, mark, 32, 4096 >> s->t.lba_shift, &yes, err));
		put(s, "Write without FUA on media at completion", "%s",
		    yes ? "yes" : "no");
	}
	return set_vwc(s, c->wce ? "Set Features VWC = 0" : "Set Features VWC = 1",
		       !c->wce, err);
}

static bool run_suite(struct side *s, const struct vconfig *c, GError **err)
{
	if (!c->full)
		return suite_cache_mode(s, c, err);
	TRY(suite_registers(s, err));
	TRY(suite_identify(s, err));
	TRY(suite_features(s, err));
	TRY(suite_queues(s, err));
	TRY(suite_data(s, err));
	uint8_t id[NVME_IDENTIFY_SIZE];
	struct nvme_cqe c2;
	TRY(nvme_tester_identify(&s->t, NVME_CNS_NS, 1, id, &c2, err));
	TRY(suite_errors(s, nvme_get64(id + NVME_IDNS_NSZE), err));
	return suite_shutdown(s, err);
}

/* --- the run and its table -------------------------------------------------------- */

static const struct vconfig configs[] = {
	{"writeback", NULL, true, true},
	{"none", NULL, true, false},
	{"unsafe", NULL, true, false},
	{"writethrough", NULL, false, false},
	{"directsync", NULL, false, false},
	{"writeback", "off", false, false},
	{"writethrough", "on", true, false},
};

struct result {
	char *check, *qemu, *storsim;
	enum validate_verdict verdict;
	const char *reason;
};

static bool run_config(const struct vopts *o, const struct vconfig *c,
		       GArray *results, GError **err)
{
	g_autofree char *label = config_label(c);
	g_autofree char *prefix = c->full ? g_strdup("") :
					    g_strdup_printf("[%s] ", label);
	struct side q = {.prefix = prefix,
			 .rows = g_ptr_array_new_with_free_func(row_free)};
	struct side m = {.prefix = prefix,
			 .rows = g_ptr_array_new_with_free_func(row_free)};
	bool ok = open_qemu(&q, o, c, err) && run_suite(&q, c, err);

	close_side(&q);
	if (ok)
		ok = open_model(&m, c, err) && run_suite(&m, c, err);
	close_side(&m);
	if (ok && q.rows->len != m.rows->len) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "%s: the two runs recorded %u and %u checks", label,
			    q.rows->len, m.rows->len);
		ok = false;
	}
	for (guint i = 0; ok && i < q.rows->len; i++) {
		struct row *a = q.rows->pdata[i], *b = m.rows->pdata[i];
		struct result r = {
			.check = g_strdup(a->check),
			.qemu = g_strdup(a->value),
			.storsim = g_strdup(b->value),
		};
		g_assert(strcmp(a->check, b->check) == 0);
		r.verdict = validate_verdict(r.check, r.qemu, r.storsim, &r.reason);
		g_array_append_val(results, r);
	}
	if (!ok)
		g_prefix_error(err, "%s: ", label);
	g_ptr_array_free(q.rows, TRUE);
	g_ptr_array_free(m.rows, TRUE);
	return ok;
}

static const char *verdict_name(enum validate_verdict v)
{
	static const char *const names[] = {
		[VALIDATE_AGREE] = "agree",
		[VALIDATE_KNOWN] = "known difference",
		[VALIDATE_DIFFERENT] = "DIFFERENT",
	};
	return names[v];
}

static void print_normal(GArray *results)
{
	int w[3] = {5, 4, 7};
	unsigned count[3] = {0};

	for (guint i = 0; i < results->len; i++) {
		struct result *r = &g_array_index(results, struct result, i);
		w[0] = MAX(w[0], (int)strlen(r->check));
		w[1] = MAX(w[1], (int)strlen(r->qemu));
		w[2] = MAX(w[2], (int)strlen(r->storsim));
	}
	printf("%-*s | %-*s | %-*s | verdict\n", w[0], "check", w[1], "QEMU",
	       w[2], "storsim");
	for (guint i = 0; i < results->len; i++) {
		struct result *r = &g_array_index(results, struct result, i);
		count[r->verdict]++;
		printf("%-*s | %-*s | %-*s | %s%s%s\n", w[0], r->check, w[1], r->qemu,
		       w[2], r->storsim, verdict_name(r->verdict),
		       *r->reason ? ": " : "", r->reason);
	}
	printf("\n%u checks: %u agree, %u known differences, %u DIFFERENT\n",
	       results->len, count[VALIDATE_AGREE], count[VALIDATE_KNOWN],
	       count[VALIDATE_DIFFERENT]);
}

static void print_json(GArray *results)
{
	json_object *a = json_object_new_array();

	for (guint i = 0; i < results->len; i++) {
		struct result *r = &g_array_index(results, struct result, i);
		json_object *o = json_object_new_object();
		json_object_object_add(o, "check", json_object_new_string(r->check));
		json_object_object_add(o, "qemu", json_object_new_string(r->qemu));
		json_object_object_add(o, "storsim", json_object_new_string(r->storsim));
		json_object_object_add(o, "verdict",
				       json_object_new_string(verdict_name(r->verdict)));
		json_object_object_add(o, "reason", json_object_new_string(r->reason));
		json_object_array_add(a, o);
	}
	printf("%s\n", json_object_to_json_string_ext(a, JSON_C_TO_STRING_PRETTY |
						      JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(a);
}

/* The command line of validate qemu, parsed by cli_parse(). */
static bool parse_options(int *argc, char ***argv, struct vopts *o, GError **err)
{
	g_autofree char *format = NULL, *qemu = NULL, *timeout = NULL;
	gboolean keep_temp = FALSE;
	const GOptionEntry entries[] = {
		{"output-format", 0, 0, G_OPTION_ARG_STRING, &format,
		 "A table (normal, the default) or a JSON array (json)",
		 "normal|json"},
		{"qemu", 0, 0, G_OPTION_ARG_FILENAME, &qemu,
		 "The qemu-system-x86_64 to run (default: the one in PATH)", "PATH"},
		{"timeout", 0, 0, G_OPTION_ARG_STRING, &timeout,
		 "Limit of each wait on QEMU (default 10)", "SECONDS"},
		{"keep-temp", 0, 0, G_OPTION_ARG_NONE, &keep_temp,
		 "Keep QEMU's temporary directory and print where it is", NULL},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("");

	g_option_context_set_summary(ctx,
		"Run the NVMe command suite against QEMU's emulated NVMe and storsim's\n"
		"device model (profile qemu-nvme) and compare them check by check.");
	g_option_context_set_description(ctx,
		"Exit status: 0 when every check agrees or differs in a known way, 1 on\n"
		"a DIFFERENT check, bad options, or a QEMU that cannot be driven.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, argc, argv, err))
		return false;
	if (*argc > 1) {
		storsim_input_error(err, "command line", 0, NULL,
				    "unexpected argument '%s'", (*argv)[1]);
		return false;
	}
	if (format) {
		if (strcmp(format, "normal") && strcmp(format, "json")) {
			storsim_input_error(err, "command line", 0, "output-format",
					    "'%s' is not normal or json", format);
			return false;
		}
		o->json = strcmp(format, "json") == 0;
	}
	if (timeout) {
		char *end;
		double sec = g_ascii_strtod(timeout, &end);
		if (end == timeout || *end || !(sec > 0 && sec <= 3600)) {
			storsim_input_error(err, "command line", 0, "timeout",
					    "'%s' is not a number of seconds in (0, 3600]",
					    timeout);
			return false;
		}
		o->timeout_ms = (unsigned)(sec * 1000 + 0.5);
		if (!o->timeout_ms)
			o->timeout_ms = 1;
	}
	o->qemu = g_steal_pointer(&qemu);
	o->keep_temp = keep_temp;
	return true;
}

static void result_clear(gpointer p)
{
	struct result *r = p;
	g_free(r->check);
	g_free(r->qemu);
	g_free(r->storsim);
}

int validate_qemu_main(int argc, char **argv)
{
	struct vopts o = {.timeout_ms = 10000};
	g_autoptr(GError) err = NULL;
	g_autoptr(GArray) results = g_array_new(FALSE, FALSE, sizeof(struct result));
	bool different = false, ok;

	g_array_set_clear_func(results, result_clear);
	ok = parse_options(&argc, &argv, &o, &err);
	for (unsigned i = 0; ok && i < G_N_ELEMENTS(configs); i++)
		ok = run_config(&o, &configs[i], results, &err);
	g_free(o.qemu);
	if (!ok) {
		fprintf(stderr, "storsim validate qemu: %s\n", err->message);
		return 1;
	}
	if (o.json)
		print_json(results);
	else
		print_normal(results);
	for (guint i = 0; i < results->len; i++)
		different |= g_array_index(results, struct result, i).verdict ==
			     VALIDATE_DIFFERENT;
	return different ? 1 : 0;
}
