/* test_docs.c — the three places that list the command line agree:
 *   `skinview --help`, the README's "## Using it" section and the man page (docs/skinview.1.md,
 *   and the roff the build made from it) name the same long options (--flag), and each option
 *   has an OPTIONS entry of its own in the man page;
 *   the README's key table(s) and the man page's KEYS table name the same keys, and exactly the
 *   keys of the one key table (src/view/keys.c, its rows' `doc` names).
 * A new flag goes into all three (src/app/cli.c, README.md, docs/skinview.1.md); a new key
 * into the key table and both documents' tables. The messages say which file lacks what.
 * argv[1]: the generated man page (build/man/skinview.1). */
#include "testutil.h"
#include "view/keys.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_WORDS 256
#define MAX_WORD 64

typedef struct WordSet {
    int  count;
    char words[MAX_WORDS][MAX_WORD];
} WordSet;

static void set_add(WordSet *set, const char *word, size_t length)
{
    if (length == 0 || length >= MAX_WORD) return;
    for (int i = 0; i < set->count; i++)
        if (strlen(set->words[i]) == length && memcmp(set->words[i], word, length) == 0) return;
    if (set->count == MAX_WORDS) return;
    memcpy(set->words[set->count], word, length);
    set->words[set->count][length] = '\0';
    set->count++;
}

static bool set_has(const WordSet *set, const char *word)
{
    for (int i = 0; i < set->count; i++)
        if (strcmp(set->words[i], word) == 0) return true;
    return false;
}

/* Every long option (--name) in text: "--" not preceded by a word character or '-',
 * followed by a lowercase letter or digit, then letters, digits and '-'. */
static void collect_flags(const char *text, WordSet *flags)
{
    for (const char *p = text; *p; p++) {
        if (p[0] != '-' || p[1] != '-') continue;
        if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '-' || p[-1] == '_')) continue;
        const char *end = p + 2;
        if (!(islower((unsigned char)*end) || isdigit((unsigned char)*end))) continue;
        while (islower((unsigned char)*end) || isdigit((unsigned char)*end) || *end == '-') end++;
        while (end[-1] == '-') end--;   /* "--flag-" at a line break */
        set_add(flags, p, (size_t)(end - p));
        p = end - 1;
    }
}

/* The part of a Markdown text from the line `heading` to the next heading of the same level
 * (or the end); NULL if the heading is missing. Returned text is a copy. */
static char *section(const char *text, const char *heading)
{
    size_t heading_length = strlen(heading);
    const char *start = text;
    while (start) {
        if (strncmp(start, heading, heading_length) == 0 && (start[heading_length] == '\n' || start[heading_length] == ' '))
            break;
        start = strchr(start, '\n');
        if (start) start++;
    }
    if (!start) return NULL;
    /* the level: "## " ends at the next "## " line, "# " at the next "# " line */
    size_t level = strspn(heading, "#");
    const char *end = strchr(start, '\n');
    while (end) {
        end++;
        if (strspn(end, "#") == level && end[level] == ' ') break;
        end = strchr(end, '\n');
    }
    size_t length = end ? (size_t)(end - start) : strlen(start);
    char *copy = malloc(length + 1);
    if (!copy) return NULL;
    memcpy(copy, start, length);
    copy[length] = '\0';
    return copy;
}

/* Keys of Markdown tables: in every row "| `K1` / `K2` | action |", the `code` spans of the
 * first cell (header and separator rows have none). */
static void collect_table_keys(const char *text, WordSet *keys)
{
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        if (line[0] != '|') continue;
        const char *cell_end = strchr(line + 1, '|');
        const char *line_end = strchr(line, '\n');
        if (!cell_end || (line_end && cell_end > line_end)) continue;
        for (const char *p = line + 1; p < cell_end; p++) {
            if (*p != '`') continue;
            const char *close = memchr(p + 1, '`', (size_t)(cell_end - p - 1));
            if (!close) break;
            set_add(keys, p + 1, (size_t)(close - p - 1));
            p = close;
        }
    }
}

