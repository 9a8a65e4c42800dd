/* window_target.h — the window's own framebuffer (GL's framebuffer 0) as a render target: bind it
 * to draw the frame, read its back buffer for a screenshot. Offscreen targets: framebuffer.h. */
#ifndef SKINVIEW_WINDOW_TARGET_H
#define SKINVIEW_WINDOW_TARGET_H

/* Binds the window's framebuffer for drawing and sets the viewport to width x height pixels. */
void window_target_bind(int width, int height);

/* Reads the back buffer's width x height RGBA8 pixels into `pixels` (width*height*4 bytes), rows
 * TOP to bottom (ready for an image file), alpha set to 255. NOTE: GL rows go bottom-up; the rows
 * are swapped in place, nothing is allocated. */
void window_target_read_rgba(int width, int height, unsigned char *pixels);

#endif
