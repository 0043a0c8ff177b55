/* Subcommands of the storsim program: each takes argv from its own name. */
#ifndef STORSIM_COMMANDS_H
#define STORSIM_COMMANDS_H

int cmd_calibrate(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_uring_bench(int argc, char **argv);
int cmd_params(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_reproduce(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_trace_info(int argc, char **argv);
int cmd_trace_convert(int argc, char **argv);

#endif
