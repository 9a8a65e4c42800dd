/* test_doc_numbers.c — docs/skinning.md cannot disagree with the code:
 *   1. every worked-example block ("<!-- numbers: NAME -->" ... "<!-- /numbers -->") is exactly what
 *      tools/skinning_numbers.c prints today from src/anim, and docs/images/offset_matrix.svg is
 *      exactly what it draws (regenerate both: build/skinning_numbers --update docs/skinning.md,
 *      build/skinning_numbers --svg docs/images/offset_matrix.svg);
 *   2. every reference to the doc resolves: "trap N" (in the doc, and "trap N in docs/skinning.md"
 *      in src/, tests/, shaders/, tools/) names a row of its traps table, "section N" / "appendix X"
 *      a heading "## N." / "## X.", and docs/skinning.md, "Name" a heading that contains Name.
 * The messages say which block or which file:line is wrong. */
#include "testutil.h"
#include "skinning_numbers.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

/* Line number of position p in text (1-based). */
static int line_of(const char *text, const char *p)
{
    int line = 1;
    for (const char *c = text; c < p; c++)
        if (*c == '\n') line++;
    return line;
}

/* The first line where a and b differ, for the message. */
static void first_difference(const char *a, const char *b, char *out, size_t size)
{
    int line = 1;
    const char *line_a = a, *line_b = b;
    while (*a && *a == *b) {
        if (*a == '\n') line++, line_a = a + 1, line_b = b + 1;
        a++, b++;
    }
    int length_a = (int)strcspn(line_a, "\n"), length_b = (int)strcspn(line_b, "\n");
    snprintf(out, size, "line %d of the block: doc has \"%.*s\", the code prints \"%.*s\"", line, length_a > 120 ? 120 : length_a,
             line_a, length_b > 120 ? 120 : length_b, line_b);
}

static void check_blocks(const char *doc)
{
    static char block[SKINNING_NUMBERS_MAX_BLOCK];
    for (int i = 0; i < SKINNING_NUMBERS_BLOCK_COUNT; i++) {
        const char *name = SKINNING_NUMBERS_BLOCKS[i];
        bool made = skinning_numbers_block(name, block, sizeof block);
        CHECK(made, "skinning_numbers_block(\"%s\") prints its block", name);
        char open[96];
        snprintf(open, sizeof open, "<!-- numbers: %s -->\n", name);
        const char *start = strstr(doc, open);
        CHECK(start != NULL, "docs/skinning.md has the block \"%s\"", name);
        if (!start || !made) continue;
        start += strlen(open);
        const char *end = strstr(start, "<!-- /numbers -->");
        CHECK(end != NULL, "docs/skinning.md: the block \"%s\" ends with <!-- /numbers -->", name);
        if (!end) continue;
        size_t length = (size_t)(end - start);
        bool same = length == strlen(block) && memcmp(start, block, length) == 0;
        char where[400] = "";
        if (!same) {
            char *copy = malloc(length + 1);
            if (copy) {
                memcpy(copy, start, length);
                copy[length] = '\0';
                first_difference(copy, block, where, sizeof where);
                free(copy);
            }
        }
        CHECK(same, "docs/skinning.md block \"%s\" (line %d) is what src/anim computes today (%s); run "
                    "build/skinning_numbers --update docs/skinning.md",
              name, line_of(doc, start), where);
    }
    static char svg[SKINNING_NUMBERS_MAX_BLOCK];
    CHECK(skinning_numbers_svg(svg, sizeof svg), "skinning_numbers_svg draws the diagram");
    char *committed = test_read_file(SKINVIEW_SOURCE_DIR "/docs/images/offset_matrix.svg", NULL);
    CHECK(committed != NULL, "docs/images/offset_matrix.svg exists");
    if (committed) {
        char where[400] = "";
        bool same = strcmp(committed, svg) == 0;
        if (!same) first_difference(committed, svg, where, sizeof where);
        CHECK(same, "docs/images/offset_matrix.svg is what tools/skinning_numbers.c draws (%s); run "
                    "build/skinning_numbers --svg docs/images/offset_matrix.svg",
              where);
        free(committed);
    }
}

/* ---- references ---------------------------------------------------------- */

