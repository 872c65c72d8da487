/* core/main.c — loom's main (in libloom-main.a). mpi.h renamed the program's main to
 * loom_user_main; this one starts the ranks that run it. */
#include "mpi.h"

int loom_user_main(int argc, char **argv);

int main(int argc, char **argv)
{
    return loom_run(argc, argv, loom_user_main);
}
