/* MotionSolve's subroutine header name: sources written for MotionSolve include this and compile unchanged. */
#ifndef LODESTONE_MSOLVSUB_C_INCLUDE_H
#define LODESTONE_MSOLVSUB_C_INCLUDE_H
#include "lodestone/usersub.h"
#endif
