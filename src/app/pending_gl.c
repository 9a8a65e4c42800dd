/* TEMPORARY while src/gfx is being written: replaced by the real GL commands. */
#include "commands.h"
#include <stdio.h>
int command_view(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: viewer not built yet\n", p); return 1; }
int command_screenshot(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: screenshot not built yet\n", p); return 1; }
int command_verify(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: verify not built yet\n", p); return 1; }
