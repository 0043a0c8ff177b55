/*
 * NVMe definitions shared by the device model, the host-side tester and the
 * timed host driver: controller register offsets and fields, the 64-byte
 * submission and 16-byte completion queue entries, opcodes, status codes,
 * Identify data offsets, feature identifiers, and small builders that fill
 * an SQE for the commands a host needs to bring a controller up.
 *
 * Source: NVM Express Base Specification 2.0 (registers: 3.1.3; SQE/CQE:
 * 4.2 and 4.6; status codes: 4.6.1.2; admin commands: 5; Identify data:
 * 5.17.2) and NVM Command Set Specification 1.0 (Read, Write, Flush, Write
 * Zeroes, Dataset Management; Identify Namespace). Names follow the spec's
 * mnemonics. Multi-byte fields are little-endian on the bus; storsim runs
 * on little-endian hosts only (checked below), so the structs are used as
 * they are.
 */
#ifndef STORSIM_NVME_SPEC_H
#define STORSIM_NVME_SPEC_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

G_STATIC_ASSERT(G_BYTE_ORDER == G_LITTLE_ENDIAN);

/* Controller registers (offsets into BAR0). */
enum {
	NVME_REG_CAP = 0x00,	/* 64-bit */
	NVME_REG_VS = 0x08,
	NVME_REG_INTMS = 0x0c,
	NVME_REG_INTMC = 0x10,
	NVME_REG_CC = 0x14,
	NVME_REG_CSTS = 0x1c,
	NVME_REG_NSSR = 0x20,
	NVME_REG_AQA = 0x24,
	NVME_REG_ASQ = 0x28,	/* 64-bit */
	NVME_REG_ACQ = 0x30,	/* 64-bit */
	NVME_REG_DBS = 0x1000,	/* doorbells, stride 4 << CAP.DSTRD */
};

/* CAP fields. */
#define NVME_CAP_MQES(cap)	((uint32_t)((cap) & 0xffff))
#define NVME_CAP_CQR(cap)	((uint32_t)(((cap) >> 16) & 0x1))
#define NVME_CAP_AMS(cap)	((uint32_t)(((cap) >> 17) & 0x3))
#define NVME_CAP_TO(cap)	((uint32_t)(((cap) >> 24) & 0xff))
#define NVME_CAP_DSTRD(cap)	((uint32_t)(((cap) >> 32) & 0xf))
#define NVME_CAP_NSSRS(cap)	((uint32_t)(((cap) >> 36) & 0x1))
#define NVME_CAP_CSS(cap)	((uint32_t)(((cap) >> 37) & 0xff))
#define NVME_CAP_MPSMIN(cap)	((uint32_t)(((cap) >> 48) & 0xf))
#define NVME_CAP_MPSMAX(cap)	((uint32_t)(((cap) >> 52) & 0xf))

/* CC fields. */
#define NVME_CC_EN		(1u << 0)
#define NVME_CC_CSS(cc)		(((cc) >> 4) & 0x7)
#define NVME_CC_MPS(cc)		(((cc) >> 7) & 0xf)
#define NVME_CC_AMS(cc)		(((cc) >> 11) & 0x7)
#define NVME_CC_SHN(cc)		(((cc) >> 14) & 0x3)
#define NVME_CC_IOSQES(cc)	(((cc) >> 16) & 0xf)
#define NVME_CC_IOCQES(cc)	(((cc) >> 20) & 0xf)
#define NVME_CC_SHN_NORMAL	1u
#define NVME_CC_SHN_ABRUPT	2u

/* The CC value a Linux-like host writes to enable: 4 KiB pages, NVM
 * command set, round robin, 64-byte SQEs and 16-byte CQEs. */
#define NVME_CC_ENABLE_DEFAULT	((4u << 20) | (6u << 16) | NVME_CC_EN)

/* CSTS fields. */
#define NVME_CSTS_RDY		(1u << 0)
#define NVME_CSTS_CFS		(1u << 1)
#define NVME_CSTS_SHST(csts)	(((csts) >> 2) & 0x3)
#define NVME_CSTS_SHST_NORMAL	0u
#define NVME_CSTS_SHST_BUSY	1u
#define NVME_CSTS_SHST_DONE	2u

/* AQA: 0's based admin queue sizes. */
#define NVME_AQA(sq_entries, cq_entries) \
	((((uint32_t)(cq_entries) - 1) << 16) | ((uint32_t)(sq_entries) - 1))

#define NVME_SQE_SIZE 64
#define NVME_CQE_SIZE 16

/* Submission queue entry (4.2). */
struct nvme_sqe {
	uint8_t opcode;
	uint8_t flags;		/* FUSE 1:0, PSDT 7:6 */
	uint16_t cid;
	uint32_t nsid;
	uint32_t cdw2, cdw3;
	uint64_t mptr;
	uint64_t prp1, prp2;
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;
};
G_STATIC_ASSERT(sizeof(struct nvme_sqe) == NVME_SQE_SIZE);

