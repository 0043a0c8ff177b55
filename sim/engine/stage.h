/*
 * Stages: the labels of CPU work.
 *
 * Every piece of work charged to a simulated CPU names the kernel (or user)
 * stage it stands for, e.g. "io_uring_submit", "iomap_dio_complete",
 * "ctx_switch". The labels form the simulated analogue of `perf report`: a
 * run adds up CPU time per stage. Models register their stages once, at
 * start-up, and keep the small integer id; charging work then indexes an
 * array, never a hash table.
 *
 * A stage also says which CPU-time class its time belongs to: user,
 * system, hard IRQ or soft IRQ (fio's usr_cpu/sys_cpu, top's us/sy/hi/si).
 */
#ifndef STORSIM_STAGE_H
#define STORSIM_STAGE_H

#include <stdint.h>

enum cpu_class {
	CPU_USR,
	CPU_SYS,
	CPU_IRQ,
	CPU_SOFTIRQ,
	CPU_CLASS_NR,
};

typedef uint16_t stage_id;

#define STAGE_MAX 256

struct stage_info {
	const char *name;
	const char *kernel_fn;	/* the kernel function(s) it stands for */
	enum cpu_class cls;
};

/*
 * Return the id of the stage called name, registering it on first use.
 * Registering the same name with a different class is a programming error.
 */
stage_id stage_register(const char *name, enum cpu_class cls,
			const char *kernel_fn);

/* The class of each registered stage, for the accounting fast path. */
extern uint8_t stage_class[STAGE_MAX];

unsigned stage_count(void);
const struct stage_info *stage_get(stage_id id);
const char *cpu_class_name(enum cpu_class c);

#endif
