/* layers_tree.h — the sources of src/ as the layers test reads them (layers_tree.c). */
#ifndef SKINVIEW_LAYERS_TREE_H
#define SKINVIEW_LAYERS_TREE_H

#include <stdbool.h>
#include <stddef.h>

#define MAX_INCLUDES 64

typedef struct SourceFile {
    char  path[256];      /* below src/: "io/fbx/fbx_doc.c" */
    char  stem[256];      /* path without its extension: a source and its header share it */
    char *raw;            /* the file */
    char *code;           /* comments, strings and preprocessor lines blanked */
    char *includes[MAX_INCLUDES];
    bool  system[MAX_INCLUDES];   /* <...> rather than "..." */
    int   resolved[MAX_INCLUDES]; /* index of the project file it names, -1 */
    int   include_count;
    int   unit;           /* index of its stem's unit */
} SourceFile;

typedef struct Tree {
    SourceFile *files;
    int         count, capacity;
} Tree;

/* A letter, digit or '_': a character of a C name. */
bool word_char(char c);
/* Adds the file `path` (below src/) with the text `text` (copied). */
void tree_add(Tree *tree, const char *path, const char *text);
void tree_free(Tree *tree);
/* Every .c, .h and .cpp below root/below, paths recorded relative to root. */
void read_tree(Tree *tree, const char *root, const char *below);
/* The top folder below src/: "io" for "io/fbx/fbx_doc.c"; "" for a file directly in src/. */
void room_of(const char *path, char *room, size_t size);
/* Resolves each file's quoted includes and gives it its unit: a source and its header of the same
 * name are one unit, named by the source. */
void resolve_all(Tree *tree);

#endif
