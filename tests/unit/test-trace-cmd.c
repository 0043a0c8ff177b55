/*
 * storsim's "trace" subcommand as a program of its own, so that the shell
 * tests run it before sim/main.c's command table lists it.
 */
int cmd_trace(int argc, char **argv);

int main(int argc, char **argv)
{
	return cmd_trace(argc, argv);
}
