# SPDX-License-Identifier: GPL-2.0-only
# One line per policy: name nr_scanned nr_reclaimed calls shrink_lruvec_calls
# episodes_differing_from_baseline episodes_matching_recording, and the
# recorded totals first.
"recorded \(.summary.recorded.nr_scanned) \(.summary.recorded.nr_reclaimed)",
(.summary.policies | to_entries[] | "\(.key) \(.value.nr_scanned) \(.value.nr_reclaimed) \(.value.calls) \(.value.shrink_lruvec_calls) \(.value.episodes_differing_from_baseline) \(.value.episodes_matching_recording)")
