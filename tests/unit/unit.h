/* SPDX-License-Identifier: GPL-2.0-only */
/* CUnit suites of the unit tests; each file registers its own. */
#ifndef RR_TEST_UNIT_H
#define RR_TEST_UNIT_H

#include <CUnit/CUnit.h>

int register_sim_tests(void);
int register_policy_tests(void);
int register_kernel_model_tests(void);
int register_builder_tests(void);
int register_record_tests(void);
int register_trace_tests(void);
int register_output_tests(void);

#endif
