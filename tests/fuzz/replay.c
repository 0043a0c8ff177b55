/*
 * Description: feeds files (or every file of a directory) to the libFuzzer
 * target once each, so that the fuzz corpus is replayed by a normal build,
 * with or without sanitizers, where clang's libFuzzer is missing.
 */
#include <stdint.h>
#include <stdio.h>

#include <glib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	g_autofree char *text = NULL;
	gsize len;

	if (!g_file_get_contents(path, &text, &len, NULL)) {
		fprintf(stderr, "%s: cannot read\n", path);
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)text, len);
	return 0;
}

int main(int argc, char **argv)
{
	int bad = 0, n = 0;

	for (int i = 1; i < argc; i++) {
		GDir *dir = g_dir_open(argv[i], 0, NULL);
		const char *name;

		if (!dir) {
			bad |= replay_file(argv[i]);
			n++;
			continue;
		}
		while ((name = g_dir_read_name(dir))) {
			g_autofree char *path = g_build_filename(argv[i], name, NULL);

			bad |= replay_file(path);
			n++;
		}
		g_dir_close(dir);
	}
	printf("replayed %d inputs\n", n);
	return bad;
}
