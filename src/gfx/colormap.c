/* colormap.c — viridis as a polynomial (see colormap.h). */
#include "colormap.h"

void colormap_viridis_srgb8(float t, unsigned char out[3])
{
    /* c(t) = c0 + t (c1 + t (c2 + ... + t c6)), per channel: a least-squares fit of viridis
     * (coefficients from Matt Zucker's public-domain fit). */
    static const double c[7][3] = {
        {0.2777273272234177, 0.005407344544966578, 0.3340998053353061},
        {0.1050930431085774, 1.404613529898575, 1.384590162594685},
        {-0.3308618287255563, 0.214847559468213, 0.09509516302823659},
        {-4.634230498983486, -5.799100973351585, -19.33244095627987},
        {6.228269936347081, 14.17993336680509, 56.69055260068105},
        {4.776384997670288, -13.74514537774601, -65.35303263337234},
        {-5.435455855934631, 4.645852612178535, 26.3124352495832},
    };
    double x = t > 0.0f ? (t < 1.0f ? (double)t : 1.0) : 0.0;   /* NaN: 0 */
    for (int channel = 0; channel < 3; channel++) {
        double value = c[6][channel];
        for (int k = 5; k >= 0; k--) value = c[k][channel] + x * value;   /* Horner */
        value = value > 0.0 ? (value < 1.0 ? value : 1.0) : 0.0;
        out[channel] = (unsigned char)(value * 255.0 + 0.5);
    }
}
