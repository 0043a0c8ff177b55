/*
 * `storsim validate qemu`: one suite of NVMe command sequences run against
 * QEMU's emulated NVMe (through qtest) and against storsim's device model
 * configured the same way, compared check by check.
 */
#ifndef STORSIM_VALIDATE_H
#define STORSIM_VALIDATE_H

/*
 * argv[0] is "qemu", then options:
 * --output-format=normal|json, --qemu=PATH, --timeout=SECONDS,
 * --keep-temp. Prints the comparison table on stdout; returns 0 when every
 * check agrees or differs in a known way, 1 on a DIFFERENT check, bad
 * options or a QEMU that cannot be driven.
 */
int validate_qemu_main(int argc, char **argv);

enum validate_verdict {
	VALIDATE_AGREE,
	VALIDATE_KNOWN,		/* a recorded difference, with its reason */
	VALIDATE_DIFFERENT,
};

/* The verdict for one check, from the table of known differences: a
 * difference is known when the check and QEMU's value are recorded. */
enum validate_verdict validate_verdict(const char *check, const char *qemu,
				       const char *storsim, const char **reason);

#endif
