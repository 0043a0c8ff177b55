/* storsim params: the parameter tables of every model, from the registry. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "system/registry.h"
#include "cli.h"

static void print_text(const struct model_info *m)
{
	printf("%s (%s): %s\n", m->name, model_set_by(m->kind), m->summary);
	for (const struct param_def *r = m->params; r->name; r++) {
		printf("  %-24s %-8s default %-10s %s\n", r->name,
		       r->unit && *r->unit ? r->unit : "-", r->def ? r->def : "",
		       r->help);
	}
}

int cmd_params(int argc, char **argv)
{
	gboolean markdown = FALSE;
	g_autoptr(GError) err = NULL;
	const GOptionEntry entries[] = {
		{"markdown", 0, 0, G_OPTION_ARG_NONE, &markdown,
		 "Print Markdown tables (for docs/)", NULL},
		{NULL},
	};
	g_autoptr(GOptionContext) ctx = g_option_context_new("[MODEL...]");

	g_option_context_set_summary(ctx,
		"List the models and their parameters: name, unit, default and\n"
		"meaning, as host, device and file-system profiles set them.");
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (!cli_parse(ctx, &argc, &argv, &err)) {
		fprintf(stderr, "storsim params: %s\n", err->message);
		return 1;
	}
	/* The models named, in that order, or all of them. */
	g_autoptr(GPtrArray) models = g_ptr_array_new();
	for (int i = 1; i < argc; i++) {
		const struct model_info *m = model_find(argv[i]);
		if (!m) {
			fprintf(stderr, "storsim params: command line: unknown model "
				"'%s'\n", argv[i]);
			return 1;
		}
		g_ptr_array_add(models, (gpointer)m);
	}
	for (const struct model_info *m = model_registry; argc == 1 && m->name; m++)
		g_ptr_array_add(models, (gpointer)m);
	for (unsigned i = 0; i < models->len; i++) {
		const struct model_info *m = models->pdata[i];
		if (markdown) {
			g_autoptr(GString) s = g_string_new(NULL);
			params_print_markdown(m->params, s);
			printf("### %s\n\n%s\n\n%s\n", m->name, m->summary, s->str);
		} else {
			print_text(m);
		}
	}
	return 0;
}
