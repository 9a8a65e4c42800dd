/* layers_tree.c — the sources of src/ as test_layers.c reads them (layers_tree.h): each file with
 * its includes resolved to the file they name, and its text with comments, strings and
 * preprocessor lines blanked, so that a scan for names sees code only. */
#include "layers_tree.h"
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- reading ---------------------------------------------------------------------------- */

bool word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* The text with comments, string and character literals and preprocessor lines turned to spaces
 * (newlines kept), so a scan for names sees code only. */
static char *code_only(const char *raw)
{
    size_t n = strlen(raw);
    char *out = malloc(n + 1);
    if (!out) return NULL;
    memcpy(out, raw, n + 1);
    bool line_start = true;
    for (size_t i = 0; i < n;) {
        char c = raw[i];
        if (line_start && c == '#') {   /* a directive, with its continuation lines */
            while (i < n && raw[i] != '\n') {
                if (raw[i] == '\\' && raw[i + 1] == '\n') out[i++] = ' ';
                out[i++] = ' ';
            }
            continue;
        }
        if (c == '/' && raw[i + 1] == '*') {
            out[i++] = ' ', out[i++] = ' ';
            while (i < n && !(raw[i] == '*' && raw[i + 1] == '/')) { if (raw[i] != '\n') out[i] = ' '; i++; }
            if (i < n) out[i++] = ' ', out[i++] = ' ';
            continue;
        }
        if (c == '/' && raw[i + 1] == '/') {
            while (i < n && raw[i] != '\n') out[i++] = ' ';
            continue;
        }
        if (c == '"' || c == '\'') {
            out[i++] = ' ';
            while (i < n && raw[i] != c && raw[i] != '\n') {
                if (raw[i] == '\\' && i + 1 < n) out[i++] = ' ';
                out[i++] = ' ';
            }
            if (i < n && raw[i] == c) out[i++] = ' ';
            continue;
        }
        if (c == '\n') line_start = true;
        else if (!isspace((unsigned char)c)) line_start = false;
        i++;
    }
    return out;
}

void tree_add(Tree *tree, const char *path, const char *text)
{
    if (tree->count == tree->capacity) {
        tree->capacity = tree->capacity ? 2 * tree->capacity : 256;
        tree->files = realloc(tree->files, (size_t)tree->capacity * sizeof *tree->files);
        if (!tree->files) abort();
    }
    SourceFile *f = &tree->files[tree->count++];
    memset(f, 0, sizeof *f);
    snprintf(f->path, sizeof f->path, "%s", path);
    snprintf(f->stem, sizeof f->stem, "%s", path);
    char *dot = strrchr(f->stem, '.');
    if (dot) *dot = '\0';
    f->raw = strdup(text);
    f->code = code_only(text);
    for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p++ != '#') continue;
        while (*p == ' ' || *p == '\t') p++;
        if (strncmp(p, "include", 7) != 0) continue;
        p += 7;
        while (*p == ' ' || *p == '\t') p++;
        char close = *p == '<' ? '>' : *p == '"' ? '"' : 0;
        const char *end = close ? strchr(p + 1, close) : NULL;
        if (!end || f->include_count == MAX_INCLUDES) continue;
        f->system[f->include_count] = close == '>';
        f->includes[f->include_count++] = strndup(p + 1, (size_t)(end - p - 1));
    }
}

void tree_free(Tree *tree)
{
    for (int i = 0; i < tree->count; i++) {
        free(tree->files[i].raw);
        free(tree->files[i].code);
        for (int k = 0; k < tree->files[i].include_count; k++) free(tree->files[i].includes[k]);
    }
    free(tree->files);
    memset(tree, 0, sizeof *tree);
}

static bool source_name(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (strcmp(dot, ".c") == 0 || strcmp(dot, ".h") == 0 || strcmp(dot, ".cpp") == 0);
}

