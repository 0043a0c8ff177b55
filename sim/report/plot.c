/* Plots drawn by gnuplot (plot.h), through GSubprocess. */
#include <gio/gio.h>
#include <string.h>

#include "engine/util.h"
#include "plot.h"

struct plot *plot_new(const char *name, const char *title, unsigned width,
		      unsigned height)
{
	struct plot *p = g_new0(struct plot, 1);

	p->name = g_strdup(name);
	p->title = g_strdup(title);
	p->width = width;
	p->height = height;
	p->data = g_string_new(NULL);
	p->body = g_string_new(NULL);
	return p;
}

void plot_free(struct plot *p)
{
	if (!p)
		return;
	g_free(p->name);
	g_free(p->title);
	g_string_free(p->data, TRUE);
	g_string_free(p->body, TRUE);
	g_free(p);
}

void plot_quote(GString *out, const char *s)
{
	g_string_append_c(out, '\'');
	for (; *s; s++) {
		if (*s == '\'')
			g_string_append_c(out, '\'');
		/* A newline would end the command. */
		g_string_append_c(out, *s == '\n' ? ' ' : *s);
	}
	g_string_append_c(out, '\'');
}

const char *plot_program(void)
{
	const char *p = g_getenv("STORSIM_GNUPLOT");

	return p && *p ? p : "gnuplot";
}

static void terminal(GString *s, const char *dir, const struct plot *p,
		     const char *term, const char *ext)
{
	g_autofree char *file = g_strconcat(p->name, ".", ext, NULL);
	g_autofree char *path = g_build_filename(dir, file, NULL);

	g_string_append_printf(s, "reset\n"
			       "set terminal %s noenhanced size %u,%u font 'sans,11'%s\n"
			       "set output ", term, p->width, p->height,
			       strcmp(ext, "svg") == 0 ? " background '#ffffff'" : "");
	plot_quote(s, path);
	g_string_append_printf(s, "\n%s\nunset output\n", p->body->str);
}

bool plot_render(const char *dir, GPtrArray *plots, GError **err)
{
	g_autoptr(GString) script = g_string_new("set encoding utf8\n");
	g_autoptr(GError) local = NULL;
	g_autofree char *out = NULL, *errtext = NULL;

	for (unsigned i = 0; i < plots->len; i++) {
		const struct plot *p = plots->pdata[i];
		g_string_append(script, p->data->str);
		terminal(script, dir, p, "svg", "svg");
		terminal(script, dir, p, "pngcairo", "png");
	}
	const char *argv[] = {plot_program(), "-", NULL};
	GSubprocess *proc = g_subprocess_newv(argv, G_SUBPROCESS_FLAGS_STDIN_PIPE |
					      G_SUBPROCESS_FLAGS_STDOUT_PIPE |
					      G_SUBPROCESS_FLAGS_STDERR_PIPE, &local);
	if (!proc) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "cannot run %s to draw the plots (%s); install Debian's "
			    "gnuplot-nox", argv[0], local->message);
		return false;
	}
	bool ok = g_subprocess_communicate_utf8(proc, script->str, NULL, &out,
						&errtext, &local);
	if (ok && (!g_subprocess_get_if_exited(proc) ||
		   g_subprocess_get_exit_status(proc) != 0)) {
		g_strstrip(errtext);
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL,
			    "%s failed to draw the plots: %s", argv[0],
			    errtext && *errtext ? errtext : "no message");
		ok = false;
	} else if (!ok) {
		g_set_error(err, STORSIM_ERROR, STORSIM_ERROR_EXTERNAL, "%s: %s",
			    argv[0], local->message);
	}
	g_object_unref(proc);
	return ok;
}
