# SPDX-License-Identifier: GPL-2.0-only
# Per-cgroup pages scanned (inactive lists) and reclaimed, summed from
# `trace-cmd report` text, written independently of reclaim-replay's reader
# for t90.  A batch (mm_vmscan_lru_isolate) belongs to the memcg named by
# the next memcg: event of the same task and CPU: the first negative
# mod_memcg_lruvec_state of the isolated list, or count_memcg_events
# (docs/kernel-model.md §12.3).  Output: "memcg_id scanned reclaimed"
# lines, "0" for batches no memcg: event followed.
function field(name,   m) {
	if (match($0, " " name "=[^ ]+")) {
		m = substr($0, RSTART + length(name) + 2, RLENGTH - length(name) - 2)
		return m
	}
	return ""
}
function lru_num(s) {
	if (s == "inactive_anon") return 0
	if (s == "active_anon") return 1
	if (s == "inactive_file") return 2
	if (s == "active_file") return 3
	if (s == "unevictable") return 4
	return s + 0
}
function close_batch(k) {
	if (!(k in open_lru))
		return
	id = (k in owner) ? owner[k] : 0
	seen[id] = 1
	if (open_lru[k] % 2 == 0)
		scanned[id] += open_scanned[k]
	delete open_lru[k]
	delete owner[k]
	delete waiting[k]
}
{
	if (!match($0, /-[0-9]+ +\[[0-9]+\]/))
		next
	key = substr($0, RSTART, RLENGTH)
	gsub(/ +/, " ", key)
}
/ mm_vmscan_lru_isolate: / {
	close_batch(key)
	open_lru[key] = lru_num(field("lru"))
	open_scanned[key] = field("nr_scanned") + 0
	waiting[key] = 1
	next
}
/ mod_memcg_lruvec_state: / {
	if ((key in waiting) && field("val") + 0 < 0 && field("item") + 0 == open_lru[key]) {
		owner[key] = field("memcg_id")
		delete waiting[key]
	}
	next
}
/ count_memcg_events: / {
	if (key in waiting) {
		owner[key] = field("memcg_id")
		delete waiting[key]
	}
	next
}
/ mm_vmscan_lru_shrink_(in)?active: / {
	if (key in open_lru) {
		id = (key in owner) ? owner[key] : 0
		if ($0 ~ / mm_vmscan_lru_shrink_inactive: /)
			reclaimed[id] += field("nr_reclaimed") + 0
		close_batch(key)
	}
	next
}
END {
	for (k in open_lru)
		close_batch(k)
	for (id in seen)
		printf "%s %d %d\n", id, scanned[id], reclaimed[id]
}