/* Every .c, .h and .cpp below root/below, paths recorded relative to root. */
void read_tree(Tree *tree, const char *root, const char *below)
{
    char dir_path[1024];
    snprintf(dir_path, sizeof dir_path, "%s/%s", root, below);
    DIR *dir = opendir(dir_path);
    if (!dir) return;
    struct dirent *entry;
    while ((entry = readdir(dir))) {
        if (entry->d_name[0] == '.') continue;
        char relative[512], full[1024];
        snprintf(relative, sizeof relative, "%s%s%s", below, below[0] ? "/" : "", entry->d_name);
        snprintf(full, sizeof full, "%s/%s", root, relative);
        struct stat st;
        if (stat(full, &st) != 0) continue;
        if (S_ISDIR(st.st_mode)) {
            read_tree(tree, root, relative);
        } else if (source_name(entry->d_name)) {
            char *text = test_read_file(full, NULL);
            if (text) tree_add(tree, relative, text);
            free(text);
        }
    }
    closedir(dir);
}

/* ---- resolving -------------------------------------------------------------------------- */

static int find_file(const Tree *tree, const char *path)
{
    for (int i = 0; i < tree->count; i++)
        if (strcmp(tree->files[i].path, path) == 0) return i;
    return -1;
}

/* "a/b/../c.h" -> "a/c.h"; false when it leaves the tree */
static bool normalise(char *path)
{
    char *parts[64];
    int count = 0;
    for (char *save = NULL, *part = strtok_r(path, "/", &save); part; part = strtok_r(NULL, "/", &save)) {
        if (strcmp(part, ".") == 0) continue;
        if (strcmp(part, "..") == 0) {
            if (count == 0) return false;
            count--;
        } else if (count < 64) {
            parts[count++] = part;
        }
    }
    char joined[512] = "";
    for (int i = 0; i < count; i++) {
        strcat(joined, parts[i]);
        if (i + 1 < count) strcat(joined, "/");
    }
    strcpy(path, joined);
    return true;
}

/* A quoted include names a project file next to the includer, or below src/ (the include root). */
static int resolve(const Tree *tree, const SourceFile *from, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s", from->path);
    char *slash = strrchr(path, '/');
    if (slash) slash[1] = '\0';
    else path[0] = '\0';
    strncat(path, name, sizeof path - strlen(path) - 1);
    if (normalise(path)) {
        int found = find_file(tree, path);
        if (found >= 0) return found;
    }
    snprintf(path, sizeof path, "%s", name);
    return normalise(path) ? find_file(tree, path) : -1;
}

/* The top folder below src/: "io" for "io/fbx/fbx_doc.c". */
void room_of(const char *path, char *room, size_t size)
{
    const char *slash = strchr(path, '/');
    size_t n = slash ? (size_t)(slash - path) : 0;   /* a file directly in src/: no room */
    if (n >= size) n = size - 1;
    memcpy(room, path, n);
    room[n] = '\0';
}

void resolve_all(Tree *tree)
{
    for (int i = 0; i < tree->count; i++) {
        SourceFile *f = &tree->files[i];
        for (int k = 0; k < f->include_count; k++) f->resolved[k] = f->system[k] ? -1 : resolve(tree, f, f->includes[k]);
        f->unit = -1;
        for (int j = 0; j < i && f->unit < 0; j++)
            if (strcmp(tree->files[j].stem, f->stem) == 0) f->unit = tree->files[j].unit;
        if (f->unit < 0) f->unit = i;
    }
    for (int i = 0; i < tree->count; i++) {   /* a unit is named by its source file when it has one */
        SourceFile *f = &tree->files[i];
        const char *dot = strrchr(f->path, '.');
        if (f->unit != i && strcmp(dot, ".h") != 0) {
            int old_unit = f->unit;
            for (int j = 0; j < tree->count; j++)
                if (tree->files[j].unit == old_unit) tree->files[j].unit = i;
        }
    }
}
