/* TEMPORARY while src/app/viewer.c is being written. */
#include "commands.h"
#include <stdio.h>
int command_view(const Options *o, const char *p) { (void)o; fprintf(stderr, "skinview: %s: viewer not built yet\n", p); return 1; }
