/* api/mpit_event.c — the MPI_T event calls that take an event index, a registration or an
 * instance (MPI 4.1, section 15.3.8), where loom has no event type (api/mpit_category.c
 * answers the counts and lookups: 0 events, 0 sources).
 *
 * With no event type no registration can be allocated, so no callback can be registered and
 * no instance is ever handed to one: the only handles a program can hold are garbage or
 * copies of nothing. Every call therefore answers, once MPI_T is initialized (else
 * MPI_T_ERR_NOT_INITIALIZED, like every MPI_T call): MPI_T_event_handle_alloc
 * MPI_T_ERR_INVALID_INDEX, every other call MPI_T_ERR_INVALID_HANDLE. No handle is
 * dereferenced. They take the MPI_T lock only to check the initialization (api/mpit.h). */
#include "api/mpit.h"

int loom__mpi_t_event_handle_alloc(int event_index, void *obj_handle, MPI_Info info,
                                   MPI_T_event_registration *event_registration)
{
    (void)event_index, (void)obj_handle, (void)info, (void)event_registration;
    MPIT_ENTER();
    MPIT_RETURN(MPI_T_ERR_INVALID_INDEX); /* no event type has an index */
}

/* The answer of every call given a registration or an instance: none can exist. */
static int no_handle(void)
{
    MPIT_ENTER();
    MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
}

int loom__mpi_t_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info)
{
    (void)event_registration, (void)info;
    return no_handle();
}

int loom__mpi_t_event_handle_get_info(MPI_T_event_registration event_registration,
                                      MPI_Info *info_used)
{
    (void)event_registration, (void)info_used;
    return no_handle();
}

int loom__mpi_t_event_register_callback(MPI_T_event_registration event_registration,
                                        MPI_T_cb_safety cb_safety, MPI_Info info, void *user_data,
                                        MPI_T_event_cb_function *event_cb_function)
{
    (void)event_registration, (void)cb_safety, (void)info, (void)user_data;
    (void)event_cb_function;
    return no_handle();
}

int loom__mpi_t_event_callback_set_info(MPI_T_event_registration event_registration,
                                        MPI_T_cb_safety cb_safety, MPI_Info info)
{
    (void)event_registration, (void)cb_safety, (void)info;
    return no_handle();
}

int loom__mpi_t_event_callback_get_info(MPI_T_event_registration event_registration,
                                        MPI_T_cb_safety cb_safety, MPI_Info *info_used)
{
    (void)event_registration, (void)cb_safety, (void)info_used;
    return no_handle();
}

int loom__mpi_t_event_handle_free(MPI_T_event_registration event_registration, void *user_data,
                                  MPI_T_event_free_cb_function *free_cb_function)
{
    (void)event_registration, (void)user_data, (void)free_cb_function;
    return no_handle();
}

int loom__mpi_t_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                          MPI_T_event_dropped_cb_function *dropped_cb_function)
{
    (void)event_registration, (void)dropped_cb_function;
    return no_handle();
}

int loom__mpi_t_event_read(MPI_T_event_instance event_instance, int element_index, void *buffer)
{
    (void)event_instance, (void)element_index, (void)buffer;
    return no_handle();
}

int loom__mpi_t_event_copy(MPI_T_event_instance event_instance, void *buffer)
{
    (void)event_instance, (void)buffer;
    return no_handle();
}

int loom__mpi_t_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count *event_timestamp)
{
    (void)event_instance, (void)event_timestamp;
    return no_handle();
}

int loom__mpi_t_event_get_source(MPI_T_event_instance event_instance, int *source_index)
{
    (void)event_instance, (void)source_index;
    return no_handle();
}
