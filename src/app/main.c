/* main.c — skinview: the program (app_main.c), its windows run by the user. */
#include "commands.h"

int main(int argc, char **argv)
{
    return app_main(argc, argv, NULL);
}
