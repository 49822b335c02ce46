/* A clock for durations: the pass's profile, the benchmarks and the frame
 * budget of a sliced pass read the same one.
 *
 *   double clock_ms(void)
 *       milliseconds from a fixed point, monotonic where the system has such a
 *       clock (POSIX's CLOCK_MONOTONIC), else C11's TIME_UTC; only differences
 *       mean anything
 */
#ifndef ATTN_CLOCK_H
#define ATTN_CLOCK_H

double clock_ms(void);

#endif
