/* TEMPORARY while src/io is being written. */
#include "commands.h"
#include <stdio.h>
int command_info(const Model *m, bool json) { (void)m; (void)json; return 1; }
int command_export_pose(const Model *m, int c, float t, const char *p) { (void)m; (void)c; (void)t; (void)p; return 1; }
