/*
 * A client of QEMU's qtest protocol: start qemu-system-x86_64 stopped (-S)
 * with an NVMe device on a raw image, and drive its buses from the test:
 * port I/O, MMIO and guest memory, line by line over a unix socket.
 *
 * Every wait has a time limit, QEMU is always killed by its pid and the
 * temporary directory (socket, image, pid file, logs) removed, also on
 * errors. See reference/qemu-nvme-and-libvirt.md, section 2, for the
 * protocol and why Debian's QEMU needs "-accel tcg -S -qtest unix:PATH".
 */
#ifndef STORSIM_QTEST_H
#define STORSIM_QTEST_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

struct qtest;

struct qtest_options {
	const char *qemu;		/* binary; NULL = search PATH */
	const char *cache;		/* -drive cache= (writeback, none, ...) */
	const char *write_cache;	/* -device nvme write-cache=, or NULL */
	const char *serial;		/* -device nvme serial= */
	uint64_t image_bytes;		/* size of the raw image */
	unsigned timeout_ms;		/* limit of every single wait */
	bool keep_temp;			/* leave the temporary directory */
	const char *trace;		/* -trace pattern logged to trace.log */
};

/* Path of qemu-system-x86_64 (explicit, or from PATH), or NULL. */
char *qtest_find_qemu(const char *explicit_path);

struct qtest *qtest_start(const struct qtest_options *o, GError **err);
/* Kill QEMU (SIGTERM, then SIGKILL), remove the temporary files. */
void qtest_stop(struct qtest *q);

bool qtest_outl(struct qtest *q, uint16_t port, uint32_t v, GError **err);
bool qtest_inl(struct qtest *q, uint16_t port, uint32_t *v, GError **err);
bool qtest_writel(struct qtest *q, uint64_t addr, uint32_t v, GError **err);
bool qtest_writeq(struct qtest *q, uint64_t addr, uint64_t v, GError **err);
bool qtest_readl(struct qtest *q, uint64_t addr, uint32_t *v, GError **err);
bool qtest_readq(struct qtest *q, uint64_t addr, uint64_t *v, GError **err);
bool qtest_memread(struct qtest *q, uint64_t addr, void *buf, size_t len,
		   GError **err);
bool qtest_memwrite(struct qtest *q, uint64_t addr, const void *buf,
		    size_t len, GError **err);
bool qtest_memset(struct qtest *q, uint64_t addr, uint8_t v, size_t len,
		  GError **err);

/* The temporary directory, and the trace log written so far (NULL when
 * no trace was asked for or nothing was written). */
const char *qtest_tempdir(const struct qtest *q);
char *qtest_trace_text(const struct qtest *q);

#endif