/* Every word of `a` must be in `b`; each missing one is a failed check with the message. */
static void expect_subset(const WordSet *a, const char *a_name, const WordSet *b, const char *b_name, const char *what)
{
    for (int i = 0; i < a->count; i++)
        CHECK(set_has(b, a->words[i]), "%s '%s' is in %s but not in %s", what, a->words[i], a_name, b_name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_docs GENERATED_MAN_PAGE\n");
        return 2;
    }
    static WordSet help_flags, readme_flags, man_flags, roff_flags, roff_terms, readme_keys, man_keys;

    /* 1. --help */
    static char help[1 << 16];
    int status = test_run_capture("'" SKINVIEW_BINARY "' --help", help, sizeof help);
    CHECK(status == 0, "skinview --help exits 0 (got %d)", status);
    collect_flags(help, &help_flags);
    CHECK(help_flags.count >= 10, "--help lists the options (found %d)", help_flags.count);

    /* 2. README, section "## Using it" */
    char *readme = test_read_file(SKINVIEW_SOURCE_DIR "/README.md", NULL);
    CHECK(readme != NULL, "README.md readable");
    char *using_it = readme ? section(readme, "## Using it") : NULL;
    CHECK(using_it != NULL, "README.md has a '## Using it' section");
    if (using_it) {
        collect_flags(using_it, &readme_flags);
        collect_table_keys(using_it, &readme_keys);
    }

    /* 3. man page source, and the keys of its KEYS section */
    char *man = test_read_file(SKINVIEW_SOURCE_DIR "/docs/skinview.1.md", NULL);
    CHECK(man != NULL, "docs/skinview.1.md readable");
    char *man_keys_section = man ? section(man, "# KEYS") : NULL;
    CHECK(man_keys_section != NULL, "docs/skinview.1.md has a '# KEYS' section");
    if (man) collect_flags(man, &man_flags);
    /* GitHub renders `a\|b` in a table as a|b; go-md2man prints the backslash */
    CHECK(!man || strstr(man, "\\|") == NULL,
          "docs/skinview.1.md has '\\|' (escaped pipe), which the man page shows as a backslash: write 'a, b'");
    if (man_keys_section) collect_table_keys(man_keys_section, &man_keys);

    /* 4. the roff the build generated: "\-" is a minus sign, "\fB" etc. switch fonts, "\&" is
     *    nothing */
    char *roff = test_read_file(argv[1], NULL);
    CHECK(roff != NULL, "generated man page %s readable", argv[1]);
    if (roff) {
        char *out = roff;
        for (const char *in = roff; *in; in++) {
            if (in[0] == '\\' && in[1] == '-') {
                in++;
            } else if (in[0] == '\\' && in[1] == 'f' && in[2] != '\0') {
                in += 2;
                continue;
            } else if (in[0] == '\\' && in[1] == '&') {
                in++;
                continue;
            }
            *out++ = *in;
        }
        *out = '\0';
        collect_flags(roff, &roff_flags);
        /* the terms of the definition lists: the line after each ".TP" ("--flag VALUE") */
        for (const char *tp = strstr(roff, "\n.TP\n"); tp; tp = strstr(tp + 1, "\n.TP\n")) {
            const char *term = tp + 5, *end = strchr(term, '\n');
            size_t length = end ? (size_t)(end - term) : strlen(term);
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)(length < sizeof line ? length : sizeof line - 1), term);
            /* only the flags that open the term, before any description */
            collect_flags(line, &roff_terms);
        }
        CHECK(strstr(roff, ".TH SKINVIEW 1") != NULL, "generated man page has its .TH title");
        CHECK(strstr(roff, "@PROJECT_VERSION@") == NULL, "version filled into the man page");
    }

    expect_subset(&help_flags, "--help", &man_flags, "docs/skinview.1.md", "option");
    expect_subset(&man_flags, "docs/skinview.1.md", &help_flags, "--help", "option");
    expect_subset(&help_flags, "--help", &readme_flags, "README.md (## Using it)", "option");
    expect_subset(&readme_flags, "README.md (## Using it)", &help_flags, "--help", "option");
    expect_subset(&man_flags, "docs/skinview.1.md", &roff_flags, argv[1], "option");
    /* each option has an entry of its own (a "**--flag** VALUE" line, blank lines around it) */
    expect_subset(&help_flags, "--help", &roff_terms, "the man page's OPTIONS entries", "option");
    CHECK(readme_keys.count >= 10, "README key table found (%d keys)", readme_keys.count);
    expect_subset(&readme_keys, "README.md's key table", &man_keys, "docs/skinview.1.md (# KEYS)", "key");
    expect_subset(&man_keys, "docs/skinview.1.md (# KEYS)", &readme_keys, "README.md's key table", "key");

    /* 5. the key table (keys.h): its rows' doc names, space-separated */
    static WordSet table_keys;
    int rows;
    const KeyRow *table = keys_table(&rows);
    for (int r = 0; r < rows; r++) {
        for (const char *p = table[r].doc; p && *p;) {
            size_t length = strcspn(p, " ");
            set_add(&table_keys, p, length);
            p += length;
            p += strspn(p, " ");
        }
    }
    CHECK(table_keys.count >= 10, "key table has doc names (%d)", table_keys.count);
    expect_subset(&table_keys, "src/view/keys.c", &readme_keys, "README.md's key tables", "key");
    expect_subset(&readme_keys, "README.md's key tables", &table_keys, "src/view/keys.c (a row's doc)", "key");

    printf("options: --help %d, README %d, man page %d; keys: README %d, man page %d\n", help_flags.count,
           readme_flags.count, man_flags.count, readme_keys.count, man_keys.count);
    printf("key table: %d rows, %d documented keys\n", rows, table_keys.count);
    free(readme);
    free(using_it);
    free(man);
    free(man_keys_section);
    free(roff);
    return test_finish();
}
