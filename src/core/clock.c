/* The duration clock; see clock.h. */
#define _POSIX_C_SOURCE 200809L
#include "clock.h"

#include <time.h>

double clock_ms(void) {
    struct timespec t;
#ifdef CLOCK_MONOTONIC
    clock_gettime(CLOCK_MONOTONIC, &t);
#else
    timespec_get(&t, TIME_UTC);
#endif
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
