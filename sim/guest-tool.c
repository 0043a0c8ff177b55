/*
 * storsim-guest: `storsim guest` as a program of its own, for make
 * check-guest and the tests, until sim/main.c dispatches the subcommand.
 */
#include "guest.h"

int main(int argc, char **argv)
{
	return guest_main(argc, argv);
}
