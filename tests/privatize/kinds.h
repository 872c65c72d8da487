/* tests/privatize/kinds.h — what kinds.c, kinds_other.c and kinds_lib.c share. */
#ifndef LOOM_TEST_PRIVATIZE_KINDS_H
#define LOOM_TEST_PRIVATIZE_KINDS_H
/* kinds_other.c */
extern int other_counter;
extern int *other_ptr;
int other_value(void);
void other_set(int v);
int other_main_defined(void);
/* kinds.c, used by kinds_other.c */
extern int main_defined;
/* kinds_lib.c (libkinds.a) */
extern int lib_value;
int lib_get(void);
void lib_set(int v);
int lib_ptr_ok(void);
void *lib_address(void);
#endif
