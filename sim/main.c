/* storsim: command-line entry point. */
#include <stdio.h>

#include "config.h"

int main(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("%s\n", PACKAGE_STRING);
	return 0;
}
