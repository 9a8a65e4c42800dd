/* cli.h — the command line (documented in docs/skinview.1.md and --help, which cli.c makes from its
 * option table), parsed into Options (no side effects, unit-tested). */
#ifndef SKINVIEW_CLI_H
#define SKINVIEW_CLI_H

#include "options.h"   /* Options */

#include <stdbool.h>
#include <stddef.h>

/* Parses argv. Returns true on success; on bad usage returns false with a
 * one-line message in error. */
bool cli_parse(int argc, char **argv, Options *options, char *error, size_t error_size);

/* "lbs,dq" (two of lbs, dq, rigid) -> the two methods of --compare; false when malformed. */
bool cli_parse_compare(const char *text, SkinningMethod *a, SkinningMethod *b);

/* The usage text (several lines). */
const char *cli_usage(void);

/* "skinview X.Y.Z", the version of CMake's project(). */
const char *cli_version(void);

#endif
