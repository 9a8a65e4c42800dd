/* validate_fixture.h — what the two files of test_validate share: a small valid model to break, and
 * running the validator on it expecting a repair or a refusal. */
#ifndef SKINVIEW_TEST_VALIDATE_FIXTURE_H
#define SKINVIEW_TEST_VALIDATE_FIXTURE_H

#include "anim/animator.h"
#include "io/validate.h"
#include "testutil.h"

void base_model(Model *model);

typedef struct Verdict {
    bool ok;
    int  repairs;
    int  warning_lines;       /* lines written, each must start "skinview: warning: memory.model: " */
    bool lines_well_formed;
    char error[512];
    char warnings[4096];
} Verdict;
Verdict validate(Model *model);

/* A repair: accepted, at least one warning, one line per repair, the line mentions `word`. */
void expect_repair(const char *what, const Verdict *v, const char *word);

/* A rejection: refused with a one-line message mentioning `word`. */
void expect_reject(const char *what, const Verdict *v, const char *word);

/* ---- what main runs from the other files of the program ---- */
void test_clip_rules(void);
void test_textures(void);
void test_morph_rules(void);

/* Finite but absurd magnitudes: their products would overflow on the way to the vertices. */
void test_magnitude_rules(void);

#endif
