/*
 * Where an I/O's latency goes, layer by layer.
 *
 * An application's I/O carries a struct io_trace down the stack: the
 * kernel's entry point (io_uring, libaio, a synchronous syscall), the file
 * system that builds its bios, blk-mq, the driver and the device each
 * stamp the simulated time at which the I/O crossed their boundary. When
 * the application sees the completion, the stamps cut its latency (fio's
 * "lat": from the I/O's start to its completion) into consecutive layers,
 * so the layers' means add up to the mean latency. blktrace names the
 * block layer's points Q (queued), D (issued to the driver) and C
 * (completed); the driver and the device add the doorbell, the completion
 * entry and the interrupt handler, which Linux does not timestamp.
 *
 * A stamp is the time at which the work charged before it will have run
 * (xctx_clock), so a stamp inside a step is not the step's start. An I/O
 * that never reaches a layer (a page-cache hit has no bio) leaves its
 * stamps unset; such a stamp takes the next one's time, so the layer is
 * empty and its time counts in the layer before. An I/O split into
 * several requests has crossed a point of blk-mq or below when the last
 * of them has: its stamp there is the latest of theirs.
 */
#ifndef STORSIM_IO_TRACE_H
#define STORSIM_IO_TRACE_H

#include <glib.h>
#include <json-c/json.h>
#include <stdint.h>

#include "sim.h"

enum io_stamp {
	IOS_SUBMIT,		/* the kernel has the I/O (after syscall entry) */
	IOS_QUEUE,		/* its bio enters blk-mq (blktrace Q) */
	IOS_DISPATCH,		/* its request goes to the driver (blktrace D) */
	IOS_ISSUE,		/* the device is told (doorbell) */
	IOS_DEVICE_DONE,	/* the device reports it done (CQE written) */
	IOS_HANDLE,		/* the driver handles that report */
	IOS_END,		/* blk-mq ends the request (blktrace C) */
	IOS_COMPLETE,		/* the kernel posts the completion (CQE, event, return) */
	IOS_NR
};

/* The stamps of one I/O; reset by its issuer before each use. */
struct io_trace {
	sim_time t[IOS_NR];
	uint32_t have;		/* bit s: t[s] is set */
	/* For the timeline (io_timeline.h): the CPU a stamp was taken on,
	 * where its taker says (the submission, the completion handler, the
	 * posted completion), and the device queue the I/O went through. */
	uint16_t cpu[IOS_NR];
	uint16_t have_cpu;	/* bit s: cpu[s] is set */
	uint16_t hwq;
	const char *dev;	/* the block queue's name, or NULL */
};

static inline void io_trace_reset(struct io_trace *tr)
{
	tr->have = 0;
	tr->have_cpu = 0;
	tr->dev = NULL;
}

static inline void io_trace_stamp(struct io_trace *tr, enum io_stamp s,
				  sim_time at)
{
	if (tr) {
		tr->t[s] = at;
		tr->have |= 1u << s;
	}
}

/* The same, taken on CPU cpu. */
static inline void io_trace_stamp_cpu(struct io_trace *tr, enum io_stamp s,
				      sim_time at, unsigned cpu)
{
	if (tr) {
		tr->t[s] = at;
		tr->cpu[s] = (uint16_t)cpu;
		tr->have |= 1u << s;
		tr->have_cpu |= (uint16_t)(1u << s);
	}
}

/* The device (a block queue's name, which outlives the run) and its
 * hardware queue that the I/O goes through. */
static inline void io_trace_queue(struct io_trace *tr, const char *dev,
				  unsigned hwq)
{
	if (tr) {
		tr->dev = dev;
		tr->hwq = (uint16_t)hwq;
	}
}

/* A point every request of the I/O must pass (blk-mq and below): it has
 * passed it when its last request has, so the latest stamp stays. */
