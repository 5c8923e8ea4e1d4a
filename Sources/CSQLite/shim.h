#ifndef PREPUSH_CSQLITE_SHIM_H
#define PREPUSH_CSQLITE_SHIM_H
#include <sqlite3.h>
#endif
