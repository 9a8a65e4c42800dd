/* TEMPORARY while src/app/gl_commands.c is being written. */
#include "commands.h"
#include <stdio.h>
int command_screenshot(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: screenshot not built yet\n", p); return 1; }
int command_verify(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: verify not built yet\n", p); return 1; }
