/* SPDX-License-Identifier: GPL-2.0-only */
/* CUnit suites of the unit tests; each file registers its own. */
#ifndef RR_TEST_UNIT_H
#define RR_TEST_UNIT_H

#include <CUnit/Basic.h>
#include <stdio.h>

int register_sim_tests(void);
int register_policy_tests(void);
int register_kernel_model_tests(void);
int register_builder_tests(void);
int register_attribute_tests(void);
int register_record_tests(void);
int register_trace_tests(void);
int register_output_tests(void);
int register_timing_tests(void);
int register_probe_tests(void);
int register_fidelity_tests(void);

/*
 * Register with @register_all (which calls register_*_tests() and returns
 * non-zero when one failed), run every suite verbosely, print "@name: N
 * passed, N failed" for tests/run-all.sh.  Returns main()'s exit status:
 * 0, 1 when a test failed, 2 when the tests could not be registered.
 */
static inline int unit_main(const char *name, int (*register_all)(void))
{
	unsigned int failed, passed;

	if (CU_initialize_registry() != CUE_SUCCESS)
		return 2;
	if (register_all()) {
		fprintf(stderr, "cannot register tests: %s\n", CU_get_error_msg());
		CU_cleanup_registry();
		return 2;
	}
	CU_basic_set_mode(CU_BRM_VERBOSE);
	CU_basic_run_tests();
	failed = CU_get_number_of_tests_failed();
	passed = CU_get_number_of_tests_run() - failed;
	printf("\n%s: %u passed, %u failed\n", name, passed, failed);
	CU_cleanup_registry();
	return failed ? 1 : 0;
}

#endif
