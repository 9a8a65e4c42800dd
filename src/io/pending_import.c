/* TEMPORARY while src/io/import.c is being written. */
#include "import.h"
#include <stdio.h>
#include <string.h>
bool import_model(const char *path, const ImportOptions *o, Model *m, char *e, size_t n) { (void)path; (void)o; memset(m, 0, sizeof *m); snprintf(e, n, "importer not built yet"); return false; }
