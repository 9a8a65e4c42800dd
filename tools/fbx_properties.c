/* fbx_properties — every property name the FBX files under the given paths set, per object kind.
 *
 *   build/fbx_properties PATH...      (files, or folders searched recursively for *.fbx)
 *
 * Reads each file with skinview's own FBX record reader (src/io/fbx/fbx_doc.h: binary and ASCII,
 * 5.0 … 7.7) and lists every `P:` of a Properties70 and every `Property:` of a Properties60, with
 * the kind of the record that holds the list (Model, Geometry, Deformer, NodeAttribute, Material,
 * GlobalSettings, …; "template:KIND" for a Definitions PropertyTemplate). One line per (kind,
 * name): the number of files that use it, the number of times it appears and up to four of the
 * distinct values it holds (its numbers or string after the type, label and flags), tab-separated,
 * sorted by kind then name; the last line counts the files read. docs/skinning.md ("FBX properties")
 * keeps the table this made and what became of each property.
 */
#include "io/fbx/fbx_doc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define VALUES_KEPT 4

typedef struct Entry {
    char *kind, *name;
    char *values[VALUES_KEPT];   /* distinct values seen, as text */
    int   value_count;           /* distinct values seen (may exceed VALUES_KEPT) */
    int   files, uses;
    int   last_file;   /* the file that last counted it, so each file counts once */
} Entry;

static Entry *entries;
static int entry_count, entry_capacity, file_count;

static void add_value(Entry *e, const char *value)
{
    for (int i = 0; i < e->value_count && i < VALUES_KEPT; i++)
        if (strcmp(e->values[i], value) == 0) return;
    if (e->value_count < VALUES_KEPT) {
        e->values[e->value_count] = strdup(value);
        if (!e->values[e->value_count]) exit(1);
    }
    e->value_count++;
}

static void add(const char *kind, const char *name, size_t name_length, const char *value)
{
    for (int i = 0; i < entry_count; i++)
        if (strcmp(entries[i].kind, kind) == 0 && strlen(entries[i].name) == name_length &&
            memcmp(entries[i].name, name, name_length) == 0) {
            entries[i].uses++;
            if (entries[i].last_file != file_count) entries[i].files++, entries[i].last_file = file_count;
            add_value(&entries[i], value);
            return;
        }
    if (entry_count == entry_capacity) {
        entry_capacity = entry_capacity ? 2 * entry_capacity : 256;
        entries = realloc(entries, sizeof *entries * (size_t)entry_capacity);
        if (!entries) exit(1);
    }
    Entry *e = &entries[entry_count++];
    e->kind = strdup(kind);
    e->name = strndup(name, name_length);
    if (!e->kind || !e->name) exit(1);
    e->files = e->uses = 1;
    e->last_file = file_count;
    e->value_count = 0;
    add_value(e, value);
}

/* A property's value as text: its values after name, type, label and flags (Properties70: from
 * value 4; Properties60: from 3), numbers with %g, strings quoted, comma-separated. */
static void value_text(const FbxRecord *property, bool seventy, char *out, size_t size)
{
    size_t n = 0;
    out[0] = '\0';
    for (int i = seventy ? 4 : 3; i < property->value_count && n + 1 < size; i++) {
        const FbxValue *v = &property->values[i];
        int w = 0;
        if (v->type == FBX_VALUE_INTEGER) w = snprintf(out + n, size - n, "%s%lld", n ? "," : "", (long long)v->integer);
        else if (v->type == FBX_VALUE_REAL) w = snprintf(out + n, size - n, "%s%g", n ? "," : "", v->real);
        else if (v->type == FBX_VALUE_STRING) w = snprintf(out + n, size - n, "%s\"%.40s\"", n ? "," : "", v->string);
        if (w < 0) break;
        n += (size_t)w;
        if (n >= size) n = size - 1;
    }
    for (char *c = out; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == '\t') *c = ' ';
}

/* The property lists below `r`, whose kind is `kind`. */
static void walk(const FbxRecord *r, const char *kind, int depth)
{
    if (depth > 64) return;
    for (int c = 0; c < r->child_count; c++) {
        const FbxRecord *child = &r->children[c];
        if (strcmp(child->name, "Properties70") == 0 || strcmp(child->name, "Properties60") == 0) {
            bool seventy = strcmp(child->name, "Properties70") == 0;
            for (int p = 0; p < child->child_count; p++) {
                const FbxRecord *property = &child->children[p];
                if (property->value_count < 1 || property->values[0].type != FBX_VALUE_STRING) continue;
                char value[160];
                value_text(property, seventy, value, sizeof value);
                add(kind, property->values[0].string, property->values[0].length, value);
            }
            continue;
        }
        char child_kind[96];
        if (strcmp(child->name, "ObjectType") == 0 && child->value_count > 0 && child->values[0].type == FBX_VALUE_STRING)
            snprintf(child_kind, sizeof child_kind, "template:%s", child->values[0].string);
        else if (strcmp(child->name, "PropertyTemplate") == 0)
            snprintf(child_kind, sizeof child_kind, "%s", kind);
        else
            snprintf(child_kind, sizeof child_kind, "%s", child->name);
        walk(child, child_kind, depth + 1);
    }
}

static void read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *bytes = size > 0 ? malloc((size_t)size) : NULL;
    bool ok = bytes && fread(bytes, 1, (size_t)size, f) == (size_t)size;
    fclose(f);
    FbxDocument doc;
    char error[256];
    if (ok && fbx_document_read(&doc, bytes, (size_t)size, error, sizeof error)) {
        file_count++;
        walk(&doc.root, "top", 0);
        fbx_document_free(&doc);
    } else if (ok) {
        fprintf(stderr, "fbx_properties: %s: %s\n", path, error);
    }
    free(bytes);
}

static void read_path(const char *path, int depth)
{
    struct stat st;
    if (stat(path, &st) != 0) return;
    if (S_ISREG(st.st_mode)) {
        size_t n = strlen(path);
        if (n > 4 && strcasecmp(path + n - 4, ".fbx") == 0) read_file(path);
        return;
    }
    if (!S_ISDIR(st.st_mode) || depth > 8) return;
    DIR *dir = opendir(path);
    struct dirent *e;
    while (dir && (e = readdir(dir)) != NULL) {
        if (e->d_name[0] == '.') continue;
        char child[4096];
        if (snprintf(child, sizeof child, "%s/%s", path, e->d_name) >= (int)sizeof child) continue;   /* too long */
        read_path(child, depth + 1);
    }
    if (dir) closedir(dir);
}

static int compare(const void *a, const void *b)
{
    const Entry *x = a, *y = b;
    int c = strcmp(x->kind, y->kind);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fbx_properties PATH...\n");
        return 2;
    }
    for (int i = 1; i < argc; i++) read_path(argv[i], 0);
    qsort(entries, (size_t)entry_count, sizeof *entries, compare);
    printf("kind\tproperty\tfiles\tuses\tvalues\n");
    for (int i = 0; i < entry_count; i++) {
        const Entry *e = &entries[i];
        printf("%s\t%s\t%d\t%d\t", e->kind, e->name, e->files, e->uses);
        for (int v = 0; v < e->value_count && v < VALUES_KEPT; v++) printf("%s[%s]", v ? " " : "", e->values[v]);
        if (e->value_count > VALUES_KEPT) printf(" (%d distinct)", e->value_count);
        putchar('\n');
    }
    printf("# %d FBX files read\n", file_count);
    return 0;
}
