/* colormap.h — the weight heat-map's colour map (viridis), as plain numbers: the renderer
 * uploads it as a texture, the legend draws it, tests decode screenshots with it. No GL. */
#ifndef SKINVIEW_COLORMAP_H
#define SKINVIEW_COLORMAP_H

/* Viridis (matplotlib's perceptually uniform map: dark purple at 0, green at 0.5, yellow at 1)
 * at t in [0, 1] (clamped), sRGB-encoded 0..255. A degree-6 polynomial fit of the published
 * table (error < 0.5 %). */
void colormap_viridis_srgb8(float t, unsigned char out[3]);

#endif
