// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test runner (CUnit).  Exits non-zero when any assertion failed, and
 * prints "N passed, N failed" for the test harness (tests/run-all.sh).
 * RR_TEST_PLUGIN_DIR names the directory with the test policy .so files.
 */
#include <CUnit/Basic.h>
#include <stdio.h>

#include "unit.h"

int main(void)
{
	unsigned int failed, passed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (register_sim_tests() || register_policy_tests() ||
	    register_kernel_model_tests() || register_builder_tests() ||
	    register_record_tests() || register_trace_tests() ||
	    register_output_tests()) {
		fprintf(stderr, "cannot register tests: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_tests_failed();
	passed = CU_get_number_of_tests_run() - failed;
	printf("\nunit: %u passed, %u failed\n", passed, failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}
