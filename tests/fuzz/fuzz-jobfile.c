/*
 * Description: libFuzzer target for the job file reader. The input is one
 * job file held in memory; when its first line starts with "--" that line
 * is taken as fio command-line options (split at blanks) and the rest as
 * the file, so both syntaxes are fuzzed. Includes are disabled and the
 * environment is fixed, so a run depends on its input only.
 */
#include <stdint.h>
#include <string.h>

#include "workloads/fio/jobfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const fixed_environ[] = { "FIO_BS=4k", "EMPTY=", NULL };
	static const struct jobfile_env env = {
		.ncpus = 4, .pagesize = 4096, .mb_memory = 1024,
		.environ = fixed_environ, .no_include = true,
	};
	const char *text = (const char *)data;
	g_auto(GStrv) opts = NULL;
	GError *err = NULL;
	struct job_list *l;

	if (size > 2 && text[0] == '-' && text[1] == '-') {
		const char *nl = memchr(text, '\n', size);
		size_t n = nl ? (size_t)(nl - text) : size;
		g_autofree char *line = g_strndup(text, n);

		opts = g_strsplit_set(line, " \t", -1);
		text += n;
		size -= n;
	}
	l = jobfile_parse_buffer(&env, "fuzz.fio", text, size, opts,
				 opts ? (int)g_strv_length(opts) : 0, &err);
	job_list_free(l);
	g_clear_error(&err);
	return 0;
}
