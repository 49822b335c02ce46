/* Sinusoidal positional encodings; see posenc.h. */
#include "posenc.h"

#include <math.h>

void posenc_sinusoidal(int n, int d, float strength, float *dest) {
    for (int p = 0; p < n; p++) {
        for (int c = 0; c < d; c++) {
            int i2 = c - (c % 2); /* the even index 2i shared by the sin/cos pair */
            double angle = (double)p / pow(10000.0, (double)i2 / (double)d);
            double v = (c % 2 == 0) ? sin(angle) : cos(angle);
            dest[(long)p * d + c] = (float)(strength * v);
        }
    }
}
