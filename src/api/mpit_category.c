/* api/mpit_category.c — MPI_T categories (loom's layers, core/mpit.h), enumerations (the
 * keyword rows of the configuration table) and the MPI-4 event interface, where loom has
 * no event source and no event type: the counts are 0 and every index or name is unknown. */
#include <string.h>

#include "api/mpit.h"

static int bad_category(int c)
{
    return c < 0 || c >= loom__mpit_category_count();
}

int loom__mpi_t_category_get_num(int *num_cat)
{
    MPIT_ENTER();
    if (num_cat == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_cat = loom__mpit_category_count();
    MPIT_RETURN(MPI_SUCCESS);
}

/* Every OUT argument may be NULL: that information is not returned. */
int loom__mpi_t_category_get_info(int cat_index, char *name, int *name_len, char *desc,
                                  int *desc_len, int *num_cvars, int *num_pvars,
                                  int *num_categories)
{
    MPIT_ENTER();
    if (bad_category(cat_index))
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    loom__mpit_string(name, name_len, loom__mpit_category_name(cat_index));
    loom__mpit_string(desc, desc_len, loom__mpit_category_desc(cat_index));
    if (num_cvars)
        *num_cvars = loom__mpit_category_cvars(cat_index, 0, NULL);
    if (num_pvars)
        *num_pvars = loom__mpit_category_pvars(cat_index, 0, NULL);
    if (num_categories)
        *num_categories = loom__mpit_category_subcats(cat_index, 0, NULL);
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_category_get_index(const char *name, int *cat_index)
{
    MPIT_ENTER();
    if (name == NULL || cat_index == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    for (int c = 0; c < loom__mpit_category_count(); c++) {
        if (strcmp(loom__mpit_category_name(c), name) == 0) {
            *cat_index = c;
            MPIT_RETURN(MPI_SUCCESS);
        }
    }
    MPIT_RETURN(MPI_T_ERR_INVALID_NAME);
}

/* The three lists: up to len indices into indices (which may be NULL only when len is 0). */
static int get_list(int cat_index, int len, int indices[], int (*list)(int, int, int[]))
{
    if (bad_category(cat_index))
        return MPI_T_ERR_INVALID_INDEX;
    if (len < 0 || (len > 0 && indices == NULL))
        return MPI_T_ERR_INVALID;
    list(cat_index, len, indices);
    return MPI_SUCCESS;
}

int loom__mpi_t_category_get_cvars(int cat_index, int len, int indices[])
{
    MPIT_ENTER();
    MPIT_RETURN(get_list(cat_index, len, indices, loom__mpit_category_cvars));
}

int loom__mpi_t_category_get_pvars(int cat_index, int len, int indices[])
{
    MPIT_ENTER();
    MPIT_RETURN(get_list(cat_index, len, indices, loom__mpit_category_pvars));
}

int loom__mpi_t_category_get_categories(int cat_index, int len, int indices[])
{
    MPIT_ENTER();
    MPIT_RETURN(get_list(cat_index, len, indices, loom__mpit_category_subcats));
}

int loom__mpi_t_category_get_num_events(int cat_index, int *num_events)
{
    MPIT_ENTER();
    if (bad_category(cat_index))
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (num_events == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_events = 0;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_category_get_events(int cat_index, int len, int indices[])
{
    MPIT_ENTER();
    if (bad_category(cat_index))
        MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
    if (len < 0 || (len > 0 && indices == NULL))
        MPIT_RETURN(MPI_T_ERR_INVALID);
    MPIT_RETURN(MPI_SUCCESS); /* no events: nothing written */
}

/* Categories and variables are fixed for the whole run: the number never changes. */
int loom__mpi_t_category_changed(int *update_number)
{
    MPIT_ENTER();
    if (update_number == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *update_number = 0;
    MPIT_RETURN(MPI_SUCCESS);
}

/* ---- enumerations ------------------------------------------------------------------------ */

int loom__mpi_t_enum_get_info(MPI_T_enum enumtype, int *num, char *name, int *name_len)
{
    MPIT_ENTER();
    int row = loom__mpit_enum_row(enumtype);
    if (row < 0)
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (num == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num = loom__mpit_enum_count(row);
    loom__mpit_string(name, name_len, loom__config_name((enum loom_config_id)row));
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_enum_get_item(MPI_T_enum enumtype, int index, int *value, char *name, int *name_len)
{
    char word[128];
    MPIT_ENTER();
    int row = loom__mpit_enum_row(enumtype);
    if (row < 0)
        MPIT_RETURN(MPI_T_ERR_INVALID_HANDLE);
    if (index < 0 || loom__mpit_enum_item(row, index, word, sizeof word) < 0)
        MPIT_RETURN(MPI_T_ERR_INVALID_ITEM);
    if (value == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *value = index; /* a keyword row's value is the index of its word */
    loom__mpit_string(name, name_len, word);
    MPIT_RETURN(MPI_SUCCESS);
}

/* ---- events: none -------------------------------------------------------------------------- */

int loom__mpi_t_source_get_num(int *num_sources)
{
    MPIT_ENTER();
    if (num_sources == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_sources = 0;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_source_get_info(int source_index, char *name, int *name_len, char *desc,
                                int *desc_len, MPI_T_source_order *ordering,
                                MPI_Count *ticks_per_second, MPI_Count *max_ticks, MPI_Info *info)
{
    (void)source_index, (void)name, (void)name_len, (void)desc, (void)desc_len;
    (void)ordering, (void)ticks_per_second, (void)max_ticks, (void)info;
    MPIT_ENTER();
    MPIT_RETURN(MPI_T_ERR_INVALID_INDEX); /* no source has an index */
}

int loom__mpi_t_source_get_timestamp(int source_index, MPI_Count *timestamp)
{
    (void)source_index, (void)timestamp;
    MPIT_ENTER();
    MPIT_RETURN(MPI_T_ERR_INVALID_INDEX);
}

int loom__mpi_t_event_get_num(int *num_events)
{
    MPIT_ENTER();
    if (num_events == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    *num_events = 0;
    MPIT_RETURN(MPI_SUCCESS);
}

int loom__mpi_t_event_get_info(int event_index, char *name, int *name_len, int *verbosity,
                               MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                               int *num_elements, MPI_T_enum *enumtype, MPI_Info *info, char *desc,
                               int *desc_len, int *bind)
{
    (void)event_index, (void)name, (void)name_len, (void)verbosity, (void)array_of_datatypes;
    (void)array_of_displacements, (void)num_elements, (void)enumtype, (void)info, (void)desc;
    (void)desc_len, (void)bind;
    MPIT_ENTER();
    MPIT_RETURN(MPI_T_ERR_INVALID_INDEX); /* no event type has an index */
}

int loom__mpi_t_event_get_index(const char *name, int *event_index)
{
    MPIT_ENTER();
    if (name == NULL || event_index == NULL)
        MPIT_RETURN(MPI_T_ERR_INVALID);
    MPIT_RETURN(MPI_T_ERR_INVALID_NAME); /* no event type has a name */
}
