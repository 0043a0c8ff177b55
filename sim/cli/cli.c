/*
 * The conventions every storsim command keeps: "storsim [GROUP] COMMAND
 * [OPTION...] ARGS", help for any command as "storsim help COMMAND" or
 * "COMMAND --help", usage lines that start with the full command, and
 * for a misspelt command or option the nearest name, by fio's rule
 * (storsim_closest()).
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine/util.h"

static const struct cli_command *find(const struct cli_command *cmds,
				      const char *name)
{
	for (const struct cli_command *c = cmds; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}

static bool is_top(const char *path)
{
	return strcmp(path, "storsim") == 0;
}

static void usage(FILE *f, const char *path, const char *about,
		  const struct cli_command *cmds)
{
	/* "trace" of "storsim trace", for "storsim help trace COMMAND" */
	const char *rest = is_top(path) ? "" : path + strlen("storsim ");

	fprintf(f, "Usage: %s COMMAND [OPTION...] [ARGS]\n\n%s\n\nCommands:\n",
		path, about);
	for (const struct cli_command *c = cmds; c->name; c++)
		fprintf(f, "  %-13s %s\n", c->name, c->summary);
	fprintf(f, "\nOptions:\n  -h, --help    print this help\n");
	if (is_top(path))
		fprintf(f, "  --version     print the version\n");
	fprintf(f, "\nRun '%s COMMAND --help' or 'storsim help %s%sCOMMAND' for a "
		"command's options.\n", path, rest, *rest ? " " : "");
	if (is_top(path))
		fprintf(f, "Exit status: 0 on success, 1 on bad input or a failed check.\n");
}

static int unknown(const char *path, const struct cli_command *cmds,
		   const char *name)
{
	g_autoptr(GPtrArray) names = g_ptr_array_new();

	for (const struct cli_command *c = cmds; c->name; c++)
		g_ptr_array_add(names, (gpointer)c->name);
	const char *near = storsim_closest(name, (const char *const *)names->pdata,
					   names->len);
	fprintf(stderr, "%s: unknown command '%s'", path, name);
	if (near)
		fprintf(stderr, "; did you mean '%s'?", near);
	fprintf(stderr, "\nRun '%s --help' for the commands.\n", path);
	return 1;
}

/* "help A B" is "A B --help". */
static int help(const char *path, const char *about,
		const struct cli_command *cmds, int argc, char **argv)
{
	if (argc < 3) {
		usage(stdout, path, about, cmds);
		return 0;
	}
	g_autofree char **v = g_new0(char *, (gsize)argc + 1);
	v[0] = argv[0];
	for (int i = 2; i < argc; i++)
		v[i - 1] = argv[i];
	v[argc - 1] = (char *)"--help";
	return cli_dispatch(path, about, cmds, argc, v);
}

int cli_dispatch(const char *path, const char *about,
		 const struct cli_command *cmds, int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr, path, about, cmds);
		return 1;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		usage(stdout, path, about, cmds);
		return 0;
	}
	if (strcmp(argv[1], "help") == 0)
		return help(path, about, cmds, argc, argv);
	const struct cli_command *c = find(cmds, argv[1]);
	if (!c)
		return unknown(path, cmds, argv[1]);
	g_autofree char *self = g_strdup_printf("%s %s", path, c->name);
	if (c->sub)
		return cli_dispatch(self, c->about, c->sub, argc - 1, argv + 1);
	/* GOption's usage line names g_get_prgname(): the command in full */
	g_set_prgname(self);
	return c->main(argc - 1, argv + 1);
}

char *cli_nearest_option(const char *help, const char *arg)
{
	g_autofree char *name = g_strndup(arg, strcspn(arg, "="));
	g_auto(GStrv) lines = g_strsplit(help, "\n", -1);
	g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func(g_free);

	if (!g_str_has_prefix(name, "--") || !name[2])
		return NULL;
	/* GLib lists an option as "  -j, --jobs=N   help" or "  --force   help" */
	for (char **l = lines; *l; l++) {
		const char *p = *l + strspn(*l, " ");

		if (p == *l || *p != '-')
			continue;
		if (p[1] != '-' && (p = strstr(p, ", --")))
			p += 2;
		if (p && g_str_has_prefix(p, "--"))
			g_ptr_array_add(names, g_strndup(p + 2, strcspn(p + 2, "= ")));
	}
	const char *near = storsim_closest(name + 2, (const char *const *)names->pdata,
					   names->len);
	return near ? g_strconcat("--", near, NULL) : NULL;
}

bool cli_parse(GOptionContext *ctx, int *argc, char ***argv, GError **err)
{
	g_autoptr(GError) e = NULL;

	if (g_option_context_parse(ctx, argc, argv, &e))
		return true;
	if (!g_error_matches(e, G_OPTION_ERROR, G_OPTION_ERROR_UNKNOWN_OPTION)) {
		storsim_input_error(err, "command line", 0, NULL, "%s", e->message);
		return false;
	}
	/* GLib's message ends with the argument as given (argv is left
	 * as it was when the parse fails); the longest that fits is it. */
	const char *arg = NULL;
	for (int i = 1; i < *argc; i++)
		if ((*argv)[i][0] == '-' && g_str_has_suffix(e->message, (*argv)[i]) &&
		    (!arg || strlen((*argv)[i]) > strlen(arg)))
			arg = (*argv)[i];
	if (!arg) {
		storsim_input_error(err, "command line", 0, NULL, "%s", e->message);
		return false;
	}
	g_autofree char *help = g_option_context_get_help(ctx, FALSE, NULL);
	g_autofree char *near = cli_nearest_option(help, arg);
	g_autofree char *name = g_strndup(arg, strcspn(arg, "="));
	if (near)
		storsim_input_error(err, "command line", 0, name,
				    "unknown option; did you mean '%s'?", near);
	else
		storsim_input_error(err, "command line", 0, name,
				    "unknown option (see '%s --help')", g_get_prgname());
	return false;
}