#define NVME_SQE_FUSE(flags)	((flags) & 0x3)
#define NVME_SQE_PSDT(flags)	(((flags) >> 6) & 0x3)

/* Completion queue entry (4.6). */
struct nvme_cqe {
	uint32_t result;	/* DW0: command specific */
	uint32_t dw1;
	uint16_t sq_head;
	uint16_t sq_id;
	uint16_t cid;
	uint16_t status;	/* bit 0 phase, 15:1 status field */
};
G_STATIC_ASSERT(sizeof(struct nvme_cqe) == NVME_CQE_SIZE);

/*
 * A status value as storsim passes it around: the 15-bit Status Field of the
 * CQE (DW3 31:17) without the phase tag, i.e. SC in 7:0, SCT in 10:8, CRD in
 * 12:11, M in 13 and DNR in 14. The CQE holds (status << 1) | phase.
 */
#define NVME_STATUS(sct, sc)	((uint16_t)(((sct) << 8) | (sc)))
#define NVME_DNR		0x4000u
#define NVME_STATUS_SC(st)	((st) & 0xff)
#define NVME_STATUS_SCT(st)	(((st) >> 8) & 0x7)
#define NVME_STATUS_IS_DNR(st)	(((st) & NVME_DNR) != 0)
#define NVME_CQE_STATUS(cqe)	((uint16_t)((cqe)->status >> 1))
#define NVME_CQE_PHASE(cqe)	((cqe)->status & 1)

enum nvme_sct {
	NVME_SCT_GENERIC = 0,
	NVME_SCT_CMD_SPECIFIC = 1,
	NVME_SCT_MEDIA = 2,
};

enum nvme_status_code {
	NVME_SC_SUCCESS = NVME_STATUS(0, 0x00),
	NVME_SC_INVALID_OPCODE = NVME_STATUS(0, 0x01),
	NVME_SC_INVALID_FIELD = NVME_STATUS(0, 0x02),
	NVME_SC_DATA_XFER_ERROR = NVME_STATUS(0, 0x04),
	NVME_SC_INTERNAL = NVME_STATUS(0, 0x06),
	NVME_SC_ABORT_REQ = NVME_STATUS(0, 0x07),
	NVME_SC_ABORT_SQ_DELETED = NVME_STATUS(0, 0x08),
	NVME_SC_INVALID_NS = NVME_STATUS(0, 0x0b),
	NVME_SC_CMD_SEQ_ERROR = NVME_STATUS(0, 0x0c),
	NVME_SC_PRP_OFFSET_INVALID = NVME_STATUS(0, 0x13),
	NVME_SC_LBA_RANGE = NVME_STATUS(0, 0x80),
	NVME_SC_CQ_INVALID = NVME_STATUS(1, 0x00),
	NVME_SC_QID_INVALID = NVME_STATUS(1, 0x01),
	NVME_SC_QUEUE_SIZE = NVME_STATUS(1, 0x02),
	NVME_SC_INVALID_VECTOR = NVME_STATUS(1, 0x08),
	NVME_SC_INVALID_QUEUE_DELETION = NVME_STATUS(1, 0x0c),
	NVME_SC_FEATURE_NOT_SAVEABLE = NVME_STATUS(1, 0x0d),
	NVME_SC_FEATURE_NOT_CHANGEABLE = NVME_STATUS(1, 0x0e),
	NVME_SC_FEATURE_NOT_NS_SPECIFIC = NVME_STATUS(1, 0x0f),
};

/* Admin command opcodes (5). */
enum nvme_admin_opcode {
	NVME_ADMIN_DELETE_SQ = 0x00,
	NVME_ADMIN_CREATE_SQ = 0x01,
	NVME_ADMIN_GET_LOG_PAGE = 0x02,
	NVME_ADMIN_DELETE_CQ = 0x04,
	NVME_ADMIN_CREATE_CQ = 0x05,
	NVME_ADMIN_IDENTIFY = 0x06,
	NVME_ADMIN_ABORT = 0x08,
	NVME_ADMIN_SET_FEATURES = 0x09,
	NVME_ADMIN_GET_FEATURES = 0x0a,
	NVME_ADMIN_ASYNC_EVENT = 0x0c,
};

/* NVM command set I/O opcodes. */
enum nvme_io_opcode {
	NVME_CMD_FLUSH = 0x00,
	NVME_CMD_WRITE = 0x01,
	NVME_CMD_READ = 0x02,
	NVME_CMD_WRITE_ZEROES = 0x08,
	NVME_CMD_DSM = 0x09,
};

