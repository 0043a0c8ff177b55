/* storsim validate real: the validation grid in real fio and in storsim. */
#ifndef STORSIM_VALIDATE_REAL_H
#define STORSIM_VALIDATE_REAL_H

int validate_real_main(int argc, char **argv);

#endif
