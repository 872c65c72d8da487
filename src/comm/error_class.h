/* comm/error_class.h — error classes and codes added by the program (MPI_Add_error_class,
 * MPI_Add_error_code) and their strings (MPI_Add_error_string).
 *
 * One table for the whole job (the ranks are threads of one process): a value added by one
 * rank is known to every rank, which the standard allows (values may differ between
 * processes; here they simply agree). Values start after MPI_ERR_LASTCODE and grow by one;
 * the attribute MPI_LASTUSEDCODE (comm/keyval.c) follows the largest. Any thread may call
 * these functions. */
#ifndef LOOM_COMM_ERROR_CLASS_H
#define LOOM_COMM_ERROR_CLASS_H
#include <stddef.h>

/* A new class: its value in *cls. 0 or LOOM_ERR_NOMEM. */
int loom__error_add_class(int *cls) __attribute__((warn_unused_result));
/* A new code of class cls (a class added by loom__error_add_class: the caller checked
 * loom__error_is_user_class, or a predefined class): its value in *code. 0 or
 * LOOM_ERR_NOMEM. */
int loom__error_add_code(int cls, int *code) __attribute__((warn_unused_result));
/* 1 if v is a value added by the program (class or code), else 0. */
int loom__error_is_user(int v);
/* 1 if v is a class added by the program, else 0. */
int loom__error_is_user_class(int v);
/* The class of a value added by the program, or -1. */
int loom__error_user_class(int v);
/* Set the string of value v (added by the program; the caller checked it and the length).
 * 0 or LOOM_ERR_NOMEM. */
int loom__error_set_string(int v, const char *text) __attribute__((warn_unused_result));
/* Copy the string of value v (added by the program) into buf[len] ("" when none was set);
 * returns its length, or -1 when v is not such a value. */
int loom__error_get_string(int v, char *buf, size_t len);
/* MPI_Remove_error_class/_code/_string (MPI 4.1): a removed value is unknown again (no
 * lookup finds it) and never handed out again. A class goes only once its codes are gone
 * (its string with it); a code only once its string is gone. */
enum loom_error_remove {
    LOOM_ERROR_REMOVED = 0,
    LOOM_ERROR_UNKNOWN,    /* not a live class (code) added by the program */
    LOOM_ERROR_HAS_CODES,  /* a class with codes not removed */
    LOOM_ERROR_HAS_STRING, /* a code whose string is not removed */
    LOOM_ERROR_NO_STRING,  /* a value with no string to remove */
};
enum loom_error_remove loom__error_remove_class(int v);
enum loom_error_remove loom__error_remove_code(int v);
enum loom_error_remove loom__error_remove_string(int v);
/* Forget every added value (the end of the job). */
void loom__error_user_fini(void);
#endif
