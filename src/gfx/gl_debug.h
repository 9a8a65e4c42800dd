/* gl_debug.h — any GL error is reported, never silently drawn over.
 *
 * With --gl-debug, or SKINVIEW_GL_DEBUG=1 in the environment (CTest sets it for every test),
 * the context is created as a debug context and, when it offers KHR_debug (Mesa always does),
 * a synchronous callback prints each GL error, naming the call that raised it, as one line
 *     skinview: GL error: <driver message> (during <stage>)
 * Without KHR_debug, gl_debug_check() polls glGetError() after each stage (context creation,
 * renderer set-up, each draw, read-back) instead (SKINVIEW_GL_DEBUG=poll forces that mode). Commands that end with errors counted exit 1;
 * tests also fail on the line itself (tests/CMakeLists.txt FAIL_REGULAR_EXPRESSION).
 */
#ifndef SKINVIEW_GL_DEBUG_H
#define SKINVIEW_GL_DEBUG_H

#include <stdbool.h>

/* --gl-debug: ask for debug checks (SKINVIEW_GL_DEBUG=1 asks too). Call before creating a context. */
void gl_debug_request(void);

/* True when --gl-debug or SKINVIEW_GL_DEBUG=1 asked for checks (context creation asks for a
 * debug context then). */
bool gl_debug_requested(void);

/* On the current context, after GL is loaded: installs the KHR_debug callback, or falls back to
 * glGetError() polling. Returns true if the callback is installed. No-op unless requested. */
bool gl_debug_install(void);

/* Names the stage that runs next (messages say "during <stage>") and, in polling mode, reports
 * the errors raised by the stage before it. No-op unless requested. */
void gl_debug_check(const char *next_stage);

/* GL errors reported so far in this process. */
int gl_debug_error_count(void);

#endif