static inline void io_trace_stamp_last(struct io_trace *tr, enum io_stamp s,
				       sim_time at)
{
	if (tr && (!(tr->have & (1u << s)) || at > tr->t[s])) {
		tr->t[s] = at;
		tr->have |= 1u << s;
	}
}

/* io_trace_stamp_last, taken on CPU cpu. */
static inline void io_trace_stamp_last_cpu(struct io_trace *tr, enum io_stamp s,
					   sim_time at, unsigned cpu)
{
	if (tr && (!(tr->have & (1u << s)) || at > tr->t[s])) {
		tr->t[s] = at;
		tr->cpu[s] = (uint16_t)cpu;
		tr->have |= 1u << s;
		tr->have_cpu |= (uint16_t)(1u << s);
	}
}

/* The layers between consecutive points, from the I/O's start to the
 * application's seeing it complete. */
enum io_layer {
	IOL_APP_SUBMIT,		/* start -> SUBMIT */
	IOL_KERNEL_SUBMIT,	/* SUBMIT -> QUEUE */
	IOL_BLOCK_QUEUE,	/* QUEUE -> DISPATCH */
	IOL_DRIVER_SUBMIT,	/* DISPATCH -> ISSUE */
	IOL_DEVICE,		/* ISSUE -> DEVICE_DONE */
	IOL_INTERRUPT,		/* DEVICE_DONE -> HANDLE */
	IOL_BLOCK_COMPLETE,	/* HANDLE -> END */
	IOL_KERNEL_COMPLETE,	/* END -> COMPLETE */
	IOL_APP_REAP,		/* COMPLETE -> seen by the application */
	IOL_NR
};

/* Sums of each layer over the I/Os counted: means add up exactly. */
struct io_layers {
	uint64_t ios;
	sim_time sum[IOL_NR];
};

/* The time one I/O that started at start and was seen complete at end
 * spent in each layer (ns); they add up to end - start. */
void io_trace_split(const struct io_trace *tr, sim_time start, sim_time end,
		    sim_time each[IOL_NR]);
/* Count one I/O whose layers took each[]. */
void io_layers_count(struct io_layers *l, const sim_time each[IOL_NR]);
/* Count one I/O that started at start and was seen complete at end. */
void io_layers_add(struct io_layers *l, sim_time start,
		   const struct io_trace *tr, sim_time end);
void io_layers_merge(struct io_layers *dst, const struct io_layers *src);
/* The mean of layer l over the I/Os counted (ns; 0 without any). */
double io_layers_mean(const struct io_layers *l, enum io_layer layer);
/* A layer's name, as the reports print it ("device", "app_reap"...). */
const char *io_layer_name(enum io_layer l);

/* Besides its mean, each layer's median and the tails a storage engineer
 * asks for, from a histogram of the layer's time per I/O (the job's, fio's
 * clat histogram: stats_layer_percentiles). Unlike the means they do not
 * add up to the total's: each layer's p99 is of its own slowest I/Os,
 * which are not those that make the latency's p99. */
#define IOL_PCT_NR 3
extern const double io_layer_pct[IOL_PCT_NR];	/* 50, 99, 99.9 */

/* Those percentiles of each layer of one direction (ns). */
struct io_layer_tails {
	uint64_t ns[IOL_NR][IOL_PCT_NR];
};

/* The breakdown of each direction with I/Os, as lines of text (a header
 * line, a line naming the columns, then a line per layer) and as JSON:
 * {"read": {"ios": N, "lat_mean_ns": X, "layers": [{"layer", "mean_ns",
 * "share", "percentile_ns": {"50.000000": N, ...}}, ...]}, ...}.
 * names[d] names direction d, tails[d] holds its percentiles. */
void io_layers_text(const struct io_layers *l,
		    const struct io_layer_tails *tails, unsigned ndirs,
		    const char *const *names, GString *out);
json_object *io_layers_json(const struct io_layers *l,
			    const struct io_layer_tails *tails, unsigned ndirs,
			    const char *const *names);

#endif
