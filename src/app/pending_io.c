/* TEMPORARY while src/app/info.c is being written. */
#include "commands.h"
int command_info(const Model *m, bool json) { (void)m; (void)json; return 1; }
