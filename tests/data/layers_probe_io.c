/* layers_probe_io.c — compiled with src/anim's include folders by docs_layers_anim_cannot_include_io: it must
 * not compile, since src/anim includes nothing of the project but itself and src/base. */
#include "io/import.h"
