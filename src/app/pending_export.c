/* TEMPORARY while src/app/export_cmd.c is being written. */
#include "commands.h"
int command_export_pose(const Model *m, int c, float t, const char *p) { (void)m; (void)c; (void)t; (void)p; return 1; }
