// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unit test runner (CUnit).  Exits non-zero when any assertion failed, and
 * prints "N passed, N failed" for the test harness (tests/run-all.sh).
 * RR_TEST_PLUGIN_DIR names the directory with the test policy .so files.
 */
#include "unit.h"

static int register_all(void)
{
	return register_sim_tests() || register_policy_tests() ||
	       register_kernel_model_tests() || register_builder_tests() ||
	       register_attribute_tests() ||
	       register_record_tests() || register_trace_tests() ||
	       register_output_tests() || register_timing_tests() ||
	       register_probe_tests() || register_fidelity_tests();
}

int main(void)
{
	return unit_main("unit", register_all);
}
