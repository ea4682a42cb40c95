// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulator's tests, linked with only src/sim, src/policies and
 * src/common (Makefile: SIM_ONLY_OBJS): "the simulator needs no trace" is
 * checked by the linker.  Prints "N passed, N failed" for tests/run-all.sh.
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

int main(void)
{
	unsigned int failed, passed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (register_sim_tests() || register_policy_tests() || register_kernel_model_tests()) {
		fprintf(stderr, "cannot register tests: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_tests_failed();
	passed = CU_get_number_of_tests_run() - failed;
	printf("\nsim alone: %u passed, %u failed\n", passed, failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
