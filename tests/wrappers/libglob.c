/* A shared library built with `mpicc -fPIC -shared`: its global is per rank, like the
 * program's own (tests/wrappers/useglob.c checks it). */
int glob_value = 7;

void glob_set(int v)
{
    glob_value = v;
}

int glob_get(void)
{
    return glob_value;
}
