/*
 * `storsim validate ...` until sim/main.c dispatches to it: the same
 * entry point, so tests/validate-qemu.sh runs what the program will.
 */
#include "validate.h"

int main(int argc, char **argv)
{
	return validate_main(argc, argv);
}
