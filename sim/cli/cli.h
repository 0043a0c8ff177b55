/*
 * What every storsim command does the same way: the tables of commands
 * and groups of commands ("storsim trace info"), dispatching on them with
 * "help COMMAND" and a suggestion for a misspelt name, and parsing a
 * command's options with its full name in the usage line and a
 * suggestion for a misspelt option.
 */
#ifndef STORSIM_CLI_H
#define STORSIM_CLI_H

#include <glib.h>
#include <stdbool.h>

/* One row of a table of commands, ended by a row with no name. */
struct cli_command {
	const char *name;
	/* argv[0] is the command's own name; NULL for a group */
	int (*main)(int argc, char **argv);
	const char *summary;
	/* a group's commands, and the paragraph its help opens with */
	const struct cli_command *sub;
	const char *about;
};

/*
 * Run the command of table cmds that argv[1] names, as the group path
 * ("storsim", "storsim trace"); --help, -h and "help [COMMAND...]" print
 * help. An unknown command is refused with the nearest name, if any.
 */
int cli_dispatch(const char *path, const char *about,
		 const struct cli_command *cmds, int argc, char **argv);

/*
 * g_option_context_parse, with an unknown option refused as bad input
 * from the command line, naming the nearest option the context has.
 */
bool cli_parse(GOptionContext *ctx, int *argc, char ***argv, GError **err);

/* The nearest of the options listed in a help text (GLib's format) to
 * the option arg ("--vari=x"), or NULL. */
char *cli_nearest_option(const char *help, const char *arg);

#endif
