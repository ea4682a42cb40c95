// SPDX-License-Identifier: GPL-2.0-only
/* Test shared object without the entry symbol: not a policy. */
int rr_not_a_policy(void);
int rr_not_a_policy(void)
{
	return 42;
}
