/*
 * Per-I/O spans for the timeline (--timeline): each I/O an application
 * submits and sees complete inside the timeline's window, with its stamps (io_trace.h:
 * when it crossed each layer, on which CPU it was submitted and its
 * completion handled, which device queue it went through), its offset,
 * size, direction and job. The front-ends add them where they count the
 * I/O's latency by layer, which --timeline turns on; without --timeline
 * nothing is recorded and nothing is asked of the hot path.
 */
#ifndef STORSIM_IO_TIMELINE_H
#define STORSIM_IO_TIMELINE_H

#include <glib.h>
#include <stdbool.h>

#include "io_trace.h"

enum io_span_dir { IO_SPAN_READ, IO_SPAN_WRITE, IO_SPAN_TRIM };

struct io_span {
	sim_time start, end;	/* the application's submission, its seeing it done */
	struct io_trace tr;
	uint64_t offset;
	uint32_t size;
	uint8_t dir;		/* enum io_span_dir */
	uint16_t job;		/* io_timeline_job's index */
};

struct io_timeline;

struct io_timeline *io_timeline_new(sim_time from, sim_time to, size_t max);
void io_timeline_free(struct io_timeline *t);
/* The index of a job, by its name (copied), for io_span.job. */
unsigned io_timeline_job(struct io_timeline *t, const char *name);
const char *io_timeline_job_name(const struct io_timeline *t, unsigned job);
/* Keep s if it lies within the window and fewer than max are kept. */
void io_timeline_add(struct io_timeline *t, const struct io_span *s);
const struct io_span *io_timeline_spans(const struct io_timeline *t, size_t *n,
					bool *truncated);

#endif
