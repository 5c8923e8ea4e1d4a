#ifndef PREPUSH_CYAML_SHIM_H
#define PREPUSH_CYAML_SHIM_H
#include <yaml.h>
#endif
