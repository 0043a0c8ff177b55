/* The stage registry: names to small ids, filled at start-up. */
#include <glib.h>
#include <string.h>

#include "stage.h"

static struct stage_info stages[STAGE_MAX];
uint8_t stage_class[STAGE_MAX];
static unsigned nstages;

stage_id stage_register(const char *name, enum cpu_class cls,
			const char *kernel_fn)
{
	for (unsigned i = 0; i < nstages; i++) {
		if (strcmp(stages[i].name, name) == 0) {
			g_assert(stages[i].cls == cls);
			return (stage_id)i;
		}
	}
	g_assert(nstages < STAGE_MAX);
	stages[nstages] = (struct stage_info){
		.name = name, .cls = cls, .kernel_fn = kernel_fn,
	};
	stage_class[nstages] = (uint8_t)cls;
	return (stage_id)nstages++;
}

unsigned stage_count(void)
{
	return nstages;
}

const struct stage_info *stage_get(stage_id id)
{
	g_assert(id < nstages);
	return &stages[id];
}

const char *cpu_class_name(enum cpu_class c)
{
	static const char *const names[CPU_CLASS_NR] = {
		[CPU_USR] = "usr", [CPU_SYS] = "sys",
		[CPU_IRQ] = "irq", [CPU_SOFTIRQ] = "softirq",
	};
	return names[c];
}
