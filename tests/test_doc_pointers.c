/* test_doc_pointers.c — the code pointers of README.md, docs/skinning.md and docs/retargeting.md point at code that exists:
 *   - every path they name under src/, shaders/, tests/, tools/, bench/, assets/, scripts/ or docs/
 *     ("src/anim/pose.c", "src/io/fbx/", "src/io/import*.c") is a file or folder of the tree (a
 *     pattern with '*' matches at least one);
 *   - every name given with its file — "`pose_set_rest` (src/anim/pose.c)", "(skin_palette,
 *     src/anim/skin.c)", "`fbx_apply_dq_weights` in src/io/fbx/fbx_apply_skin.c" — occurs in that
 *     file as a whole word (for "`Mesh.bind_matrix` (...)": bind_matrix), or for a file of tests/ is
 *     the CTest name a tests/<stage>.cmake registers.
 * First the checker is run on a made-up text with a missing file and a missing function, which must
 * both be reported, so the test can fail. The messages say which doc:line is wrong. */
#include "testutil.h"

#include <ctype.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const roots[] = {"src/", "shaders/", "tests/", "tools/", "bench/", "assets/", "scripts/", "docs/"};

static int line_of(const char *text, const char *p)
{
    int line = 1;
    for (const char *c = text; c < p; c++) line += *c == '\n';
    return line;
}

static bool path_char(char c) { return isalnum((unsigned char)c) || c == '_' || c == '/' || c == '.' || c == '*' || c == '-' || c == '+'; }
static bool word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Does `word` occur in text as a whole word? */
static bool has_word(const char *text, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || !word_char(p[-1])) && !word_char(p[n])) return true;
    return false;
}

/* Is `name` a CTest name registered in a tests/<stage>.cmake (e.g. "`io_same_names` (tests/test_same_names.c)")? */
static bool registered_test(const char *name)
{
    glob_t parts;
    bool found = false;
    if (glob(SKINVIEW_SOURCE_DIR "/tests/*.cmake", 0, NULL, &parts) == 0)
        for (size_t i = 0; i < parts.gl_pathc && !found; i++) {
            char *text = test_read_file(parts.gl_pathv[i], NULL);
            found = text && has_word(text, name);
            free(text);
        }
    globfree(&parts);
    return found;
}

/* The name just before a path at `start` ("`name` (", "`name`, ", "`name` in ", "(name, "), into
 * name (its last '.'-component); false when there is none. */
static bool name_before(const char *text, const char *start, char *name, size_t size)
{
    const char *p = start;
    if (p > text && p[-1] == '(') p--;
    while (p > text && p[-1] == ' ') p--;
    if (p - text >= 3 && strncmp(p - 3, " in", 3) == 0) p -= 3;
    else if (p > text && p[-1] == ',') p--;
    else if (!(start > text && start[-1] == '(')) return false;   /* "`name` (path" needs the bracket */
    while (p > text && p[-1] == ' ') p--;
    const char *end = p, *begin;
    if (p > text && p[-1] == '`') {   /* `name` */
        end = p - 1;
        begin = end;
        while (begin > text && begin[-1] != '`' && end - begin < 80) begin--;
        if (begin == text || begin[-1] != '`') return false;
    } else {   /* (name, path */
        begin = end;
        while (begin > text && word_char(begin[-1])) begin--;
        if (begin == end || begin == text || begin[-1] != '(') return false;
    }
    const char *dot = begin;
    for (const char *c = begin; c < end; c++) {
        if (*c == '.') dot = c + 1;
        else if (!word_char(*c)) return false;   /* a formula or a phrase, not a name */
    }
    if (end - dot <= 0 || (size_t)(end - dot) >= size || isdigit((unsigned char)*dot)) return false;
    memcpy(name, dot, (size_t)(end - dot));
    name[end - dot] = '\0';
    return true;
}

/* Checks every pointer in `text` (named `doc` in the messages); returns how many are wrong. */
static int check_pointers(const char *doc, const char *text, int *checked)
{
    int wrong = 0;
    for (const char *p = text; *p; p++) {
        if (p > text && path_char(p[-1])) continue;
        size_t r = 0;
        while (r < sizeof roots / sizeof roots[0] && strncmp(p, roots[r], strlen(roots[r])) != 0) r++;
        if (r == sizeof roots / sizeof roots[0]) continue;
        size_t length = 0;
        while (path_char(p[length])) length++;
        while (length > 0 && (p[length - 1] == '.' || p[length - 1] == '-')) length--;   /* end of a sentence */
        char relative[512], full[1024];
        snprintf(relative, sizeof relative, "%.*s", (int)length, p);
        snprintf(full, sizeof full, "%s/%s", SKINVIEW_SOURCE_DIR, relative);
        (*checked)++;
        bool exists = false, is_file = false;
        struct stat info;
        if (strchr(relative, '*')) {
            glob_t found;
            exists = glob(full, 0, NULL, &found) == 0 && found.gl_pathc > 0;
            globfree(&found);
        } else if (stat(full, &info) == 0) {
            exists = true;
            is_file = S_ISREG(info.st_mode);
        }
        if (!exists) {
            fprintf(stderr, "%s:%d: \"%s\" does not exist\n", doc, line_of(text, p), relative);
            wrong++;
        }
        char name[96];
        if (is_file && name_before(text, p, name, sizeof name)) {
            (*checked)++;
            char *code = test_read_file(full, NULL);
            bool found = code && has_word(code, name);
            if (!found && strncmp(relative, "tests/", 6) == 0) found = registered_test(name);   /* a CTest name */
            if (!found) {
                fprintf(stderr, "%s:%d: \"%s\" is not in %s\n", doc, line_of(text, p), name, relative);
                wrong++;
            }
            free(code);
        }
        p += length > 0 ? length - 1 : 0;
    }
    return wrong;
}

int main(void)
{
    /* the checker itself: a missing file and a missing function are each one wrong pointer */
    int checked = 0;
    fprintf(stderr, "self-check, two wrong pointers expected:\n");
    int wrong = check_pointers("(made-up text)",
                               "`pose_set_rest` (src/anim/pose.c), `no_such_function_here` (src/anim/pose.c), "
                               "src/anim/no_such_file.c, (skin_palette, src/anim/skin.c).", &checked);
    CHECK(wrong == 2 && checked == 7, "the checker finds the 2 wrong pointers of the made-up text (%d wrong of %d)",
          wrong, checked);

    /* two literals: docs_numbers would take the text after the file name for a cited heading */
    static const char *const docs[] = {"README.md", "docs/skinning" ".md", "docs/retargeting" ".md"};
    for (size_t d = 0; d < sizeof docs / sizeof docs[0]; d++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_SOURCE_DIR, docs[d]);
        char *text = test_read_file(path, NULL);
        CHECK(text != NULL, "%s can be read", docs[d]);
        if (!text) continue;
        checked = 0;
        wrong = check_pointers(docs[d], text, &checked);
        CHECK(wrong == 0, "%s: %d of its %d code pointers are wrong (listed above)", docs[d], wrong, checked);
        CHECK(checked >= 10, "%s: %d code pointers found (the scan is broken?)", docs[d], checked);
        printf("%s: %d code pointers checked, %d wrong\n", docs[d], checked, wrong);
        free(text);
    }
    return test_finish();
}