#define NVME_RW_FUA		(1u << 30)	/* CDW12 */
#define NVME_DSM_ATTR_AD	(1u << 2)	/* CDW11: deallocate */
#define NVME_NSID_BROADCAST	0xffffffffu

/* Dataset Management range (NVM Command Set 3.2.3). */
struct nvme_dsm_range {
	uint32_t cattr;
	uint32_t nlb;
	uint64_t slba;
};
G_STATIC_ASSERT(sizeof(struct nvme_dsm_range) == 16);

/* Identify CNS values. */
enum {
	NVME_CNS_NS = 0x00,
	NVME_CNS_CTRL = 0x01,
	NVME_CNS_NS_ACTIVE_LIST = 0x02,
};
#define NVME_IDENTIFY_SIZE 4096

/* Identify Controller data structure: byte offsets (Figure 275). */
enum {
	NVME_IDC_VID = 0,	/* 16 */
	NVME_IDC_SSVID = 2,	/* 16 */
	NVME_IDC_SN = 4,	/* 20 ASCII */
	NVME_IDC_MN = 24,	/* 40 ASCII */
	NVME_IDC_FR = 64,	/* 8 ASCII */
	NVME_IDC_RAB = 72,
	NVME_IDC_MDTS = 77,
	NVME_IDC_CNTLID = 78,	/* 16 */
	NVME_IDC_VER = 80,	/* 32 */
	NVME_IDC_CNTRLTYPE = 111,
	NVME_IDC_OACS = 256,	/* 16 */
	NVME_IDC_ACL = 258,
	NVME_IDC_AERL = 259,
	NVME_IDC_LPA = 261,
	NVME_IDC_SQES = 512,
	NVME_IDC_CQES = 513,
	NVME_IDC_MAXCMD = 514,	/* 16 */
	NVME_IDC_NN = 516,	/* 32 */
	NVME_IDC_ONCS = 520,	/* 16 */
	NVME_IDC_FUSES = 522,	/* 16 */
	NVME_IDC_FNA = 524,
	NVME_IDC_VWC = 525,
	NVME_IDC_SGLS = 536,	/* 32 */
	NVME_IDC_SUBNQN = 768,	/* 256 ASCII */
};

/* ONCS bits the model can claim. */
#define NVME_ONCS_DSM		(1u << 2)
#define NVME_ONCS_WRITE_ZEROES	(1u << 3)
#define NVME_ONCS_SAVE_SELECT	(1u << 4)

/* VWC bits: present, and bits 2:1 = 11b "Flush with NSID FFFFFFFFh
 * supported", 10b "not supported". */
#define NVME_VWC_PRESENT	0x1u
#define NVME_VWC_BCAST_YES	0x6u
#define NVME_VWC_BCAST_NO	0x4u

/* Identify Namespace data structure (NVM Command Set, Figure 97). */
enum {
	NVME_IDNS_NSZE = 0,	/* 64 */
	NVME_IDNS_NCAP = 8,	/* 64 */
	NVME_IDNS_NUSE = 16,	/* 64 */
	NVME_IDNS_NSFEAT = 24,
	NVME_IDNS_NLBAF = 25,
	NVME_IDNS_FLBAS = 26,
	NVME_IDNS_DLFEAT = 33,
	NVME_IDNS_LBAF0 = 128,	/* 4 bytes each: MS 16, LBADS 8, RP 8 */
};
#define NVME_IDNS_LBAF_LBADS(i)	(NVME_IDNS_LBAF0 + 4 * (i) + 2)

/* Feature identifiers (5.27.1). */
enum {
	NVME_FEAT_ARBITRATION = 0x01,
	NVME_FEAT_POWER_MGMT = 0x02,
	NVME_FEAT_TEMP_THRESH = 0x04,
	NVME_FEAT_VOLATILE_WC = 0x06,
	NVME_FEAT_NUM_QUEUES = 0x07,
	NVME_FEAT_IRQ_COALESCE = 0x08,
};

/* Get Features SEL (CDW10 10:8) and the capabilities bits it returns. */
enum {
	NVME_SEL_CURRENT = 0,
	NVME_SEL_DEFAULT = 1,
	NVME_SEL_SAVED = 2,
	NVME_SEL_SUPPORTED = 3,
};
#define NVME_FEAT_CAP_SAVE	0x1u
#define NVME_FEAT_CAP_NS	0x2u
#define NVME_FEAT_CAP_CHANGE	0x4u
#define NVME_SET_FEAT_SV	(1u << 31)	/* CDW10 */

/* Little-endian accessors into Identify data and other byte buffers. */
static inline uint16_t nvme_get16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static inline uint32_t nvme_get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static inline uint64_t nvme_get64(const uint8_t *p)
{
	return (uint64_t)nvme_get32(p) | (uint64_t)nvme_get32(p + 4) << 32;
}

