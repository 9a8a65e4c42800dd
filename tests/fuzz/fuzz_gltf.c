/* fuzz_gltf.c — libFuzzer target for skinview's own glTF 2.0 reader (src/io/gltf/), no Assimp.
 *
 * Each input is one .gltf (JSON) or .glb file in memory, handed straight to the reader, whatever
 * its first bytes are (fuzz_import.c only sends what looks like glTF). It then goes the way every
 * glTF goes through skinview:
 *   gltf_import()        GLB chunks, JSON, data: URIs, accessors (every component type, sparse,
 *                        quantized), meshopt / Draco / WebP decoders, skins, morphs, animations
 *   model_validate()     the rules every import ends with
 *   animator_evaluate()  every clip (at most 8) at 0, 1/3, its end and past it, rest and bind poses
 *   animator_skin_mesh() every mesh on the CPU
 * and checks the reader's promises: a refusal is one line and every repair warning is one line, with
 * no control character and no invalid UTF-8 whatever the file's names hold (base/quote.h:
 * quote_is_clean; the warnings go to a memory stream), and what validation lets through
 * skins to finite numbers. A broken promise aborts (a crash for libFuzzer). Files the model
 * points at are not read (from memory, external URIs give "cannot read").
 *
 * Built only with clang (cmake -DSKINVIEW_FUZZ=ON; scripts/fuzz.sh builds and runs it).
 */
#include "fuzz_animate.h"
#include "base/quote.h"
#include "io/gltf/gltf_import.h"
#include "io/validate.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void check(bool promise, const char *what)
{
    if (promise) return;
    fprintf(stderr, "fuzz_gltf: broken promise: %s\n", what);
    abort();
}

/* Every warning line "skinview: warning: ...\n" is clean (one line: no control character inside). */
static void check_warnings(char *text, size_t length)
{
    for (size_t at = 0; at < length;) {
        const char *end = memchr(text + at, '\n', length - at);
        check(end != NULL, "a warning ends with its newline");
        size_t line = (size_t)(end - (text + at));
        check(strncmp(text + at, "skinview: warning: ", 19) == 0, "a warning line starts as one");
        check(quote_is_clean(text + at, line), "a warning is one line without control characters");
        at += line + 1;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Model model;
    memset(&model, 0, sizeof model);
    char error[512] = "";
    bool version_1 = false;
    char *warning_text = NULL;
    size_t warning_length = 0;
    FILE *warnings = open_memstream(&warning_text, &warning_length);
    bool read = gltf_import(NULL, data, size, 0, SV_MAX_INFLUENCES_KEPT, true, warnings, &model, &version_1, error,
                            sizeof error);
    if (read) {
        error[0] = '\0';
        int repairs = 0;
        read = model_validate(&model, warnings, &repairs, error, sizeof error);
    }
    if (warnings) {
        fclose(warnings);
        check_warnings(warning_text, warning_length);
        free(warning_text);
    }
    if (!read) {
        check(version_1 || (error[0] != '\0' && quote_is_clean(error, strlen(error))),
              "a refusal is one line without control characters");
        model_free(&model);
        return 0;
    }
    fuzz_animate(&model);
    fuzz_export(&model);
    model_free(&model);
    return 0;
}
