/* testx11.h — grabbing a window of the X server (the viewer under xvfb-run, its HUD included: an
 * S screenshot has none). */
#ifndef SKINVIEW_TESTX11_H
#define SKINVIEW_TESTX11_H

/* The pixels of the window with decimal id `window_id` (xdotool's), RGB, top row first; *width and
 * *height set. NULL when there is no display or no such window; free() the result. */
unsigned char *test_grab_window(const char *window_id, int *width, int *height);

#endif