/* True if the doc has a heading line "## LABEL." (LABEL a number or a letter). */
static bool has_numbered_heading(const char *doc, const char *label)
{
    char heading[32];
    snprintf(heading, sizeof heading, "## %s. ", label);
    for (const char *line = doc; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
        if (strncmp(line, heading, strlen(heading)) == 0) return true;
    return false;
}

/* True if some heading ("#" lines) contains name, case-insensitively. */
static bool has_heading_named(const char *doc, const char *name)
{
    size_t n = strlen(name);
    for (const char *line = doc; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (line[0] != '#') continue;
        size_t length = strcspn(line, "\n");
        for (size_t i = 0; i + n <= length; i++)
            if (strncasecmp(line + i, name, n) == 0) return true;
    }
    return false;
}

/* The traps table: the rows "| N | ..." of the section whose heading names "traps". */
static bool has_trap(const char *doc, int number)
{
    const char *section = NULL;
    for (const char *line = doc; line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (strncmp(line, "## ", 3) == 0) {
            size_t length = strcspn(line, "\n");
            bool traps = false;
            for (size_t i = 0; i + 5 <= length; i++)
                if (strncasecmp(line + i, "traps", 5) == 0) traps = true;
            if (section) return false;   /* the traps section ended without the row */
            if (traps) section = line;
            continue;
        }
        if (section && line[0] == '|') {
            int row = 0;
            if (sscanf(line, "| %d |", &row) == 1 && row == number) return true;
        }
    }
    return false;
}

/* A quoted name after a citation, comment leaders (" * ", "// ") and line breaks folded to one space. */
static bool quoted_name(const char *p, char *out, size_t size)
{
    if (*p != '"') return false;
    size_t n = 0;
    bool space = false;
    for (p++; *p && *p != '"' && n + 1 < size; p++) {
        if (*p == '\n') {
            p++;
            while (*p == ' ' || *p == '*' || *p == '/' || *p == '#') p++;
            p--;
            space = true;
            continue;
        }
        if (*p == ' ') {
            space = true;
            continue;
        }
        if (space && n > 0) out[n++] = ' ';
        space = false;
        out[n++] = *p;
    }
    out[n] = '\0';
    return *p == '"' && n > 0;
}

static int references_checked;

/* Every citation of docs/skinning.md in one source file. */
static void check_file_references(const char *doc, const char *path, const char *text)
{
    const char *needle = "skinning.md";
    for (const char *p = strstr(text, needle); p; p = strstr(p + 1, needle)) {
        /* "trap N in docs/skinning.md" / "trap N of docs/skinning.md" */
        const char *back = p;
        while (back > text && back[-1] != ' ' && back[-1] != '(') back--;   /* start of "docs/skinning.md" */
        const char *trap = back - 1;
        while (trap > text && trap > back - 24 && strncmp(trap, "trap ", 5) != 0) trap--;
        int number = 0;
        if (strncmp(trap, "trap ", 5) == 0 && sscanf(trap + 5, "%d", &number) == 1) {
            references_checked++;
            CHECK(has_trap(doc, number), "%s:%d cites trap %d of docs/skinning.md: its traps table has no row %d", path,
                  line_of(text, p), number, number);
        }
        const char *after = p + strlen(needle);
        while (*after == ' ' || *after == ',' || *after == '(' || *after == ':') after++;
        char name[128];
        if (quoted_name(after, name, sizeof name)) {
            references_checked++;
            CHECK(has_heading_named(doc, name), "%s:%d cites docs/skinning.md \"%s\": no heading has that name", path,
                  line_of(text, p), name);
        }
        char label[8];
        if (sscanf(after, "section %7[0-9A-Z]", label) == 1 || sscanf(after, "appendix %7[A-Z]", label) == 1) {
            references_checked++;
            CHECK(has_numbered_heading(doc, label), "%s:%d cites docs/skinning.md section %s: no heading \"## %s.\"",
                  path, line_of(text, p), label, label);
        }
    }
}

/* One file of the tree (test_walk_files' visitor; context: the doc). */
static void check_tree_file(const char *path, void *doc)
{
    const char *name = strrchr(path, '/') + 1;
    const char *dot = strrchr(name, '.');
    if (!dot || !(strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".cpp") == 0 ||
                  strcmp(dot, ".vert") == 0 || strcmp(dot, ".frag") == 0 || strcmp(dot, ".geom") == 0 ||
                  strcmp(dot, ".cmake") == 0 || strcmp(dot, ".sh") == 0 || strcmp(dot, ".md") == 0 ||
                  strcmp(dot, ".svg") == 0))
        return;
    if (strcmp(name, "test_doc_numbers.c") == 0) return;   /* this file names the forms */
    char *text = test_read_file(path, NULL);
    if (!text) return;
    check_file_references(doc, path + strlen(SKINVIEW_SOURCE_DIR) + 1, text);
    free(text);
}

/* Inside the doc: "section N", "appendix X" and "trap N" / "traps N and M" name what exists. */
static void check_doc_references(const char *doc)
{
    for (const char *p = doc; *p; p++) {
        if (p > doc && isalnum((unsigned char)p[-1])) continue;
        char label[8];
        int number = 0;
        if (sscanf(p, "section %7[0-9]", label) == 1 || sscanf(p, "sections %7[0-9]", label) == 1 ||
            sscanf(p, "appendix %7[A-Z]", label) == 1) {
            references_checked++;
            CHECK(has_numbered_heading(doc, label), "docs/skinning.md:%d refers to \"%.12s\": no heading \"## %s.\"",
                  line_of(doc, p), p, label);
        }
        if (sscanf(p, "trap %d", &number) == 1) {
            references_checked++;
            CHECK(has_trap(doc, number), "docs/skinning.md:%d refers to trap %d: the traps table has no row %d",
                  line_of(doc, p), number, number);
        }
    }
}

int main(void)
{
    char *doc = test_read_file(SKINVIEW_SOURCE_DIR "/docs/skinning.md", NULL);
    CHECK(doc != NULL, "docs/skinning.md can be read");
    if (!doc) return test_finish();
    check_blocks(doc);
    check_doc_references(doc);
    static const char *const trees[] = {"src", "tests", "shaders", "tools", "docs", "bench"};
    for (size_t i = 0; i < sizeof trees / sizeof trees[0]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", SKINVIEW_SOURCE_DIR, trees[i]);
        test_walk_files(path, 64, check_tree_file, doc);
    }
    char *readme = test_read_file(SKINVIEW_SOURCE_DIR "/README.md", NULL);
    if (readme) check_file_references(doc, "README.md", readme);
    free(readme);
    printf("%d references to docs/skinning.md checked\n", references_checked);
    CHECK(references_checked >= 20, "the sources cite the doc (found %d references; the scan is broken?)",
          references_checked);
    free(doc);
    return test_finish();
}
