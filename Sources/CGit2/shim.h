#ifndef PREPUSH_CGIT2_SHIM_H
#define PREPUSH_CGIT2_SHIM_H
#include <git2.h>
#endif
