/*
 * Helper for tests/output-clat2csv.sh: writes the output of a fixed
 * synthetic run in the given --output-format to a file, through
 * output_parse_formats and output_write_file as the program does.
 *
 * Usage: test-output-sample FORMATS FILE
 *
 * The run: one job "sample"; 1000 reads of 4 KiB with clat 1000 + i ns
 * (i = 0..999) and lat 100 ns more; 10 writes of 8 KiB with clat 3 ms.
 * clat and lat percentiles are on, so json+ has bins for both.
 */
#include <stdio.h>

#include "workloads/fio/output.h"
#include "engine/stats.h"

int main(int argc, char **argv)
{
	g_autoptr(GError) err = NULL;
	g_autofree char *text = NULL;
	struct stats_config cfg;
	struct output_job job;
	struct output_run run = { .version = "storsim-test", .jobs = &job,
				  .nr_jobs = 1 };
	struct job_stats *js;
	unsigned formats;
	int status = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: %s FORMATS FILE\n", argv[0]);
		return 2;
	}
	if (!output_parse_formats(argv[1], NULL, 0, &formats, &err)) {
		fprintf(stderr, "%s\n", err->message);
		return 1;
	}
	stats_config_init(&cfg);
	cfg.lat_percentiles = true;
	js = stats_new(&cfg, 0);
	for (unsigned i = 0; i < 1000; i++)
		stats_add_io(js, STATS_READ, i * SIM_USEC, 4096, 50, 1000 + i,
			     1100 + i);
	for (unsigned i = 0; i < 10; i++)
		stats_add_io(js, STATS_WRITE, SIM_MSEC, 8192, 50, 3000000,
			     3000100);
	stats_finish(js, 2 * SIM_MSEC);
	output_job_init(&job);
	job.name = "sample";
	job.stats = js;
	text = output_render(&run, formats);
	if (!output_write_file(argv[2], text, &err)) {
		fprintf(stderr, "%s\n", err->message);
		status = 1;
	}
	stats_free(js);
	return status;
}
