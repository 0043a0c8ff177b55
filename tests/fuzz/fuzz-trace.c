/*
 * libFuzzer target for the trace readers and the replay options. An input
 * whose first byte is 0xf0 + a trace_format names the reader (0xf0
 * detects) and the rest is the trace; any other input is a trace read
 * with detection, so that the example traces serve as the seed corpus as
 * they are: none opens with such a byte (it would begin a 4-byte UTF-8
 * character; gzip opens with 0x1f, blktrace with 0x07 or 0x65).
 */
#include <gio/gio.h>
#include <stdint.h>

#include "trace/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_read_opts o;
	struct trace_replay_opts ro;
	struct trace_reader *r;
	struct trace_record rec;
	GInputStream *in;

	trace_read_opts_init(&o);
#define SELECT 0xf0
	if (size && data[0] >= SELECT && data[0] < SELECT + TRACE_FORMAT_NR) {
		o.format = data[0] - SELECT;
		data++;
		size--;
	}
	in = g_memory_input_stream_new_from_data(data, (gssize)size, NULL);
	r = trace_open_stream(in, "fuzz", &o, NULL);
	if (!r)
		return 0;
	trace_replay_opts_init(&ro);
	ro.time_scale = 150;
	ro.align = 4096;
	ro.scale = 3;
	while (trace_next(r, &rec, NULL) > 0) {
		trace_replay_apply(&ro, trace_reader_format(r), &rec);
		(void)trace_file_name(r, rec.file);
	}
	trace_close(r);
	return 0;
}