static inline void nvme_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static inline void nvme_put32(uint8_t *p, uint32_t v)
{
	nvme_put16(p, (uint16_t)v);
	nvme_put16(p + 2, (uint16_t)(v >> 16));
}

static inline void nvme_put64(uint8_t *p, uint64_t v)
{
	nvme_put32(p, (uint32_t)v);
	nvme_put32(p + 4, (uint32_t)(v >> 32));
}

/*
 * SQE builders. Each clears the entry and fills what its command needs;
 * the caller sets the command identifier when it submits.
 */
static inline void nvme_sqe_identify(struct nvme_sqe *e, uint8_t cns,
				     uint32_t nsid, uint64_t prp1)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_IDENTIFY;
	e->nsid = nsid;
	e->prp1 = prp1;
	e->cdw10 = cns;
}

/* entries is the real size (2 or more); the SQE carries it 0's based. */
static inline void nvme_sqe_create_cq(struct nvme_sqe *e, uint16_t qid,
				      uint32_t entries, uint64_t prp1,
				      uint16_t vector, bool irq_enabled)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_CREATE_CQ;
	e->prp1 = prp1;
	e->cdw10 = (entries - 1) << 16 | qid;
	e->cdw11 = (uint32_t)vector << 16 | (irq_enabled ? 2u : 0u) | 1u;
}

static inline void nvme_sqe_create_sq(struct nvme_sqe *e, uint16_t qid,
				      uint32_t entries, uint64_t prp1,
				      uint16_t cqid)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_CREATE_SQ;
	e->prp1 = prp1;
	e->cdw10 = (entries - 1) << 16 | qid;
	e->cdw11 = (uint32_t)cqid << 16 | 1u;	/* physically contiguous */
}

static inline void nvme_sqe_delete_queue(struct nvme_sqe *e, uint8_t opcode,
					 uint16_t qid)
{
	memset(e, 0, sizeof(*e));
	e->opcode = opcode;
	e->cdw10 = qid;
}

static inline void nvme_sqe_get_features(struct nvme_sqe *e, uint8_t fid,
					 unsigned sel, uint32_t cdw11)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_GET_FEATURES;
	e->cdw10 = (uint32_t)sel << 8 | fid;
	e->cdw11 = cdw11;
}

static inline void nvme_sqe_set_features(struct nvme_sqe *e, uint8_t fid,
					 bool save, uint32_t cdw11)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_ADMIN_SET_FEATURES;
	e->cdw10 = (save ? NVME_SET_FEAT_SV : 0) | fid;
	e->cdw11 = cdw11;
}

/* Number of Queues: counts are real numbers of queues (1 or more). */
static inline void nvme_sqe_set_num_queues(struct nvme_sqe *e, uint16_t nsq,
					   uint16_t ncq)
{
	nvme_sqe_set_features(e, NVME_FEAT_NUM_QUEUES, false,
			      (uint32_t)(ncq - 1) << 16 | (uint16_t)(nsq - 1));
}

/* Read or Write of nlb blocks (1 or more). */
static inline void nvme_sqe_rw(struct nvme_sqe *e, uint8_t opcode,
			       uint32_t nsid, uint64_t slba, uint32_t nlb,
			       uint64_t prp1, uint64_t prp2, bool fua)
{
	memset(e, 0, sizeof(*e));
	e->opcode = opcode;
	e->nsid = nsid;
	e->prp1 = prp1;
	e->prp2 = prp2;
	e->cdw10 = (uint32_t)slba;
	e->cdw11 = (uint32_t)(slba >> 32);
	e->cdw12 = (nlb - 1) | (fua ? NVME_RW_FUA : 0);
}

static inline void nvme_sqe_flush(struct nvme_sqe *e, uint32_t nsid)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_CMD_FLUSH;
	e->nsid = nsid;
}

static inline void nvme_sqe_write_zeroes(struct nvme_sqe *e, uint32_t nsid,
					 uint64_t slba, uint32_t nlb)
{
	nvme_sqe_rw(e, NVME_CMD_WRITE_ZEROES, nsid, slba, nlb, 0, 0, false);
}

/* Deallocate nr ranges (1 to 256) whose list is at prp1. */
static inline void nvme_sqe_dsm_deallocate(struct nvme_sqe *e, uint32_t nsid,
					   uint32_t nr, uint64_t prp1)
{
	memset(e, 0, sizeof(*e));
	e->opcode = NVME_CMD_DSM;
	e->nsid = nsid;
	e->prp1 = prp1;
	e->cdw10 = nr - 1;
	e->cdw11 = NVME_DSM_ATTR_AD;
}

/* Short mnemonic of a status value, e.g. "LBA Out of Range", for tables. */
const char *nvme_status_name(uint16_t status);

#endif
