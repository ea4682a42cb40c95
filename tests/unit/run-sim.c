// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's tests, linked with only src/sim, src/policies and
 * src/common (Makefile: SIM_ONLY_OBJS): "the simulator needs no trace" is
 * checked by the linker.  Prints "N passed, N failed" for tests/run-all.sh.
 */
#include "unit.h"

static int register_all(void)
{
	return register_sim_tests() || register_policy_tests() || register_kernel_model_tests();
}

int main(void)
{
	return unit_main("sim alone", register_all);
}
